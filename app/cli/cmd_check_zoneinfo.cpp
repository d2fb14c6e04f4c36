// pcplab-cli check-zoneinfo FILE: a real machine's pagesets against the model's formulas.
#include "args.hpp"
#include "commands.hpp"

#include "procfs/zoneinfo_captures.hpp"
#include "procfs/zoneinfo_check.hpp"
#include "procfs/zoneinfo_parse.hpp"

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

    auto parsed = procfs::load_zoneinfo_captures(file);
    if (auto* err = std::get_if<procfs::zoneinfo_error>(&parsed)) throw cli_error(err->str());
    const auto& captures = std::get<std::vector<procfs::zoneinfo_capture>>(parsed);
    // Several captures (mmtests' monitor framing): each is checked on its own, under a line saying which.
    std::string out;
    bool ok = true;
    for (std::size_t i = 0; i < captures.size(); ++i) {
        const procfs::zoneinfo_capture& c = captures[i];
        const procfs::check_report report = procfs::check_zoneinfo(c.doc, opt);
        if (captures.size() > 1)
            out += (i ? "\n" : "") + std::string("capture ") + std::to_string(i + 1) + " of "
                + std::to_string(captures.size()) + (c.time ? " (time: " + std::to_string(*c.time) + ")" : "")
                + ", from line " + std::to_string(c.first_line) + ":\n";
        out += report.text();
        ok = ok && report.ok();
    }
    write_stdout(out);
    return ok ? 0 : 1;
}

} // namespace pcplab::cli
