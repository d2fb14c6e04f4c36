// pcplab-cli check-zoneinfo FILE: a real machine's pagesets against the formulas of the kernels that could
// have printed them.
#include "args.hpp"
#include "commands.hpp"
#include "zoneinfo_args.hpp"

#include "procfs/zoneinfo_check.hpp"
#include "procfs/zoneinfo_parse.hpp"

#include <variant>

namespace pcplab::cli
{

int cmd_check_zoneinfo(const std::vector<std::string>& args)
{
    parsed_args a = parse_args("check-zoneinfo", args,
        {{"--era", true, false}, {"--cpus-per-node", true, false}, {"--page-size", true, false},
            {"--explain", false, false}},
        1);
    procfs::check_options opt = zoneinfo_check_options(a);
    opt.explain = a.has("--explain");
    if (a.positional.empty()) throw cli_error("check-zoneinfo: missing FILE (a /proc/zoneinfo capture)");
    procfs::zoneinfo_doc doc = load_capture(a.positional.front());
    procfs::check_report report = procfs::check_zoneinfo(doc, opt);
    write_stdout(report.text());
    return report.ok() ? 0 : 1;
}

} // namespace pcplab::cli
