// Where the pageset formulas changed (each change named in core/mm/kernel_era.hpp and pcp_limits.cpp):
// v2.6.15 cold batch halved, v2.6.16 the 512 KiB cap rounded down, v2.6.25 one list per CPU, v3.8 managed
// pages, v4.19 the 1 MiB cap, v5.14 high from the low watermark, v6.7 auto-tuned high, v6.19 batch >= 1.
#include "zoneinfo_families.hpp"

namespace pcplab::procfs
{

std::string formula_family::versions() const
{
    if (to.major >= 9) return from.str() + " or later";
    if (from == to) return from.str();
    return from.str() + " .. " + to.str();
}

const std::vector<formula_family>& formula_families()
{
    static const std::vector<formula_family> families = {
        {"hot and cold lists; batch = zone/4096 pages capped at 256 KiB, rounded up to 2^n - 1; hot high 6 x "
         "batch, low 2 x batch; cold high 2 x batch, batch = batch",
            {2, 6, 13, 0}, {2, 6, 14, 0}, {2, 6, 14, 0}, high_form::hot_cold, {4, 17, 0, 0}},
        {"hot and cold lists; batch capped at 256 KiB, rounded up; hot high 6 x batch; cold high 2 x batch, "
         "batch = batch/2",
            {2, 6, 15, 0}, {2, 6, 15, 0}, {2, 6, 15, 0}, high_form::hot_cold, {4, 17, 0, 0}},
        {"hot and cold lists; batch = present/4096 capped at 512 KiB, rounded down to 2^n - 1; hot high 6 x "
         "batch; cold high 2 x batch, batch = batch/2",
            {2, 6, 16, 0}, {2, 6, 24, 0}, {2, 6, 20, 0}, high_form::hot_cold, {4, 17, 0, 0}},
        {"one list per CPU; high = 6 x batch; batch = present/4096 capped at 512 KiB", {2, 6, 25, 0}, {3, 7, 0, 0},
            {3, 6, 0, 0}, high_form::six_times_batch, {4, 17, 0, 0}},
        {"high = 6 x batch; batch = managed/4096 capped at 512 KiB", {3, 8, 0, 0}, {4, 18, 0, 0}, {4, 17, 0, 0},
            high_form::six_times_batch, {4, 17, 0, 0}},
        {"high = 6 x batch; batch = managed/4096 capped at 1 MiB", {4, 19, 0, 0}, {5, 13, 0, 0}, {5, 4, 0, 0},
            high_form::six_times_batch, {4, 19, 0, 0}},
        {"high = the low watermark split over the node's CPUs, at least 4 x batch (zone_highsize); batch "
         "capped at 1 MiB",
            {5, 14, 0, 0}, {6, 6, 0, 0}, {6, 6, 0, 0}, high_form::low_watermark, {6, 6, 0, 0}},
        {"high auto-tuned between high_min (the low watermark split over the node's CPUs) and high_max "
         "(managed/8 split likewise)",
            {6, 7, 0, 0}, {6, 18, 0, 0}, {6, 13, 0, 0}, high_form::autotune, {6, 13, 0, 0}},
        {"high auto-tuned as from v6.7; batch at least 1 (zone_batchsize no longer returns 0)", {6, 19, 0, 0},
            {9, 99, 0, 0}, {6, 19, 0, 0}, high_form::autotune, {6, 18, 0, 0}},
    };
    return families;
}

std::vector<const formula_family*> families_in(const version_window& w)
{
    std::vector<const formula_family*> out;
    for (const auto& f : formula_families())
        if (w.conflict || w.overlaps(f.from, f.to)) out.push_back(&f);
    return out;
}

} // namespace pcplab::procfs
