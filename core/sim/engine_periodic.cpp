// Kernel work that no workload asks for: the per-CPU vmstat tick, the kswapd-like reclaimer and the
// direct-reclaim drain after a failed allocation.
#include "engine_impl.hpp"

#include "mm/page_alloc.hpp"
#include "mm/pcp.hpp"
#include "mm/vmstat.hpp"

#include <algorithm>

namespace pcplab::sim
{

namespace
{
// kswapd_try_to_sleep: after a balance_pgdat pass that could not restore the watermarks, kswapd naps for
// HZ/10 before it may be woken again.
constexpr vtime_ns RECLAIM_BACKOFF_NS = NS_PER_SEC / 10;
} // namespace

// vmstat_update -> refresh_cpu_vm_stats(true) on this CPU (mm/vmstat.c): decay_pcp_high (v6.7+) and the
// expiry drain of remote zones' pages. The changes it made to this CPU's pagesets become events.
void engine::impl::run_tick(int cpu)
{
    const vtime_ns t0 = clock[cpu];
    auto& tick_scratch = periodic.tick_scratch;
    tick_scratch.clear();
    m->for_each_populated_zone([&](mm::zone& z) {
        const mm::per_cpu_pages& pcp = z.per_cpu_pageset[cpu];
        tick_scratch.emplace_back(pcp.high, pcp.count);
    });

    begin_action(cpu);
    mm::refresh_cpu_vm_stats(ctxs[cpu], true);
    end_action(cpu, 0);
    cpu_m[cpu].sys_ns += clock[cpu] - t0;

    std::size_t i = 0;
    m->for_each_populated_zone([&](mm::zone& z) {
        const auto [high_before, count_before] = tick_scratch[i++];
        const mm::per_cpu_pages& pcp = z.per_cpu_pageset[cpu];
        if (pcp.high != high_before) {
            note_high_change(cpu, z, high_before, pcp.high, HIGH_DECAY);
        } else if (pcp.count < count_before && z.node != st[cpu].node) {
            cpu_m[cpu].drains += 1;
            sim_event e;
            e.t = clock[cpu];
            e.kind = event_kind::drain;
            e.cpu = cpu;
            e.node = z.node;
            e.zone = z.idx;
            e.old_value = count_before;
            e.new_value = pcp.count;
            e.field = event_field::pages;
            e.text = "vmstat expiry";
            push_event(std::move(e));
        }
    });
    check_over_high(cpu); // decay_pcp_high may have trimmed a list a nolock free left above high
}

// wakeup_kswapd: an allocation left the zone below its low watermark.
void engine::impl::check_watermark(mm::zone& z)
{
    if (z.nr_free_pages >= static_cast<long>(z.low_wmark_pages())) return;
    if (periodic.reclaim[z].active) return;
    start_reclaim(z, "below low watermark");
}

// balance_pgdat's set_reclaim_active (v5.14+ flag; set on every era here so the engine's own bookkeeping
// is the same): the node's reclaimer starts on its first CPU, cutting short an idle or compute period.
void engine::impl::start_reclaim(mm::zone& z, const char* why)
{
    zone_reclaim& r = periodic.reclaim[z];
    const vtime_ns t = clock[acting];
    if (r.active || t < r.backoff_until) return;
    r.active = true;
    r.freed = 0;
    z.flags |= mm::ZONE_RECLAIM_ACTIVE;
    sim_event e;
    e.t = t;
    e.kind = event_kind::reclaim_start;
    e.node = z.node;
    e.zone = z.idx;
    e.old_value = z.nr_free_pages;
    e.new_value = static_cast<long>(z.high_wmark_pages());
    e.field = event_field::pages;
    e.text = why;
    push_event(std::move(e));
    const int rc = periodic.reclaimer_cpu[static_cast<std::size_t>(z.node)];
    st[rc].reclaim_nodes |= 1U << z.node;
    wake(rc);
}

// clear_reclaim_active: the zone is balanced again, or the reclaimer gives up (then it naps).
void engine::impl::stop_reclaim(mm::zone& z, const char* why, bool balanced)
{
    zone_reclaim& r = periodic.reclaim[z];
    if (!r.active) return;
    r.active = false;
    z.flags &= ~mm::ZONE_RECLAIM_ACTIVE;
    const vtime_ns t = clock[acting];
    if (!balanced) r.backoff_until = t + RECLAIM_BACKOFF_NS;
    sim_event e;
    e.t = t;
    e.kind = event_kind::reclaim_stop;
    e.node = z.node;
    e.zone = z.idx;
    e.old_value = static_cast<long>(r.freed);
    e.new_value = z.nr_free_pages;
    e.field = event_field::pages;
    e.text = why;
    push_event(std::move(e));
}

// One shrink pass of the reclaimer on `cpu`: up to SWAP_CLUSTER_MAX blocks the workload gives up, freed on
// this CPU (so through its pagesets), charged to its clock as system time.
void engine::impl::run_reclaim_step(int cpu)
{
    cpu_state& s = st[cpu];
    const int nid = __builtin_ctz(s.reclaim_nodes);
    mm::pglist_data& pg = m->node_data(nid);
    auto active = [&](const mm::zone& z) { return periodic.reclaim[z].active; };
    bool any = false;
    for (auto& z : pg.node_zones) any = any || active(*z);
    if (!any) {
        s.reclaim_nodes &= ~(1U << nid);
        return;
    }

    const vtime_ns t0 = clock[cpu];
    begin_action(cpu);
    const std::size_t blocks = reclaim_blocks(cpu, mm::SWAP_CLUSTER_MAX);
    end_action(cpu, prices.call_ns * std::max<std::size_t>(blocks, 1));
    cpu_m[cpu].sys_ns += clock[cpu] - t0;

    for (auto& zp : pg.node_zones) {
        mm::zone& z = *zp;
        if (!active(z)) continue;
        const zone_reclaim& r = periodic.reclaim[z];
        if (z.nr_free_pages > static_cast<long>(z.high_wmark_pages()))
            stop_reclaim(z, "above high watermark", true);
        else if (blocks == 0)
            stop_reclaim(z, "nothing to reclaim", false);
        else if (r.freed > std::max<unsigned long>(4 * z.high_wmark_pages(), 4096))
            stop_reclaim(z, "no progress", false); // what the workload gives back lies in other zones
    }
    any = false;
    for (auto& z : pg.node_zones) any = any || active(*z);
    if (!any) s.reclaim_nodes &= ~(1U << nid);
}

// The reclaimer's CPU was idle or computing past the wake-up instant (its last step was a compute or idle
// chunk that ends later): it is preempted at that instant. Its clock goes back to the wake-up and the rest
// of the period is run after the reclaimer's work.
void engine::impl::wake(int cpu)
{
    if (cpu == acting) return;
    cut_period(cpu, clock[acting]);
}

bool engine::impl::cut_period(int cpu, vtime_ns at)
{
    cpu_state& s = st[cpu];
    if (s.chunk_kind == cpu_activity::ready) return false;
    at = std::max(at, s.chunk_start);
    if (clock[cpu] <= at) return false;
    const vtime_ns back = clock[cpu] - at;
    if (s.activity == cpu_activity::ready) s.activity = s.chunk_kind; // the period had just ended
    s.cont_left += back;
    if (s.chunk_kind == cpu_activity::compute)
        cpu_m[cpu].user_ns -= back;
    else
        cpu_m[cpu].idle_ns -= back;
    clock[cpu] = at;
    requeue(cpu);
    return true;
}

void engine::impl::end_at(vtime_ns t)
{
    for (int cpu = 0; cpu < st.nr_cpus(); ++cpu)
        if (st[cpu].chunk_start <= t) cut_period(cpu, t);
}

// Blocks the workload gives up, freed on `cpu` (through its pagesets) with their zone->lock holds
// attributed to the reclaimer. Counts them towards the reclaim episodes of their zones; returns the blocks.
std::size_t engine::impl::reclaim_blocks(int cpu, std::size_t nr)
{
    const auto blocks = load->reclaim(nr);
    reclaim_caller = true;
    unsigned long pages = 0;
    for (const auto& [pfn, order] : blocks) {
        mm::zone& z = m->page_zone(pfn);
        mm::free_pages(ctxs[cpu], pfn, order);
        pages += 1UL << order;
        zone_reclaim& r = periodic.reclaim[z];
        if (r.active) r.freed += 1UL << order;
    }
    reclaim_caller = false;
    tot.reclaimed_pages += pages;
    return blocks.size();
}

// __alloc_pages_slowpath, as far as the page allocator goes (v5.4 / v6.x): wake kswapd for the node's zones
// short of their high watermark; direct reclaim (__perform_reclaim: SWAP_CLUSTER_MAX pages given up by the
// workload and freed by this CPU) and a retry; if that fails too, drain_all_pages (the freed pages may sit
// on PCP lists, where the watermark check does not count them) and one more retry. drain_all_pages(NULL)
// returns at once while another CPU's drain holds pcpu_drain_mutex: here, while its virtual interval lasts.
// Returns the page, or NO_PFN; `calls` gets the allocator calls made beyond the first (for their cost).
mm::pfn_t engine::impl::alloc_slowpath(int cpu, const mm::alloc_request& req, std::size_t& calls)
{
    mm::pglist_data& pg = m->node_data(st[cpu].node);
    for (unsigned t = 0; t <= req.highest_zoneidx && t < mm::MAX_NR_ZONES; ++t) {
        mm::zone& z = pg.z(static_cast<mm::zone_type>(t));
        if (z.populated() && z.nr_free_pages < static_cast<long>(z.high_wmark_pages()))
            start_reclaim(z, "allocation failed");
    }

    calls += reclaim_blocks(cpu, mm::SWAP_CLUSTER_MAX) + 1;
    mm::pfn_t pfn = mm::alloc_pages(ctxs[cpu], req);
    if (pfn != mm::NO_PFN) return pfn;

    if (clock[cpu] < periodic.drain_busy_until) return mm::NO_PFN;
    // Pages on each CPU's lists before and after, for the per-CPU drain counts and the event.
    const int n = m->nr_cpu_ids();
    auto count_pcp = [&](per_cpu<long>& pages) {
        pages.assign(n, 0);
        long total = 0;
        m->for_each_populated_zone([&](mm::zone& z) {
            for (int c = 0; c < n; ++c) pages[c] += z.per_cpu_pageset[c].count;
        });
        for (long v : pages) total += v;
        return total;
    };
    const long total_before = count_pcp(periodic.drain_before);
    if (total_before == 0) return mm::NO_PFN; // drain_all_pages would skip every CPU

    const vtime_ns drain_start = clock[cpu];
    mm::drain_all_pages(ctxs[cpu], nullptr);
    // The drain's work is charged when the action ends; its lock holds have already moved the clock.
    periodic.drain_busy_until = std::max(clock[cpu], drain_start + 1);
    tot.drain_all_calls += 1;
    const long total_after = count_pcp(periodic.drain_after);
    for (int c = 0; c < n; ++c)
        if (periodic.drain_after[c] < periodic.drain_before[c]) cpu_m[c].drains += 1;

    sim_event e;
    e.t = drain_start;
    e.kind = event_kind::drain;
    e.cpu = cpu;
    e.old_value = total_before;
    e.new_value = total_after;
    e.field = event_field::pages;
    e.text = "drain_all_pages";
    push_event(std::move(e));

    calls += 1;
    return mm::alloc_pages(ctxs[cpu], req);
}

} // namespace pcplab::sim
