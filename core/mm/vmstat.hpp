// What the model keeps of mm/vmstat.c: the per-CPU vmstat tick's pageset work (vmstat_refresh.cpp) and the
// per-CPU vm stat threshold of each zone (vmstat_threshold.cpp).
#pragma once

#include "machine.hpp"

namespace pcplab::mm
{

// This CPU used a zone's pageset: a remote zone's expiry countdown (refresh_cpu_vm_stats) restarts at 3.
void pcp_note_zone_activity(mm_ctx& c, const zone& z, per_cpu_pages& pcp);
// refresh_cpu_vm_stats(do_pagesets) (mm/vmstat.c): the per-CPU vmstat tick: decay, remote expiry drains.
void refresh_cpu_vm_stats(mm_ctx& c, bool do_pagesets);

// calculate_normal_threshold (mm/vmstat.c, v2.6.x .. v6.19): the per-CPU vm stat threshold of a zone from
// its managed pages (present pages before v3.8).
int calculate_normal_threshold(unsigned long pages, int num_online_cpus, unsigned page_shift = PAGE_SHIFT);
// refresh_zone_stat_thresholds: store it in every pageset.
void refresh_zone_stat_thresholds(machine& m);

} // namespace pcplab::mm
