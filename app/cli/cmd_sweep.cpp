// pcplab-cli sweep: a grid of runs (presets x eras x switch settings x sysctls x seeds), each point a separate
// `pcplab-cli run` process on the local cores with a recording of its own, then the mmtests-style table of every
// configuration over its seeds and a figure. `--shard I/N` runs one slice of the grid (a cluster's job array runs
// the others), and `sweep merge DIR...` joins the slices' results. The grid itself is session/sweep_grid.hpp.
#include "args.hpp"
#include "child_processes.hpp"
#include "commands.hpp"
#include "machine_args.hpp"
#include "run_engine.hpp"

#include "session/recording_reader.hpp"
#include "session/sweep_grid.hpp"
#include "session/sweep_table.hpp"
#include "ui/session/figure_export.hpp"
#include "ui/session/sweep_figure.hpp"

#include "io/text_file.hpp"
#include "sim/boot_sysctl.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

namespace pcplab::cli
{

namespace fs = std::filesystem;

namespace
{

std::vector<std::string> split(const std::string& text, char sep)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const auto at = text.find(sep, start);
        out.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos) return out;
        start = at + 1;
    }
}

// "NAME=V1,V2": the name and its values, each non-empty.
std::pair<std::string, std::vector<std::string>> axis_of(const std::string& flag, const std::string& text)
{
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0) throw cli_error(flag + " " + text + ": expected NAME=VALUE[,VALUE...]");
    auto values = split(text.substr(eq + 1), ',');
    for (const auto& v : values)
        if (v.empty()) throw cli_error(flag + " " + text + ": empty value");
    return {text.substr(0, eq), values};
}

// --seeds 1..5, 3, or 1,4,9.
std::vector<std::uint64_t> parse_seeds(const std::string& text)
{
    std::vector<std::uint64_t> out;
    if (auto dots = text.find(".."); dots != std::string::npos) {
        const auto lo = parse_u64("--seeds", text.substr(0, dots)), hi = parse_u64("--seeds", text.substr(dots + 2));
        if (hi < lo) throw cli_error("--seeds " + text + ": the range ends before it starts");
        if (hi - lo >= 1000) throw cli_error("--seeds " + text + ": at most 1000 seeds");
        for (auto s = lo; s <= hi; ++s) out.push_back(s);
        return out;
    }
    for (const auto& s : split(text, ',')) out.push_back(parse_u64("--seeds", s));
    return out;
}

std::vector<flag_spec> sweep_flags()
{
    return {{"--preset", true, false}, {"--era", true, false}, {"--patch", true, true}, {"--sysctl", true, true},
        {"--seeds", true, false}, {"--workload", true, false}, {"--duration", true, false}, {"--work", true, false},
        {"--param", true, true}, {"--intensity", true, false}, {"--record-holds", true, false}, {"--jobs", true, false},
        {"--shard", true, false}, {"--out", true, false}, {"--format", true, false}, {"--plot", true, false}};
}

session::compare_format format_of(const parsed_args& a)
{
    const std::string f = a.get("--format").value_or("text");
    if (f == "text") return session::compare_format::text;
    if (f == "markdown") return session::compare_format::markdown;
    if (f == "csv") return session::compare_format::csv;
    if (f == "json") return session::compare_format::json;
    throw cli_error("--format: '" + f + "' is not one of text, markdown, csv, json");
}

