// pcplab-cli compare: recordings side by side in mmtests compare-kernels style (core/session/compare.hpp).
#include "args.hpp"
#include "commands.hpp"

#include "session/compare.hpp"
#include "session/recording_reader.hpp"

namespace pcplab::cli
{

std::string compare_help()
{
    return "Usage: pcplab-cli compare A.db B.db [C.db ...] [--format text|markdown|csv|json]\n"
           "\n"
           "Compares recordings (pcplab-cli run --record FILE, --repeat K for K runs in one file) in the layout of\n"
           "mmtests' compare-kernels: the first recording is the baseline; two header lines per column (kernel\n"
           "version, then the configuration tag: the file name without .db); per metric the rows Amean (Hmean\n"
           "where higher is better), Stddev, CoeffVar, Min and Max over the runs; each cell \"value (  pct%)\"\n"
           "with the difference signed so that positive is better, and asterisks instead of parentheses where\n"
           "the 95% intervals (mean +- 1.96 x stddev) do not overlap (needs 2 or more runs per recording);\n"
           "then the Duration block: user, system and elapsed virtual seconds over all runs.\n"
           "\n"
           "  --format F               text (default), markdown, csv or json\n"
           "\n"
           "A recording of an A/B pair counts as two columns.\n";
}

int cmd_compare(const std::vector<std::string>& args)
{
    parsed_args a = parse_args("compare", args, {{"--format", true, false}}, 64);
    session::compare_format f = session::compare_format::text;
    if (auto v = a.get("--format")) {
        if (*v == "text")
            f = session::compare_format::text;
        else if (*v == "markdown")
            f = session::compare_format::markdown;
        else if (*v == "csv")
            f = session::compare_format::csv;
        else if (*v == "json")
            f = session::compare_format::json;
        else
            throw cli_error("--format: '" + *v + "' is not one of text, markdown, csv, json");
    }
    if (a.positional.empty()) throw cli_error("compare: give two or more recordings (see pcplab-cli help compare)");
    std::vector<session::compare_input> columns;
    try {
        for (const auto& path : a.positional) {
            session::recording rec(path);
            for (auto& c : session::compare_inputs_from(rec)) columns.push_back(std::move(c));
        }
    } catch (const session::recording_error& e) {
        throw cli_error(e.what());
    }
    if (columns.size() < 2) throw cli_error("compare: give two or more recordings (one holds a single configuration)");
    session::compare_table t;
    try {
        t = session::build_compare_table(columns);
    } catch (const std::invalid_argument& e) {
        throw cli_error(std::string("compare: ") + e.what());
    }
    write_stdout(session::format_compare(t, f));
    return 0;
}

} // namespace pcplab::cli
