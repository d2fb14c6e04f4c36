// pcp->batch and pcp->high: the formulas of each era (pure functions of zone sizes), and the code that
// applies them to a machine's pagesets (setup_per_cpu_pageset, zone_pcp_update, the sysctls).
#pragma once

#include "base/error.hpp"

#include "machine.hpp"

#include <string>

namespace pcplab::mm
{

// MIN_PERCPU_PAGELIST_FRACTION (<= v5.13) and MIN_PERCPU_PAGELIST_HIGH_FRACTION (v5.14+): a nonzero
// fraction sysctl must be at least this; v6.7 also uses it as the fraction that gives high_max.
inline constexpr int MIN_PERCPU_PAGELIST_FRACTION = 8;
inline constexpr int MIN_PERCPU_PAGELIST_HIGH_FRACTION = 8;

// The limits one zone's pagesets get. high_min/high_max are only meaningful with pcp-high-autotune (without
// it they equal high). With autotune, `high` is high_min: where pcp->high starts once first used; the update
// does not write pcp->high itself.
struct pcp_limits {
    int batch = 1;
    int high = 0;
    int high_min = 0;
    int high_max = 0;
    int low = 0; // per_cpu_pages.low of v2.6.13 .. v2.6.16 (2 x batch on the hot list up to v2.6.14), else 0
    bool operator==(const pcp_limits&) const = default;
};

// zone_batchsize (v2.6.13 .. v6.19): the zone's pages/1024 capped at batch_cap, /4, clamped to 2^n - 1;
// may return 0 before v6.19. `pages` is what the era reads: managed (v3.8+) or present pages.
int zone_batchsize(const kernel_era& era, unsigned long pages, unsigned page_shift = PAGE_SHIFT);

// zone_highsize (v5.14 .. v6.6; v6.7+ with the fraction argument): the low watermark (fraction 0) or
// managed/fraction, split over nr_split_cpus, at least 4 * batch.
int zone_highsize(
    unsigned long managed_pages, unsigned long low_wmark, int batch, int nr_split_cpus, int high_fraction);

// Everything the formulas read about a zone and its node.
struct zone_limit_inputs {
    unsigned long managed_pages = 0;
    unsigned long low_wmark = 0; // low_wmark_pages(zone), boost included
    int nr_split_cpus = 1; // CPUs of the zone's node (+1 when called for a CPU coming online),
                           // or num_online_cpus() for a CPU-less node
    unsigned long present_pages = 0; // what kernels before v3.8 read instead of managed_pages
    unsigned page_shift = PAGE_SHIFT;
    // The pages zone_batchsize and the fraction sysctls read in this era.
    unsigned long sized_pages(const kernel_era& era) const
    {
        return era.formulas_read_present() ? present_pages : managed_pages;
    }
};

// pageset_set_high_and_batch (v5.4; setup_pageset's hot list before v2.6.25) / zone_set_pageset_high_and_batch
// (v5.14+, v6.7+) as a pure function: the limits every pageset of a zone gets. `autotune` is the
// pcp-high-autotune switch.
pcp_limits compute_pcp_limits(
    const kernel_era& era, bool autotune, const zone_limit_inputs& in, const sysctl_values& sysctl);
// setup_pageset's cold list (v2.6.13 .. v2.6.24): high 2 x batch, batch b (b/2 from v2.6.15), low 0.
pcp_limits cold_pcp_limits(const kernel_era& era, const zone_limit_inputs& in);

// nr_split_cpus for a zone as zone_highsize counts it (cpumask_of_node + cpu_online, or all online CPUs).
int zone_nr_split_cpus(const machine& m, const zone& z, int cpu_online);

// Apply compute_pcp_limits to every possible CPU's pageset of the zone (pcp->high itself is left alone
// with pcp-high-autotune, as v6.7+ does). Reports a limits_change when anything changed.
void zone_set_pageset_high_and_batch(machine& m, zone& z, int cpu_online, limits_cause cause);
// zone_pcp_update (v5.4: all pagesets of the zone; v5.14+: with cpu_online)
void zone_pcp_update(machine& m, zone& z, int cpu_online, limits_cause cause);
// setup_per_cpu_pageset (v5.4 / v6.x): real pagesets for every populated zone, limits from managed now.
void setup_per_cpu_pageset(machine& m);

// vm.percpu_pagelist_fraction (<= v5.13) and vm.percpu_pagelist_high_fraction (v5.14+): 0 or >= 8.
// Ok, or why the value was refused (-EINVAL in the kernel).
status set_percpu_pagelist_fraction(machine& m, int value);
status set_percpu_pagelist_high_fraction(machine& m, int value);
// vm.pcp_batch_scale_max (Yafang Shao's 2024 proposal, not merged; CONFIG_PCP_BATCH_SCALE_MAX v6.10+ at build
// time): the largest shift of pcp->batch for a refill run, a free run, a drain chunk and a decay step. The
// next allocator call reads it; nothing is recomputed.
status set_pcp_batch_scale_max(machine& m, int value);

} // namespace pcplab::mm
