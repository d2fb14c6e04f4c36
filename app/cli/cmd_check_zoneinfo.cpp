// pcplab-cli check-zoneinfo FILE: a real machine's pagesets against the formulas of the kernels that could
// have printed them.
#include "args.hpp"
#include "commands.hpp"
#include "zoneinfo_args.hpp"

#include "procfs/zoneinfo_captures.hpp"
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
    const std::string& file = a.positional.front();

    auto parsed = procfs::load_zoneinfo_captures(file);
    if (auto* err = std::get_if<pcplab::error>(&parsed)) throw cli_error(err->str());
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
