#include "zoneinfo_args.hpp"

#include "mm/kernel_version.hpp"
#include "procfs/zoneinfo_captures.hpp"

#include <variant>

namespace pcplab::cli
{

procfs::zoneinfo_doc load_capture(const std::string& file)
{
    auto parsed = procfs::load_zoneinfo_captures(file);
    if (auto* err = std::get_if<pcplab::error>(&parsed)) throw cli_error(err->str());
    auto& captures = std::get<std::vector<procfs::zoneinfo_capture>>(parsed);
    // A machine is described by one capture; several (mmtests' "time:" framing) may come from different boots.
    if (captures.size() > 1)
        throw cli_error(file + ": holds " + std::to_string(captures.size())
            + " captures between 'time:' lines; give a file with one of them");
    return std::move(captures.front().doc);
}

procfs::check_options zoneinfo_check_options(const parsed_args& a)
{
    procfs::check_options opt;
    if (auto e = a.get("--era")) {
        auto choice = mm::choose_era(*e);
        if (!choice) throw cli_error("--era: '" + *e + "' is not a kernel version (try v5.4, 6.7, 5.4.0-rc3)");
        // The file came from this exact kernel: its version picks the formulas.
        opt.era = choice->requested;
    }
    if (auto c = a.get("--cpus-per-node")) opt.cpus_per_node = parse_int_list("--cpus-per-node", *c, 0);
    if (auto p = a.get("--page-size")) {
        // The page sizes Linux runs with: 4 KiB everywhere, 16 KiB and 64 KiB on arm64, 64 KiB on ppc64.
        int kib = parse_int("--page-size", *p, 1);
        if (kib != 4 && kib != 16 && kib != 64)
            throw cli_error("--page-size: " + std::to_string(kib) + " is not a page size in KiB (4, 16 or 64)");
        opt.page_shift = kib == 4 ? 12U : kib == 16 ? 14U : 16U;
    }
    return opt;
}

} // namespace pcplab::cli
