// pcplab-cli check-zoneinfo FILE: a real machine's pagesets against the model's formulas.
#include "args.hpp"
#include "commands.hpp"

#include "procfs/zoneinfo_check.hpp"
#include "procfs/zoneinfo_parse.hpp"

#include <fstream>
#include <variant>

namespace pcplab::cli
{

int cmd_check_zoneinfo(const std::vector<std::string>& args)
{
    parsed_args a = parse_args("check-zoneinfo", args, {{"--era", true, false}, {"--cpus-per-node", true, false}}, 1);
    procfs::check_options opt;
    if (auto e = a.get("--era")) {
        auto choice = mm::choose_era(*e);
        if (!choice) throw cli_error("--era: '" + *e + "' is not a kernel version (try v5.4, 6.7, 5.4.0-rc3)");
        // The file came from this exact kernel: its version decides the formulas and the layout.
        opt.era = choice->requested;
    }
    if (auto c = a.get("--cpus-per-node")) opt.cpus_per_node = parse_int_list("--cpus-per-node", *c, 0);
    if (a.positional.empty()) throw cli_error("check-zoneinfo: missing FILE (a /proc/zoneinfo capture)");
    const std::string& file = a.positional.front();
    if (!std::ifstream(file)) throw cli_error(file + ": cannot open the file");

    auto parsed = procfs::load_zoneinfo_file(file);
    if (auto* err = std::get_if<procfs::zoneinfo_error>(&parsed)) throw cli_error(err->str());
    procfs::check_report report = procfs::check_zoneinfo(std::get<procfs::zoneinfo_doc>(parsed), opt);
    write_stdout(report.text());
    return report.ok() ? 0 : 1;
}

} // namespace pcplab::cli
