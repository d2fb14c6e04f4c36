#include "patch_switches.hpp"

#include <algorithm>

namespace pcplab::mm
{

namespace
{

std::string applies_everywhere(bool, const kernel_version&)
{
    return {};
}

// 000: from v5.14 the call at the end of deferred init is gone (setup_per_zone_wmarks recomputes instead).
std::string pcp_update_not_applicable(bool, const kernel_version& era)
{
    if (era.at_least(5, 14))
        return "pcp-update-after-deferred-init: from v5.14 the call at the end of deferred init is gone; "
               "setup_per_zone_wmarks() recomputes every pageset after deferred init in every case, so the "
               "switch has nothing to change on era "
            + era.str();
    return {};
}

// 002: auto-tuning floats high between high_min and high_max, which derive from the v5.14 low-watermark high.
std::string autotune_not_applicable(bool on, const kernel_version& era)
{
    if (on && era.before(5, 14))
        return "pcp-high-autotune needs v5.14+ per-CPU lists and the low-watermark based high (high_min); "
               "era "
            + era.str() + " derives high as 6 x batch";
    return {};
}

// Nikhil Dhama's threshold moves the v6.7 free_count test; before v6.7 free_high keyed on free_factor.
std::string free_high_threshold_not_applicable(bool, const kernel_version& era)
{
    if (era.before(6, 7))
        return "free-high-batch-plus-high-min changes the v6.7 free_count test of free_frozen_page_commit(); era "
            + era.str() + " has no free_count (free_high follows free_factor there)";
    return {};
}

// The remote drain takes the pageset's pcp->lock, which v6.0 added in the same series; before it the lists
// were protected by disabling IRQs on their own CPU, so only that CPU could drain them, with or without the
// switch. (v6.0 .. v6.5 run as era v5.4, which has no pcp->lock: the first modelled era with it is v6.6.)
std::string remote_drain_not_applicable(bool, const kernel_version& era)
{
    if (!era.at_least(6, 0))
        return "remote-drain-under-pcp-lock takes the remote pageset's pcp->lock, which v6.0 added (\"protect PCP "
               "lists with a spinlock\"); era "
            + era.str() + " has none and drains a pageset only on its own CPU, with the switch or without";
    return {};
}

// The remembered mode names the two halves of v6.15's fallback (__rmqueue_claim, then __rmqueue_steal); the
// earlier fallbacks claim or take a page in one __rmqueue_fallback call, so there is no mode to keep. (Stable
// kernels such as 6.14.y took the split and the mode together; the model's v6.13 is mainline's.)
std::string fallback_mode_not_applicable(bool, const kernel_version& era)
{
    if (!era.at_least(6, 15))
        return "rmqueue-bulk-fallback-mode remembers whether __rmqueue_claim or __rmqueue_steal found the last "
               "page, the two halves v6.15 split the fallback into; era "
            + era.str() + " falls back in one __rmqueue_fallback call per page and has no mode to keep";
    return {};
}

// alloc_pages_nolock only tries pcp->lock, which v6.0 added; before it the lists were guarded by disabling
// IRQs on their own CPU, which an NMI cannot try, so the kernel had no page allocation from any context.
std::string nolock_not_applicable(bool on, const kernel_version& era)
{
    if (on && !era.at_least(6, 0))
        return "alloc-pages-nolock only tries pcp->lock and zone->lock; era " + era.str()
            + " has no pcp->lock (v6.0) to try: its lists are guarded by disabling IRQs, which a caller in NMI "
              "cannot do";
    return {};
}

// The RFC routes a free to the owning CPU's pageset under that pageset's pcp->lock, which v6.0 added; before
// it a pageset could only be touched on its own CPU (IRQs off), so no free could reach another CPU's lists.
std::string pcp_buddy_not_applicable(bool on, const kernel_version& era)
{
    if (on && !era.at_least(6, 0))
        return "pcp-buddy (RFC, not merged) frees a page to the pageset of the CPU that owns its pageblock, under "
               "that pageset's pcp->lock; era "
            + era.str() + " has no pcp->lock (v6.0): a pageset is reached only from its own CPU";
    return {};
}

// Whether pcp->lock disables IRQs is a property of pcp->lock, which v6.0 added; before it the lists were
// guarded by disabling IRQs on their own CPU for the whole access, which is what the switch's off already is.
// (v6.0 .. v6.5 run as era v5.4, which has no pcp->lock: the first modelled era with it is v6.6.)
std::string irqs_enabled_not_applicable(bool on, const kernel_version& era)
{
    if (on && !era.at_least(6, 0))
        return "pcp-lock-irqs-enabled leaves IRQs on while pcp->lock is held; era " + era.str()
            + " has no pcp->lock (v6.0): its per-CPU lists are guarded by disabling IRQs on their CPU for the "
              "whole access";
    return {};
}

constexpr kernel_version v(int major, int minor)
{
    return {major, minor, 0, 0};
}

// The table. Era ranges: the version whose release first had the change (the merge commit's first -rc
// belongs to it), and where a later rework took it away.
constexpr std::array<patch_decl, NR_PATCHES> k_patch_table = {{
    {patch::pcp_update_after_deferred_init, "pcp-update-after-deferred-init",
        "recompute every pageset's batch/high with zone_pcp_update() when a node's deferred init completes",
        "Mel Gorman, 2019",
        // 3e8fc0075e24 went into v5.4 final (5.4.0-rc3 lacks it); v5.14 removed the call.
        {true, v(5, 4), v(5, 14)}, pcp_update_not_applicable, "03-seed-000-limits-after-deferred-init", "000"},
    {patch::bulk_free_pick_outside_lock, "bulk-free-pick-outside-lock",
        "free_pcppages_bulk picks pages off the PCP lists before taking zone->lock, which then covers only the merges",
        "Aaron Lu, 2018",
        // 0a5f4e5b4562 in v4.17; the v5.18 single-pass rework returned the picking to under the lock.
        // Meaningful in every era: two-pass pick vs. all under the lock.
        {true, v(4, 17), v(5, 18)}, applies_everywhere, "04-seed-001-bulk-free-outside-lock", "001"},
    {patch::pcp_high_autotune, "pcp-high-autotune",
        "pcp->high floats between high_min and high_max: grows on refill, decays 1/8 per second, shrinks under "
        "reclaim",
        "Huang Ying, 2023", {true, v(6, 7), std::nullopt}, autotune_not_applicable, "05-seed-002-pcp-high-autotune",
        "002"},
    {patch::batched_bulk_free, "batched-bulk-free",
        "drain_pages_zone, decay_pcp_high and the free path free in chunks of pcp->batch, dropping the locks between",
        "Joshua Hahn, 2025", {true, v(6, 19), std::nullopt}, applies_everywhere, "06-seed-003-batched-bulk-free",
        "003"},
    {patch::parallel_deferred_init, "parallel-deferred-init",
        "each node's deferred struct-page init is split into chunks run by several threads",
        "Daniel Jordan, 2018 RFC; padata in v5.8",
        // padata parallel deferred init merged in v5.8.
        {true, v(5, 8), std::nullopt}, applies_everywhere, "07-seed-004-parallel-deferred-init", "004"},
    {patch::free_high_batch_plus_high_min, "free-high-batch-plus-high-min",
        "a run of high-order frees flushes the PCP list (free_high) only after batch + high_min/2 pages, not batch",
        "Nikhil Dhama, 2025",
        // c544a952ba61 "mm: pcp: increase pcp->free_count threshold to trigger free_high", the last commit of
        // the first MM pull for 6.16-rc1 (mm-stable, 2025-05-27).
        {true, v(6, 16), std::nullopt}, free_high_threshold_not_applicable, "09-free-high-threshold", "005"},
    {patch::remote_drain_under_pcp_lock, "remote-drain-under-pcp-lock",
        "drain_all_pages drains other CPUs' lists itself under their pcp->lock instead of queueing work on each CPU",
        "Nicolas Saenz Julienne and Mel Gorman, 2022",
        // 443c2accd1b6 "mm/page_alloc: remotely drain per-cpu lists", in Mel Gorman's "Drain remote per-cpu
        // directly" series after 4b23a68f9536 (pcp->lock), merged for v6.0-rc1.
        {true, v(6, 0), std::nullopt}, remote_drain_not_applicable, "10-remote-drain", "006"},
    {patch::rmqueue_bulk_fallback_mode, "rmqueue-bulk-fallback-mode",
        "rmqueue_bulk starts each page's fallback where the previous page's succeeded (claim or steal) instead of "
        "searching for a block to claim again",
        "Johannes Weiner, 2025",
        // 90abee6d7895 "mm: page_alloc: speed up fallbacks in rmqueue_bulk()", merged for 6.15-rc3 (Fixes:
        // c2f6ea38fc1b, v6.15's claim-then-steal fallback, and c0cd6f557b90 of v6.10).
        {true, v(6, 15), std::nullopt}, fallback_mode_not_applicable, "11-rmqueue-bulk-fallback-mode", "007"},
    {patch::alloc_pages_nolock, "alloc-pages-nolock",
        "callers in any context (BPF) allocate and free with trylocks only: no slow path, failure while deferred "
        "init runs, and a free may leave pcp->count above high",
        "Alexei Starovoitov, 2025",
        // 97769a53f117 "mm, bpf: Introduce try_alloc_pages() for opportunistic page allocation" and
        // 8c57b687e833 "mm, bpf: Introduce free_pages_nolock()", merged for v6.15-rc1.
        {true, v(6, 15), std::nullopt}, nolock_not_applicable, "12-alloc-pages-nolock", "008"},
    {patch::pcp_buddy, "pcp-buddy",
        "RFC, not merged: a PCP refill claims a whole free pageblock under zone->lock and splits it outside it; the "
        "CPU owns the block and frees on any CPU go to the owner's pageset",
        "Johannes Weiner, 2026 RFC (not merged)",
        // "[RFC 0/2] mm: page_alloc: pcp buddy allocator" and "[RFC 2/2] mm: page_alloc: per-cpu pageblock buddy
        // allocator", linux-mm, 2026-04-03; no kernel has it, so it is off in every era.
        {false, v(0, 0), std::nullopt}, pcp_buddy_not_applicable, "13-pcp-buddy", "009"},
    {patch::pcp_lock_irqs_enabled, "pcp-lock-irqs-enabled",
        "pcp->lock no longer disables IRQs, only zone->lock does; an interrupt that finds its CPU's pcp->lock "
        "held takes or frees its page on the buddy lists under zone->lock",
        "Mel Gorman, 2022",
        // 5749077415994eb0 "mm/page_alloc: leave IRQs enabled for per-cpu page allocations", merged for
        // v6.2-rc1 (backported to 6.1.y in 2023 as a dependency of 7b086755fb8c).
        {true, v(6, 2), std::nullopt}, irqs_enabled_not_applicable, "15-pcp-lock-irqs-enabled", "010"},
}};

// The table is in enum order: patch_info(p) is k_patch_table[p].
constexpr bool table_in_enum_order()
{
    for (unsigned i = 0; i < NR_PATCHES; ++i)
        if (static_cast<unsigned>(k_patch_table[i].id) != i) return false;
    return true;
}
static_assert(table_in_enum_order(), "k_patch_table must list the switches in enum order");

} // namespace

std::string patch_era_range::str() const
{
    if (!merged) return "not merged";
    if (!until) return since.str() + "+";
    return since.str() + " .. " + until->str();
}

const std::array<patch_decl, NR_PATCHES>& patch_table()
{
    return k_patch_table;
}

const patch_decl& patch_info(patch p)
{
    return k_patch_table[static_cast<unsigned>(p)];
}

std::string_view patch_name(patch p)
{
    return patch_info(p).name;
}
std::string_view patch_summary(patch p)
{
    return patch_info(p).summary;
}

std::optional<patch> patch_from_name(std::string_view n)
{
    for (const auto& d : k_patch_table)
        if (d.name == n) return d.id;
    return std::nullopt;
}

std::string patch_names_list()
{
    std::string s;
    for (const auto& d : k_patch_table) s += (s.empty() ? "" : ", ") + std::string(d.name);
    return s;
}

patch_set default_patches(const kernel_version& ver)
{
    patch_set ps;
    for (const auto& d : k_patch_table) ps.set(d.id, d.kernels.contains(ver));
    return ps;
}

std::string patch_not_applicable(patch p, bool on, const kernel_version& era)
{
    return patch_info(p).not_applicable(on, era);
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
