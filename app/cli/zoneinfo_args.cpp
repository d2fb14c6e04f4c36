#include "zoneinfo_args.hpp"

#include "mm/kernel_version.hpp"

#include <variant>

namespace pcplab::cli
{

procfs::zoneinfo_doc load_capture(const std::string& file)
{
    auto parsed = procfs::load_zoneinfo_file(file);
    if (auto* err = std::get_if<procfs::zoneinfo_error>(&parsed)) throw cli_error(err->str());
    return std::get<procfs::zoneinfo_doc>(std::move(parsed));
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