// The grid from the flags, every value checked the way `run` checks it, before anything starts.
session::sweep_grid grid_from(const parsed_args& a)
{
    session::sweep_grid g;
    const auto presets = a.get("--preset");
    if (!presets) throw cli_error("--preset: required (one or more, comma-separated)");
    g.presets = split(*presets, ',');
    if (auto e = a.get("--era")) g.eras = split(*e, ',');
    for (const auto& text : a.all("--patch")) {
        auto [name, values] = axis_of("--patch", text);
        if (!mm::patch_from_name(name)) throw cli_error("--patch " + text + ": unknown switch '" + name + "'");
        session::sweep_switch_axis ax{name, {}};
        for (const auto& v : values) {
            if (v != "on" && v != "off") throw cli_error("--patch " + text + ": '" + v + "' is not on or off");
            ax.values.push_back(v == "on");
        }
        g.switches.push_back(ax);
    }
    for (const auto& text : a.all("--sysctl")) {
        auto [name, values] = axis_of("--sysctl", text);
        session::sweep_sysctl_axis ax{name, {}};
        for (const auto& v : values) ax.values.push_back(parse_long("--sysctl " + text, v));
        g.sysctls.push_back(ax);
    }
    if (auto s = a.get("--seeds")) g.seeds = parse_seeds(*s);
    const auto workload = a.get("--workload");
    if (!workload) throw cli_error("--workload: required");
    g.common_args = {"--workload", *workload};
    std::vector<std::pair<std::string, double>> params;
    for (const auto& p : a.all("--param")) {
        g.common_args.insert(g.common_args.end(), {"--param", p});
        params.push_back(parse_param(p));
    }
    make_configured_workload(*workload, params);
    if (a.has("--duration") && a.has("--work")) throw cli_error("--work: cannot be combined with --duration");
    if (auto d = a.get("--duration")) {
        parse_duration_ns("--duration", *d);
        g.common_args.insert(g.common_args.end(), {"--duration", *d});
    }
    if (auto w = a.get("--work")) {
        parse_positive_real("--work", *w, 1e15);
        g.common_args.insert(g.common_args.end(), {"--work", *w});
    }
    if (auto x = a.get("--intensity")) {
        parse_positive_real("--intensity", *x, 100);
        g.common_args.insert(g.common_args.end(), {"--intensity", *x});
    }
    // Holds are not in the table: by default a sweep's recordings leave them out (a few MB a point less).
    g.common_args.insert(g.common_args.end(), {"--record-holds", a.get("--record-holds").value_or("none")});

    if (g.points() > 100'000) throw cli_error("sweep: " + std::to_string(g.points()) + " points; at most 100000");
    // Every configuration resolved once, as `run` will: a switch an era refuses fails here, not in point 37.
    std::set<std::size_t> seen;
    for (const auto& p : session::expand(g)) {
        if (!seen.insert(p.configuration).second) continue;
        mm::machine_spec spec = load_preset_or_throw(p.preset);
        for (const auto& [name, value] : p.sysctls)
            if (auto why = sim::set_boot_sysctl(spec, name, value); !why)
                throw cli_error("--sysctl " + name + "=" + std::to_string(value) + ": " + why.message());
        sim::machine_options opts;
        opts.era = p.era;
        for (const auto& [name, on] : p.switches) opts.switches.push_back({*mm::patch_from_name(name), on});
        const auto cfg = resolve_config_or_throw(spec, opts);
        for (const auto& [name, value] : p.sysctls)
            if (auto why = sim::check_sysctl(name, value, cfg.era); !why)
                throw cli_error("--sysctl " + name + "=" + std::to_string(value) + " on " + p.label(g, true) + ": "
                    + why.message());
    }
    return g;
}

struct point_files {
    fs::path db, json, part, log;
};

point_files files_of(const fs::path& dir, const session::sweep_point& p)
{
    const fs::path base = dir / "points" / p.id;
    return {base.string() + ".db", base.string() + ".json", base.string() + ".json.part", base.string() + ".log"};
}

// A point is done when its run exited 0: its summary was renamed into place after the recording closed.
bool done_in(const fs::path& dir, const session::sweep_point& p)
{
    const auto f = files_of(dir, p);
    std::error_code ec;
    return fs::is_regular_file(f.json, ec) && fs::is_regular_file(f.db, ec);
}

std::string read_manifest(const fs::path& dir)
{
    const fs::path m = dir / "sweep.json";
    auto text = io::read_text_file(m.string(), 64u << 20);
    if (auto* err = std::get_if<pcplab::error>(&text)) throw cli_error(m.string() + ": " + err->message);
    return std::get<std::string>(text);
}

void write_manifest(const fs::path& dir, const session::sweep_grid& g)
{
    const std::string text = session::manifest_json(g);
    std::error_code ec;
    if (fs::exists(dir / "sweep.json", ec)) {
        if (read_manifest(dir) != text)
            throw cli_error(
                "--out " + dir.string() + ": holds another sweep (its sweep.json differs); use another folder");
        return;
    }
    const fs::path tmp = dir / "sweep.json.part";
    std::ofstream(tmp) << text;
    fs::rename(tmp, dir / "sweep.json", ec);
    if (ec) throw cli_error("--out " + dir.string() + ": cannot write sweep.json (" + ec.message() + ")");
}

std::string last_line_of(const fs::path& file)
{
    std::ifstream in(file);
    std::string line, last;
    while (std::getline(in, line))
        if (!line.empty()) last = line;
    return last;
}

std::string duration_text(double s)
{
    char buf[32];
    if (s < 60)
        std::snprintf(buf, sizeof buf, "%.1fs", s);
    else
        std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
    return buf;
}

// Runs the points of the shard that are not done yet; returns how many failed.
std::size_t run_points(
    const fs::path& dir, const session::sweep_grid& g, const std::vector<session::sweep_point>& mine, unsigned jobs)
{
    const std::string self = self_executable();
    if (self.empty()) throw cli_error("sweep: cannot find this program's own executable (/proc/self/exe)");
    std::vector<child_job> todo;
    std::vector<const session::sweep_point*> which;
    for (const auto& p : mine) {
        if (done_in(dir, p)) continue;
        const auto f = files_of(dir, p);
        child_job j;
        j.argv = {self};
        for (auto& x : session::run_args(g, p, f.db.string())) j.argv.push_back(std::move(x));
        j.stdout_path = f.part.string();
        j.stderr_path = f.log.string();
        todo.push_back(std::move(j));
        which.push_back(&p);
    }
    std::fprintf(stderr, "pcplab-cli: sweep: %zu points here, %zu already done, %zu to run on %u processes\n",
        mine.size(), mine.size() - todo.size(), todo.size(), jobs);
    const auto start = std::chrono::steady_clock::now();
    std::size_t finished = 0, failed = 0;
    run_children(todo, jobs, [&](const child_result& r) {
        const session::sweep_point& p = *which[r.job];
        const auto f = files_of(dir, p);
        ++finished;
        std::error_code ec;
        if (r.exit_status == 0) fs::rename(f.part, f.json, ec);
        const bool ok = r.exit_status == 0 && !ec;
        if (!ok) ++failed;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double eta = elapsed / static_cast<double>(finished) * static_cast<double>(todo.size() - finished);
        std::fprintf(stderr, "pcplab-cli: sweep: [%zu/%zu] %s %s %s in %s (%zu running, %zu failed, about %s left)\n",
            finished, todo.size(), p.id.c_str(), p.label(g, true).c_str(), ok ? "done" : "FAILED",
            duration_text(r.wall_s).c_str(), r.running, failed, duration_text(eta).c_str());
        if (!ok)
            std::fprintf(stderr, "pcplab-cli: sweep: %s: exit %d: %s (log: %s)\n", p.id.c_str(), r.exit_status,
                last_line_of(f.log).c_str(), f.log.c_str());
    });
    return failed;
}

// A text table's column is 23 characters wide and mmtests glues a longer tag to its neighbour: when
// a configuration's label is longer, the columns are called c1, c2 ... and a legend above the table says what
// each is. Markdown, CSV and JSON keep the labels.
std::string short_tags(std::vector<session::compare_input>& columns, session::compare_format f)
{
    constexpr std::size_t widest = 22;
    if (f != session::compare_format::text) return {};
    bool fits = true;
    for (const auto& c : columns) fits = fits && c.tag.size() <= widest;
    if (fits) return {};
    std::string legend;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const std::string name = "c" + std::to_string(i + 1);
        legend += name + ": " + columns[i].tag + "\n";
        columns[i].tag = name;
    }
    return legend + "\n";
}

