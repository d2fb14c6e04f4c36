#include "patch_switches.hpp"

#include <algorithm>

namespace pcplab::mm
{

namespace
{
struct patch_info {
    std::string_view name;
    std::string_view summary;
};
constexpr std::array<patch_info, NR_PATCHES> k_patches = {{
    {"pcp-update-after-deferred-init",
        "recompute every pageset's batch/high with zone_pcp_update() when a node's deferred init completes"},
    {"bulk-free-pick-outside-lock",
        "free_pcppages_bulk picks pages off the PCP lists before taking zone->lock, which then covers only the merges"},
    {"pcp-high-autotune",
        "pcp->high floats between high_min and high_max: grows on refill, decays 1/8 per second, shrinks under "
        "reclaim"},
    {"batched-bulk-free",
        "drain_pages_zone, decay_pcp_high and the free path free in chunks of pcp->batch, dropping the locks between"},
    {"parallel-deferred-init", "each node's deferred struct-page init is split into chunks run by several threads"},
}};
} // namespace

std::string_view patch_name(patch p)
{
    return k_patches[static_cast<unsigned>(p)].name;
}
std::string_view patch_summary(patch p)
{
    return k_patches[static_cast<unsigned>(p)].summary;
}

std::optional<patch> patch_from_name(std::string_view n)
{
    for (unsigned i = 0; i < NR_PATCHES; ++i)
        if (k_patches[i].name == n) return static_cast<patch>(i);
    return std::nullopt;
}

patch_set default_patches(const kernel_version& v)
{
    patch_set ps;
    // 000: 3e8fc0075e24 went into v5.4 final; v5.14 removed the call (watermark setup recomputes instead).
    ps.set(patch::pcp_update_after_deferred_init, v.compare({5, 4, 0, 0}) >= 0 && v.before(5, 14));
    // 001: 0a5f4e5b4562 in v4.17; the v5.18 single-pass rework returned the picking to under the lock.
    ps.set(patch::bulk_free_pick_outside_lock, v.at_least(4, 17) && v.before(5, 18));
    ps.set(patch::pcp_high_autotune, v.at_least(6, 7));
    ps.set(patch::batched_bulk_free, v.at_least(6, 19));
    // 004: padata parallel deferred init merged in v5.8.
    ps.set(patch::parallel_deferred_init, v.at_least(5, 8));
    return ps;
}

std::string patch_not_applicable(patch p, bool on, const kernel_version& era)
{
    switch (p) {
    case patch::pcp_update_after_deferred_init:
        if (era.at_least(5, 14))
            return "pcp-update-after-deferred-init: from v5.14 the call at the end of deferred init is gone; "
                   "setup_per_zone_wmarks() recomputes every pageset after deferred init in every case, so the "
                   "switch has nothing to change on era "
                + era.str();
        return {};
    case patch::pcp_high_autotune:
        if (on && era.before(5, 14))
            return "pcp-high-autotune needs v5.14+ per-CPU lists and the low-watermark based high (high_min); "
                   "era "
                + era.str() + " derives high as 6 x batch";
        return {};
    case patch::bulk_free_pick_outside_lock: // meaningful in every era: two-pass pick vs. all under the lock
    case patch::batched_bulk_free:
    case patch::parallel_deferred_init:
        return {};
    }
    return {};
}

int deferred_init_threads(const patch_set& ps, const kernel_version& era, int node_cpus)
{
    if (!ps[patch::parallel_deferred_init]) return 1;
    if (ps.init_threads > 0) return ps.init_threads;
    int cpus = std::max(node_cpus, 1);
    // v5.8+ (x86, later generic): deferred_page_init_max_threads = all CPUs of the node.
    // The 2018 RFC: DIV_ROUND_UP(node CPUs, 4), "about a quarter of the CPUs on the node".
    return era.at_least(5, 8) ? cpus : (cpus + 3) / 4;
}

} // namespace pcplab::mm
