// summarize_run: an engine's metrics after a run, turned into run_summary figures.
#include "sim/engine.hpp"
#include "sim/run_summary.hpp"

#include "mm/patch_switches.hpp"

namespace pcplab::sim
{

namespace
{

// The zone's limits as the kernel caches them (zone->pageset_batch/high, v5.11+; the model keeps them in
// every era) and what its pagesets hold now.
void fill_limits(zone_summary& out, const mm::zone& z, bool autotune)
{
    out.managed_pages = z.managed();
    out.batch = z.pageset_batch;
    out.high = z.pageset_high;
    out.autotune = autotune;
    double high_sum = 0;
    for (const auto& pcp : z.per_cpu_pageset) {
        out.pcp_pages += static_cast<unsigned long>(pcp.count);
        high_sum += pcp.high;
    }
    if (autotune) {
        out.high_min = z.pageset_high_min;
        out.high_max = z.pageset_high_max;
        out.pcp_high_mean = z.per_cpu_pageset.empty() ? 0 : high_sum / static_cast<double>(z.per_cpu_pageset.size());
    }
}

// The run's span [from, to) in virtual time since power-on.
void fill_lock(zone_summary& out, const lock_metrics& l, vtime_ns from, vtime_ns to)
{
    out.acquisitions = l.acquisitions;
    out.contended = l.contended;
    out.wait_ns_total = l.wait_ns_total;
    out.wait_ns_max = l.wait_ns_max;
    out.hold_ns_total = l.hold_ns_total;
    out.hold_ns_max = l.hold_ns_max;
    out.hold_ns_p99 = hold_ns_p99(l);
    out.max_pages_per_hold = l.max_pages_per_hold;
    out.holds_over_threshold = l.holds_over_threshold;
    out.waits_over_threshold = l.waits_over_threshold;
    const auto& b = l.hold_hist.buckets;
    std::size_t used = b.size();
    while (used > 0 && b[used - 1] == 0) --used;
    out.hold_hist_log2.assign(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(used));
    out.waiting_ns = l.waiting_ns;
    // Contention %: the share of the run during which some CPU was spinning on this lock.
    out.contention_pct = contention_pct(l, from, to);
    for (unsigned c = 0; c < static_cast<unsigned>(mm::lock_caller::nr_callers); ++c) {
        if (l.holds_by_caller[c] == 0) continue;
        out.callers.push_back({std::string(mm::lock_caller_name(static_cast<mm::lock_caller>(c))), l.holds_by_caller[c],
            l.hold_ns_by_caller[c], l.max_pages_by_caller[c]});
    }
}

} // namespace

run_summary summarize_run(engine& e)
{
    const engine_config& cfg = e.config();
    run_summary s;
    s.era = cfg.era.str();
    s.requested_era = s.era;
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) {
        auto p = static_cast<mm::patch>(i);
        s.patches.emplace_back(std::string(mm::patch_name(p)), cfg.patches[p]);
    }
    s.init_threads = cfg.patches.init_threads;
    s.workload = cfg.workload;
    s.intensity = cfg.intensity;
    s.seed = cfg.seed;
    s.hold_threshold_ns = cfg.hold_threshold_ns;

    // A finished workload's run ends when its last CPU finished; an open-ended one at the slowest clock.
    const vtime_ns elapsed = e.elapsed();
    s.sim_time_ns = elapsed;
    s.events = e.events_processed();
    s.deferred_init_start_ns = e.timeline().deferred_init_start_ns;
    s.init_end_ns = e.timeline().init_end_ns;
    s.workload_start_ns = e.timeline().workload_start_ns;
    s.continuous = cfg.continuous;
    s.rounds = e.rounds_done();

    const global_metrics& g = e.totals();
    run_totals& t = s.totals;
    t.allocs = g.allocs;
    t.frees = g.frees;
    t.pcp_hits = g.pcp_hits;
    t.zone_allocs = g.zone_allocs;
    t.free_high_drains = g.free_high_drains;
    t.pcp_resident_pages = g.pcp_resident_pages;
    t.reclaimed_pages = g.reclaimed_pages;
    t.pcp_trylock_failures = g.pcp_trylock_failures;
    t.remote_work_items = g.remote_work_items;
    t.any_context = g.any_context;
    t.irq = g.irq;
    t.claim_searches = e.work_done().claim_searches;
    for (const auto& c : e.cpus()) {
        t.alloc_failures += c.alloc_failures;
        t.refills += c.refills;
        t.drains += c.drains;
        t.sys_ns += c.sys_ns;
        t.user_ns += c.user_ns;
        t.idle_ns += c.idle_ns;
        t.spin_ns += c.spin_ns;
    }
    t.elapsed_ns = elapsed;

    workload_score sc = e.score();
    s.work_units = sc.work_units;
    s.score_unit = sc.unit;
    s.seed_measure = sc.seed_measure;
    s.seed_measure_value = sc.seed_measure_value;
    t.score = elapsed ? sc.work_units / (static_cast<double>(elapsed) / 1e9) : 0.0;

    mm::machine& m = e.machine();
    const bool autotune = m.patches[mm::patch::pcp_high_autotune] && m.era.version.at_least(6, 7);
    for (const auto& l : e.zone_locks()) {
        zone_summary z;
        z.node = l.node;
        z.zone = l.zone;
        z.name = mm::zone_name(static_cast<unsigned>(l.zone));
        fill_limits(z, m.node_data(l.node).z(static_cast<mm::zone_type>(l.zone)), autotune);
        fill_lock(z, l, e.workload_start(), e.workload_start() + elapsed);
        s.zones.push_back(std::move(z));
    }
    if (m.era.has_pcp_lock()) {
        const lock_metrics& p = e.pcp_locks();
        s.has_pcp_lock = true;
        s.pcp_lock = {p.acquisitions, p.contended, p.wait_ns_total, p.hold_ns_total};
    }
    for (const auto& b : e.boot_report())
        s.boot.push_back({b.node, b.threads, b.pages, b.modelled_ms, b.host_ms, b.done_at});
    return s;
}

} // namespace pcplab::sim