// The table (one per preset: their metrics count different CPUs) on stdout, the figure beside it.
void report(const std::vector<fs::path>& dirs, const session::sweep_grid& g,
    const std::vector<session::sweep_point>& all, session::compare_format format, const std::string& plot_metric,
    const fs::path& plot_path)
{
    auto recording_of = [&](const session::sweep_point& p) -> std::optional<std::string> {
        for (const auto& d : dirs)
            if (done_in(d, p)) return files_of(d, p).db.string();
        return std::nullopt;
    };
    std::string out;
    std::size_t missing = 0;
    for (const auto& preset : g.presets) {
        std::vector<session::sweep_point> of_preset;
        for (const auto& p : all)
            if (p.preset == preset) of_preset.push_back(p);
        session::sweep_columns cols;
        try {
            cols = session::gather_sweep(g, of_preset, recording_of);
        } catch (const session::recording_error& e) {
            throw cli_error(std::string("sweep: ") + e.what());
        }
        missing += cols.missing.size();
        if (cols.columns.empty()) continue;
        if (g.presets.size() > 1 && format == session::compare_format::text) out += "== " + preset + " ==\n";
        const auto table = session::build_compare_table(cols.columns); // the figure names configurations in full
        auto shown = cols.columns;
        out += short_tags(shown, format);
        out += session::format_compare(session::build_compare_table(shown), format);
        if (!plot_path.empty()) {
            fs::path file = plot_path;
            if (g.presets.size() > 1)
                file.replace_filename(plot_path.stem().string() + "-" + preset + plot_path.extension().string());
            const auto fmt = ui::figure_format_from(file.extension().string().substr(file.extension().empty() ? 0 : 1));
            if (!fmt) throw cli_error("--plot " + file.string() + ": the file name must end in .svg, .png or .pdf");
            if (auto err = ui::save_sweep_figure(table, plot_metric, file.string(), *fmt, 1200, 700); !err.empty())
                throw cli_error("--plot " + file.string() + ": " + err);
            std::fprintf(stderr, "pcplab-cli: sweep: figure of %s: %s\n", plot_metric.c_str(), file.c_str());
        }
    }
    if (missing)
        std::fprintf(stderr,
            "pcplab-cli: sweep: %zu of %zu points have no result in %s (another shard's, not run yet, or failed): "
            "`pcplab-cli sweep merge DIR...` once every shard is done\n",
            missing, all.size(), dirs.size() == 1 ? dirs.front().c_str() : "these folders");
    write_stdout(out);
}

