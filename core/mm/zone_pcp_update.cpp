// Applying the pcp limit formulas to a machine: setup_per_cpu_pageset, zone_pcp_update and the two
// fraction sysctls. The formulas themselves are in pcp_limits.cpp.
#include "pcp_limits.hpp"
#include "sysctl_bounds.hpp"

#include <string>

namespace pcplab::mm
{

namespace
{

// BOOT_PAGESET_HIGH / BOOT_PAGESET_BATCH (v5.11+; setup_pageset(p, 0) gave the same in v5.4)
constexpr pcp_limits boot_pageset_limits{1, 0, 0, 0};

// pcp->high is only left to the allocator where the v6.7 auto-tuning code exists (it needs the v5.14 rule).
bool autotune_active(const machine& m)
{
    return m.patches[patch::pcp_high_autotune] && m.era.high_rule() == pcp_high_rule::low_watermark;
}

pcp_limits cached_limits(const zone& z)
{
    // A cache that was never filled still describes the boot pageset (zone_pcp_init).
    if (z.pageset_batch == 0) return boot_pageset_limits;
    return {z.pageset_batch, z.pageset_high, z.pageset_high_min, z.pageset_high_max};
}

bool pagesets_hold(const zone& z, const pcp_limits& l, bool autotune)
{
    for (const auto& pcp : z.per_cpu_pageset)
        if (pcp.batch != l.batch || pcp.high_min != l.high_min || pcp.high_max != l.high_max
            || (!autotune && pcp.high != l.high))
            return false;
    return true;
}

// per_cpu_pages_init (v5.14+; pageset_init in v5.4): a fresh pageset with the boot limits. The lists and
// count are kept: the boot pageset has high 0, so every free into it was flushed at once and they are empty.
void per_cpu_pages_init(per_cpu_pages& pcp)
{
    pcp.high = boot_pageset_limits.high;
    pcp.batch = boot_pageset_limits.batch;
    pcp.high_min = boot_pageset_limits.high_min;
    pcp.high_max = boot_pageset_limits.high_max;
    pcp.flags = 0;
    pcp.alloc_factor = 0;
    pcp.expire = 0;
    pcp.free_count = 0;
    pcp.free_factor = 0;
    pcp.stat_threshold = 0; // per_cpu_zonestats are allocated zeroed; refresh_zone_stat_thresholds fills them
}

} // namespace

// zone_highsize's nr_split_cpus (v5.14+): the CPUs of the zone's node, plus one while a CPU is coming
// online (its bit is not in the node mask yet); a memory-only node splits over all online CPUs.
int zone_nr_split_cpus(const machine& m, const zone& z, int cpu_online)
{
    int nr = static_cast<int>(m.node_data(z.node).cpus.size()) + cpu_online;
    return nr ? nr : m.nr_cpu_ids();
}

// zone_set_pageset_high_and_batch (v5.11 .. v6.6: batch and high; v6.7+: batch, high_min and high_max,
// leaving pcp->high to the auto-tuning) and, for v5.4, the per-CPU loop of pageset_set_high_and_batch.
// Writes every possible CPU's pageset; skips the writes when the cached values already match (v5.11+).
void zone_set_pageset_high_and_batch(machine& m, zone& z, int cpu_online, limits_cause cause)
{
    bool autotune = autotune_active(m);
    zone_limit_inputs in;
    in.managed_pages = z.managed();
    in.present_pages = z.present_pages;
    in.page_shift = m.page_shift;
    in.low_wmark = z.low_wmark_pages();
    in.nr_split_cpus = zone_nr_split_cpus(m, z, cpu_online);
    pcp_limits want = compute_pcp_limits(m.era, autotune, in, m.sysctl);
    pcp_limits had = cached_limits(z);
    // The second test only matters when the autotune switch was just turned off: pcp->high must then be
    // written even though the cached limits did not change.
    if (had == want && pagesets_hold(z, want, autotune)) return;

    z.pageset_batch = want.batch;
    z.pageset_high = want.high;
    z.pageset_high_min = want.high_min;
    z.pageset_high_max = want.high_max;
    for (auto& pcp : z.per_cpu_pageset) {
        pcp.batch = want.batch;
        pcp.high_min = want.high_min;
        pcp.high_max = want.high_max;
        if (!autotune) pcp.high = want.high;
    }

    // Unpopulated zones (v5.14+ updates them from setup_per_zone_wmarks) show no pagesets anywhere, so
    // their changes are not worth an event.
    if (m.on_limits_change && z.populated())
        m.on_limits_change(limits_change{z.node, z.idx, cause, had.batch, had.high, had.high_min, had.high_max,
            want.batch, want.high, want.high_min, want.high_max});
}

// zone_pcp_update (v5.4: every pageset of the zone, no cpu_online argument; v5.14+: with cpu_online).
void zone_pcp_update(machine& m, zone& z, int cpu_online, limits_cause cause)
{
    // Before v5.14 nothing depends on the CPU count, so cpu_online changes nothing there.
    zone_set_pageset_high_and_batch(m, z, cpu_online, cause);
}

// setup_per_cpu_pageset -> setup_zone_pageset (v5.4 / v6.x): every populated zone leaves the boot pageset
// for real ones whose limits come from managed_pages as it is now (before deferred init has run, and on
// v5.14+ before the watermarks exist, so high is 4 * batch there).
void setup_per_cpu_pageset(machine& m)
{
    m.for_each_populated_zone([&](zone& z) {
        for (auto& pcp : z.per_cpu_pageset) per_cpu_pages_init(pcp);
        z.pagesets_allocated = true;
        // zone_pcp_init's cache of the boot values, so the first update always writes and reports.
        z.pageset_batch = boot_pageset_limits.batch;
        z.pageset_high = boot_pageset_limits.high;
        z.pageset_high_min = boot_pageset_limits.high_min;
        z.pageset_high_max = boot_pageset_limits.high_max;
        zone_set_pageset_high_and_batch(m, z, 0, limits_cause::setup_per_cpu_pageset);
    });
}

// percpu_pagelist_fraction_sysctl_handler (v2.6 .. v5.13; removed in v5.14): high = managed / fraction.
status set_percpu_pagelist_fraction(machine& m, int value)
{
    if (auto err = vm_sysctl_problem(vm_sysctl::percpu_pagelist_fraction, value, m.era); !err) return err;
    if (m.sysctl.percpu_pagelist_fraction == value) return {};
    m.sysctl.percpu_pagelist_fraction = value;
    m.for_each_populated_zone([&](zone& z) { zone_set_pageset_high_and_batch(m, z, 0, limits_cause::sysctl); });
    return {};
}

// percpu_pagelist_high_fraction_sysctl_handler (v5.14+): high = managed / fraction split over the node's CPUs.
status set_percpu_pagelist_high_fraction(machine& m, int value)
{
    if (auto err = vm_sysctl_problem(vm_sysctl::percpu_pagelist_high_fraction, value, m.era); !err) return err;
    if (m.sysctl.percpu_pagelist_high_fraction == value) return {};
    m.sysctl.percpu_pagelist_high_fraction = value;
    m.for_each_populated_zone([&](zone& z) { zone_set_pageset_high_and_batch(m, z, 0, limits_cause::sysctl); });
    return {};
}

// vm.pcp_batch_scale_max (a proposal; the kernel has CONFIG_PCP_BATCH_SCALE_MAX, v6.10+): every later refill,
// free run, drain chunk and decay step reads the new scale. A pageset whose alloc_factor is above the new
// scale is trimmed to it, as a kernel built with the smaller scale would never have let it grow past it.
status set_pcp_batch_scale_max(machine& m, int value)
{
    if (auto err = vm_sysctl_problem(vm_sysctl::pcp_batch_scale_max, value, m.era); !err) return err;
    m.sysctl.pcp_batch_scale_max = value;
    m.for_each_populated_zone([&](zone& z) {
        for (auto& pcp : z.per_cpu_pageset)
            pcp.alloc_factor = static_cast<decltype(pcp.alloc_factor)>(std::min<int>(pcp.alloc_factor, value));
    });
    return {};
}

} // namespace pcplab::mm
