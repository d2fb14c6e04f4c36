// The engine: the step loop and the workload's actions. Every step pops the CPU whose clock is furthest
// behind (ties: lower CPU id) and runs one thing for it, in this order of priority:
//   0. an interrupt raised during its last step, when the workload has interrupt-context allocations
//      (engine_irq.cpp);
//   1. its vmstat tick, once its clock has crossed the tick's instant (engine_periodic.cpp);
//      then CPU 0's forced drain_all_pages when one is due (engine_config::forced_drain_hz, engine_work.cpp);
//   2. a reclaim batch, when the kswapd-like reclaimer of a node runs on this CPU and has work;
//   3. the next chunk of a compute or idle period (cut at tick instants so ticks are never skipped);
//   4. the workload's next action: alloc / free on the real allocator, compute, idle or done.
// Allocator work is priced by the cost model and charged to the CPU's clock; locks place their holds in
// virtual time (engine_locks.cpp).
#include "engine_impl.hpp"

#include "mm/page_alloc.hpp"
#include "mm/pcp.hpp"
#include "mm/struct_page_touch.hpp"

#include <algorithm>
#include <stdexcept>

namespace pcplab::sim
{

namespace
{

// The zone an allocation of this CPU tries first: its node's highest populated zone allowed by the request.
mm::zone* preferred_zone(mm::machine& m, int nid, unsigned highest)
{
    auto& pg = m.node_data(nid);
    for (int t = static_cast<int>(std::min<unsigned>(highest, mm::ZONE_MOVABLE)); t >= 0; --t) {
        mm::zone& z = pg.z(static_cast<mm::zone_type>(t));
        if (z.populated() && z.managed()) return &z;
    }
    return nullptr;
}

} // namespace

bool engine::impl::finished() const
{
    return !pending_init && round.over();
}

bool engine::impl::step()
{
    if (!boot_st.done) boot();
    if (finished()) return false;
    const int cpu = heap.top();
    cpu_state& s = st[cpu];
    const vtime_ns t = clock[cpu];
    acting = cpu;
    in_step = true;
    const std::uint64_t spin_before = cpu_m[cpu].spin_ns;
    s.chunk_kind = cpu_activity::ready; // run_chunk sets it again when this step is a chunk
    if (irq_any && !irq[cpu].pending.empty()) {
        run_irq(cpu); // engine_irq.cpp: an interrupt raised during the CPU's last step
    } else if (t >= s.next_tick) {
        run_tick(cpu);
        s.next_tick += NS_PER_SEC;
    } else if (forced_drain_due(cpu, t)) {
        run_forced_drain(cpu);
    } else if (s.reclaim_nodes) {
        run_reclaim_step(cpu);
    } else if (s.activity != cpu_activity::ready) {
        run_chunk(cpu);
    } else if (!s.runs_workload || s.done) {
        start_activity(cpu, cpu_activity::idle, s.next_tick - t);
    } else {
        run_action(cpu);
    }
    if (irq_any) classify_irqs(cpu);
    in_step = false;
    note_core_share(cpu, t, spin_before);
    requeue(cpu);
    ++steps;
    if (pending_init && now() >= boot_st.times.init_end_ns) complete_deferred_init();
    return true;
}

// What the step just run on `cpu` (from `start`, with `spin_before` of spin time before it) did with the
// core, for its SMT sibling's user code (run_action). A spin wait runs PAUSE, which hands the core's shared
// resources to the other thread (Intel's optimisation manual on spin-wait loops), so it counts as idle.
void engine::impl::note_core_share(int cpu, vtime_ns start, std::uint64_t spin_before)
{
    cpu_state& s = st[cpu];
    constexpr std::uint32_t whole = 1u << 16;
    if (s.chunk_kind == cpu_activity::compute) {
        s.core_share_q16 = whole;
    } else if (s.chunk_kind == cpu_activity::idle) {
        s.core_share_q16 = 0;
    } else if (clock[cpu] > start) {
        const std::uint64_t d = clock[cpu] - start, spin = std::min(cpu_m[cpu].spin_ns - spin_before, d);
        s.core_share_q16 = static_cast<std::uint32_t>((d - spin) * whole / d);
    }
}

// One piece of a compute or idle period, ending at the period's end or the next tick, whichever is first.
void engine::impl::run_chunk(int cpu)
{
    cpu_state& s = st[cpu];
    vtime_ns& t = clock[cpu];
    vtime_ns chunk = std::min(s.cont_left, s.next_tick > t ? s.next_tick - t : vtime_ns{1});
    if (irq_any) chunk = irq_cut(cpu, chunk); // an interrupt outside the allocator runs at its instant
    s.chunk_start = t;
    s.chunk_kind = s.activity;
    t += chunk;
    s.cont_left -= chunk;
    if (s.activity == cpu_activity::compute) {
        cpu_m[cpu].user_ns += chunk;
        // User work is taken to stream memory at the clear_page rate: 64 lines per page-time, which pushes
        // the allocator's struct pages out of this CPU's caches.
        caches->cpu(cpu)->add_traffic(chunk * 64 / prices.clear_page_ns);
    } else
        cpu_m[cpu].idle_ns += chunk;
    if (s.cont_left == 0) s.activity = cpu_activity::ready;
}

void engine::impl::start_activity(int cpu, cpu_activity a, vtime_ns ns)
{
    cpu_state& s = st[cpu];
    s.activity = a;
    s.cont_left = std::max<vtime_ns>(ns, 1); // a zero-length period would let the clock stand still
    run_chunk(cpu);
}

void engine::impl::run_action(int cpu)
{
    const cpu_action a = load->next(cpu, clock[cpu] - round.origin);
    switch (a.k) {
    case cpu_action::kind::alloc:
        do_alloc(cpu, a);
        break;
    case cpu_action::kind::free:
        do_free(cpu, a);
        break;
    case cpu_action::kind::compute: {
        // User code shares the core with the SMT sibling: what the sibling is doing now stands for the period.
        const int sib = st[cpu].smt_sibling;
        start_activity(
            cpu, cpu_activity::compute, sib < 0 ? a.ns : prices.smt_stretched_ns(a.ns, st[sib].core_share_q16));
        break;
    }
    case cpu_action::kind::idle:
        start_activity(cpu, cpu_activity::idle, a.ns);
        break;
    case cpu_action::kind::done:
        finish_round(cpu);
        break;
    }
}

// alloc_pages for one block; on failure the slow path (engine_periodic.cpp: reclaim, drain, retries).
void engine::impl::do_alloc(int cpu, const cpu_action& a)
{
    const vtime_ns t0 = clock[cpu];
    begin_action(cpu);
    mm::alloc_request req;
    req.order = a.order;
    req.migratetype = a.mt;
    req.highest_zoneidx = static_cast<mm::zone_type>(std::min<unsigned>(a.highest_zone, mm::ZONE_MOVABLE));

    mm::zone* watched = autotune ? preferred_zone(*m, st[cpu].node, req.highest_zoneidx) : nullptr;
    const int high_before = watched ? watched->per_cpu_pageset[cpu].high : 0;

    std::size_t more_calls = 0;
    const std::uint64_t spin_before = cpu_m[cpu].spin_ns;
    // alloc_pages_nolock has no slow path: its failure is the caller's answer.
    const bool nolock = a.any_context && mm::has_alloc_pages_nolock(*m);
    mm::pfn_t pfn = nolock ? mm::alloc_pages_nolock(ctxs[cpu], -1, a.order) : mm::alloc_pages(ctxs[cpu], req);
    if (pfn == mm::NO_PFN && !nolock) pfn = alloc_slowpath(cpu, req, more_calls);
    const bool refill = action.refill, direct = action.zone_direct;
    end_action(cpu, prices.call_ns * (1 + more_calls));

    cpu_metrics& cm = cpu_m[cpu];
    cm.sys_ns += clock[cpu] - t0;
    cm.allocs += 1;
    tot.allocs += 1;
    tot.zone_allocs += meter.pages_from_buddy - action.from_buddy_at_start;
    if (pfn == mm::NO_PFN) {
        cm.alloc_failures += 1;
        tot.alloc_failures += 1;
    } else if (refill) {
        cm.refills += 1;
    } else if (!direct) {
        cm.pcp_hits += 1;
        tot.pcp_hits += 1;
    }
    if (watched) {
        const int high_after = watched->per_cpu_pageset[cpu].high;
        if (high_after != high_before)
            note_high_change(cpu, *watched, high_before, high_after,
                high_after > high_before
                    ? HIGH_GROW_REFILL
                    : (watched->flags & mm::ZONE_BELOW_HIGH ? HIGH_SHRINK_BELOW_HIGH : HIGH_OTHER));
    }
    if (pfn != mm::NO_PFN) check_watermark(m->page_zone(pfn));
    if (a.any_context) note_any_context_alloc(cpu, pfn, spin_before);
    check_over_high(cpu);
    load->allocated(cpu, pfn, clock[cpu] - round.origin);
}

// free_pages for one block the workload owns.
void engine::impl::do_free(int cpu, const cpu_action& a)
{
    const vtime_ns t0 = clock[cpu];
    caches->cpu(cpu)->prefetch(a.pfn); // free_unref_page touches it; overlaps the memmap miss just below
    mm::prefetch_struct_page(ctxs[cpu], a.next_pfn); // this CPU's next free, a round of CPUs from now
    mm::zone& z = m->page_zone(a.pfn);
    mm::per_cpu_pages& pcp = z.per_cpu_pageset[cpu];
    const int high_before = pcp.high;

    const std::size_t parked_before = z.trylock_free_pages.size();
    const std::uint64_t spin_before = cpu_m[cpu].spin_ns;
    begin_action(cpu);
    if (a.any_context && mm::has_alloc_pages_nolock(*m))
        mm::free_pages_nolock(ctxs[cpu], a.pfn, a.order);
    else
        mm::free_pages(ctxs[cpu], a.pfn, a.order);
    const bool flushed = action.flush;
    end_action(cpu, prices.call_ns);
    if (a.any_context) note_any_context_free(cpu, z, parked_before, spin_before);
    check_over_high(cpu);

    cpu_metrics& cm = cpu_m[cpu];
    cm.sys_ns += clock[cpu] - t0;
    cm.frees += 1;
    tot.frees += 1;
    // free_high (v5.18+): a high-order free that emptied the lists below a batch instead of trimming them to
    // high - batch (a normal flush leaves at least batch pages; see nr_pcp_free).
    if (flushed && a.order > 0 && a.order <= mm::PAGE_ALLOC_COSTLY_ORDER && m->era.has_free_high()
        && pcp.count < pcp.batch)
        tot.free_high_drains += 1;
    if (autotune && pcp.high != high_before) {
        std::uint8_t cause = HIGH_OTHER;
        if (pcp.high > high_before)
            cause = HIGH_GROW_FREE_RUN;
        else if (z.flags & mm::ZONE_RECLAIM_ACTIVE)
            cause = HIGH_SHRINK_RECLAIM;
        else if (z.flags & mm::ZONE_BELOW_HIGH)
            cause = HIGH_SHRINK_BELOW_HIGH;
        else if (a.order > 0)
            cause = HIGH_SHRINK_FREE_HIGH;
        note_high_change(cpu, z, high_before, pcp.high, cause);
    }
}

} // namespace pcplab::sim