int cmd_sweep_merge(const std::vector<std::string>& args)
{
    parsed_args a = parse_args("sweep merge", args, {{"--format", true, false}, {"--plot", true, false}}, 4096);
    if (a.positional.empty()) throw cli_error("sweep merge: give the sweep's folders (each holds a sweep.json)");
    const auto format = format_of(a);
    std::vector<fs::path> dirs(a.positional.begin(), a.positional.end());
    const std::string first = read_manifest(dirs.front());
    session::sweep_grid g;
    try {
        g = session::parse_manifest(first);
    } catch (const std::invalid_argument& e) {
        throw cli_error((dirs.front() / "sweep.json").string() + ": " + e.what());
    }
    for (const auto& d : dirs)
        if (read_manifest(d) != first)
            throw cli_error(
                d.string() + ": holds another sweep than " + dirs.front().string() + " (sweep.json differs)");
    report(
        dirs, g, session::expand(g), format, "score", a.get("--plot").value_or((dirs.front() / "sweep.svg").string()));
    return 0;
}

} // namespace

std::string sweep_help()
{
    return "Usage: pcplab-cli sweep --preset P[,P...] --workload W --out DIR [AXES] [OPTIONS]\n"
           "       pcplab-cli sweep merge DIR [DIR...] [--format F] [--plot FILE]\n"
           "\n"
           "Runs the workload at every point of a grid, each point a separate `pcplab-cli run` process (at most\n"
           "--jobs at a time) with its own recording DIR/points/ID.db, its summary ID.json and its stderr ID.log;\n"
           "then prints the mmtests-style table of every configuration over its seeds (as `compare` does; the\n"
           "first configuration is the baseline; one table per preset) and draws a figure of one metric.\n"
           "Points already done in DIR are not run again, so a sweep that was stopped goes on where it was.\n"
           "\n"
           "Axes (each value list is comma-separated; the grid is their product, seeds innermost):\n"
           "  --preset P[,P...]            machines (names or preset files)\n"
           "  --era E[,E...]               kernel versions (default: each preset's own)\n"
           "  --patch NAME=on|off|on,off   a switch's settings (repeatable; unnamed switches keep the era's default)\n"
           "  --sysctl NAME=V[,V...]       a vm.* sysctl's boot values (repeatable; see `run --help`)\n"
           "  --seeds N..M | N[,N...]      workload seeds (default 1)\n"
           "The same for every point: --workload W, --duration T | --work N, --param K=V..., --intensity X,\n"
           "--record-holds RULE (default none: the table needs no hold records).\n"
           "\n"
           "  --out DIR                    where the points' files and sweep.json (the grid) go; required\n"
           "  --jobs J                     processes at once (default: this machine's cores)\n"
           "  --shard I/N                  run only the points whose index is I modulo N (0 <= I < N), e.g. one\n"
           "                               task of a Slurm job array; `sweep merge` joins the shards' folders\n"
           "  --format F                   text (default), markdown, csv or json\n"
           "  --plot FILE                  the figure (.svg, .png or .pdf; default DIR/sweep.svg): the score's mean\n"
           "                               per configuration with its standard deviation over the seeds\n"
           "\n"
           "Exit status: 0 when every point of this run succeeded, 1 when some failed (the table shows the rest),\n"
           "2 on bad input (nothing is started).\n";
}

