// The boot on the virtual time axis. Virtual time 0 is power-on, as far as the model goes:
//   [0, deferred_init_start_ns)  the boot CPU's memmap_init and memblock_free_all of the early frames (every
//       frame mem_init initialises: all of the lower zones, the early part of each node's highest zone (one
//       section from v4.17, 2 GiB or more on v4.15), the reserved frames; mm::machine::early_init_pages), at the
//       one-thread rate of struct page init + free, the cost model's deferred_init.t1_ns_per_page (cost-model-sources
//       §5a). Nothing else of start_kernel (setup_arch, the scheduler, smp_init, ...) takes virtual time.
//       setup_per_cpu_pageset runs at the end.
//   deferred_init_start_ns  page_alloc_init_late starts every node's pgdatinit threads. Node n's init is
//       modelled to take deferred_init_ms(pages, threads) (cost_model.hpp) and ends at its own done_at (so
//       with switch 004, more threads per node end sooner).
//   init_end_ns  the last node is done: page_alloc_init_late's zone_pcp_update on every populated zone (seed
//       000's fix, v5.4 .. v5.13), then init_per_zone_wmark_min (every era; from v5.14 it recomputes the
//       limits too). Both take no virtual time.
//   workload_start_ns  a userspace workload starts at init_end_ns (the kernel runs init only after
//       page_alloc_init_late); the `boot` workload (workload::starts_during_deferred_init) starts at
//       deferred_init_start_ns and runs while the threads do.
#pragma once

#include "sim/cost_model.hpp"
#include "sim/workload.hpp"

namespace pcplab::sim
{

struct boot_times {
    vtime_ns deferred_init_start_ns = 0; // the early part is over; the pgdatinit threads start
    vtime_ns init_end_ns = 0; // every node's deferred init is done; the limits and watermarks are recomputed
    vtime_ns workload_start_ns = 0; // the workload's CPUs start (init_end_ns, or deferred_init_start_ns for `boot`)
};

// The early part's modelled time: ceil(pages x deferred_init_ns_per_page(r, 1)).
vtime_ns early_init_ns(const cost_rates& r, unsigned long early_pages);
// A node's modelled end of deferred init: start + max(1, ceil(modelled_ms x 1e6)) (never the start itself,
// so that the end is an instant after the threads began).
vtime_ns deferred_init_done_at(vtime_ns start, double modelled_ms);
// The frames a node has initialised at virtual time t on its modelled timeline [start, done_at): none before
// the start, pages x (t - start) / (done_at - start) while it runs, all of them from done_at on.
unsigned long modelled_pages_done(unsigned long pages, vtime_ns start, vtime_ns done_at, vtime_ns t);

} // namespace pcplab::sim
