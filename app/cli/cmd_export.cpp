// pcplab-cli export: a recording as CSV, figures, a Perfetto trace, /proc texts or a lock_stat summary.
#include "args.hpp"
#include "commands.hpp"

#include "session/export.hpp"
#include "session/recording_reader.hpp"
#include "session/series.hpp"
#include "ui/session/figure_export.hpp"

#include "io/output_file.hpp"

namespace pcplab::cli
{

namespace
{

void write_out(const std::optional<std::string>& out, const std::string& text)
{
    if (!out) {
        write_stdout(text);
        return;
    }
    if (std::string err = io::write_file_atomically(*out, text); !err.empty())
        throw cli_error("--out " + *out + ": cannot be written (" + err + ")");
}

std::pair<int, int> parse_size(const std::string& text)
{
    auto x = text.find('x');
    const std::string bad = "--size: '" + text + "' is not WIDTHxHEIGHT in pixels (e.g. 1200x700)";
    if (x == std::string::npos) throw cli_error(bad);
    int w = 0, h = 0;
    try {
        w = parse_int("--size", text.substr(0, x), 100);
        h = parse_int("--size", text.substr(x + 1), 100);
    } catch (const cli_error&) {
        throw cli_error(bad + ", each at least 100");
    }
    if (w > 10000 || h > 10000) throw cli_error("--size: at most 10000 pixels a side, not " + text);
    return {w, h};
}

} // namespace

std::string export_help()
{
    return "Usage: pcplab-cli export FILE --format FORMAT [--series NAME] [--run N] [--out PATH] [--size WxH]\n"
           "\n"
           "Writes what a recording holds in the formats the field reads.\n"
           "\n"
           "  --format csv             the time series, one row per snapshot (every series, or --series NAME)\n"
           "  --format svg|png|pdf     figures with axis titles: --series NAME into the file --out, or every\n"
           "                           series into the directory --out (one file per series)\n"
           "  --format perfetto        Chrome JSON trace for ui.perfetto.dev: a process per node, a thread per\n"
           "                           CPU, a track per zone->lock with its holds, pcp counters, instant events\n"
           "  --format zoneinfo        the recorded /proc/zoneinfo texts in mmtests monitor framing (time: EPOCH)\n"
           "  --format buddyinfo       the same for /proc/buddyinfo\n"
           "  --format lockstat        /proc/lock_stat layout for the zone locks at the end of the run\n"
           "  --series NAME            one of: "
        + session::series_names_text()
        + "\n"
          "  --run N                  the run (of a --repeat recording); default: the first\n"
          "  --out PATH               the output file (default: stdout for text formats)\n"
          "  --size WxH               figure size in pixels (default 1200x700)\n";
}

int cmd_export(const std::vector<std::string>& args)
{
    parsed_args a = parse_args("export", args,
        {{"--format", true, false}, {"--series", true, false}, {"--out", true, false}, {"--size", true, false},
            {"--run", true, false}},
        1);
    if (a.positional.empty()) throw cli_error("export: give a recording (see pcplab-cli help export)");
    auto format = a.get("--format");
    if (!format) throw cli_error("--format: required (csv, svg, png, pdf, perfetto, zoneinfo, buddyinfo, lockstat)");
    const auto figure = ui::figure_format_from(*format);
    const bool text_format = *format == "csv" || *format == "perfetto" || *format == "zoneinfo"
        || *format == "buddyinfo" || *format == "lockstat";
    if (!figure && !text_format)
        throw cli_error(
            "--format: '" + *format + "' is not one of csv, svg, png, pdf, perfetto, zoneinfo, buddyinfo, lockstat");
    const std::string series = a.get("--series").value_or("");
    if (!series.empty() && !session::find_series(series))
        throw cli_error("--series: unknown series '" + series + "' (one of: " + session::series_names_text() + ")");
    std::pair<int, int> size{1200, 700};
    if (auto s = a.get("--size")) size = parse_size(*s);
    std::int64_t run = 0;
    if (auto r = a.get("--run")) run = parse_int("--run", *r, 1);
    if (figure && !a.get("--out"))
        throw cli_error("--out: required for figures (a file with --series, else a directory)");

    try {
        session::recording rec(a.positional.front());
        const std::int64_t r = session::pick_run(rec, run);
        if (figure) {
            std::vector<const session::series_info*> which;
            if (series.empty())
                for (const auto& s : session::all_series()) which.push_back(&s);
            else
                which.push_back(session::find_series(series));
            std::string err;
            auto written
                = ui::export_recording_figures(rec, r, which, *a.get("--out"), *figure, size.first, size.second, err);
            if (!err.empty()) throw cli_error(err);
            std::string list;
            for (const auto& p : written) list += p + "\n";
            write_stdout(list);
        } else if (*format == "csv") {
            write_out(a.get("--out"), session::export_csv(rec, series));
        } else if (*format == "perfetto") {
            write_out(a.get("--out"), session::export_trace(rec, r));
        } else if (*format == "lockstat") {
            write_out(a.get("--out"), session::export_lockstat(rec, r));
        } else {
            write_out(a.get("--out"), session::export_procfs(rec, r, *format));
        }
    } catch (const session::recording_error& e) {
        throw cli_error(e.what());
    }
    return 0;
}

} // namespace pcplab::cli