int cmd_sweep(const std::vector<std::string>& args)
{
    if (!args.empty() && args.front() == "merge") return cmd_sweep_merge({args.begin() + 1, args.end()});
    parsed_args a = parse_args("sweep", args, sweep_flags(), 0);
    const auto format = format_of(a);
    const auto out = a.get("--out");
    if (!out || out->empty()) throw cli_error("--out: required (the folder for the points' recordings)");
    session::sweep_shard shard;
    if (auto s = a.get("--shard")) {
        auto parsed = session::parse_shard(*s);
        if (!parsed) throw cli_error("--shard: '" + *s + "' is not I/N with 0 <= I < N (e.g. 3/16)");
        shard = *parsed;
    }
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    if (auto j = a.get("--jobs")) jobs = static_cast<unsigned>(parse_int("--jobs", *j, 1));
    const session::sweep_grid g = grid_from(a);

    const fs::path dir(*out);
    std::error_code ec;
    fs::create_directories(dir / "points", ec);
    if (ec) throw cli_error("--out " + *out + ": cannot create the folder (" + ec.message() + ")");
    write_manifest(dir, g);

    const auto all = session::expand(g);
    std::vector<session::sweep_point> mine;
    for (const auto& p : all)
        if (shard.takes(p)) mine.push_back(p);
    const std::size_t failed = run_points(dir, g, mine, jobs);
    report({dir}, g, all, format, "score", a.get("--plot").value_or((dir / "sweep.svg").string()));
    if (failed) {
        std::fprintf(stderr, "pcplab-cli: sweep: %zu of %zu points failed (their logs are in %s)\n", failed,
            mine.size(), (dir / "points").c_str());
        return 1;
    }
    return 0;
}

} // namespace pcplab::cli
