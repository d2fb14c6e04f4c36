// Interrupt-context allocations (workload::irq_pages) and the two ways pcp->lock has treated IRQs, which the
// pcp-lock-irqs-enabled switch chooses between (Mel Gorman, "mm/page_alloc: leave IRQs enabled for per-cpu
// page allocations", 5749077415994eb0, v6.2):
//   off (v6.0, v6.1): pcp_spin_lock_irqsave / pcp_spin_trylock_irqsave. IRQs are off on the holding CPU for the
//       whole pcp->lock hold, its spin included, and so for any zone->lock hold nested in it (a refill's
//       rmqueue_bulk, a flush's free_pcppages_bulk) with that lock's wait. An interrupt raised meanwhile waits
//       for the end of the hold, then finds the lists free.
//   on (v6.2+): pcp_spin_lock / pcp_spin_trylock leave IRQs on; only zone->lock's spin_lock_irqsave turns them
//       off. An interrupt raised while its own CPU holds that CPU's pcp->lock runs at once (or after the nested
//       zone->lock hold it arrived in), its pcp_spin_trylock fails, and it takes or frees its page on the buddy
//       lists under zone->lock (rmqueue_buddy, free_one_page).
// zone->lock holds outside pcp->lock disable IRQs in both (spin_lock_irqsave).
//
// Mechanics. Each CPU with a source draws its arrivals in virtual time, with gaps uniform in [1, 2 x mean - 1] ns
// (mean 1 / rate: integer-only, so the same on every platform; not exponential). The engine records the acting
// CPU's lock holds in each step (irq_lock_taken / irq_lock_released) and, after the step, classifies every
// arrival up to the CPU's clock against them: how long IRQs were still off (the delay), and, on, whether the
// CPU's own pcp->lock was held. The interrupt then runs as a step of its own before the CPU's next step, with
// the trylock of its own pcp->lock forced to fail where it was held. So it runs at the end of the interrupted
// action instead of inside it: its zone->lock request comes later by at most that action's length (a few us),
// and the interrupted hold is not stretched by the handler's time. Running it inside the action would break
// the step loop's rule that a step's first lock request is never earlier than one already granted; the delays
// reported are the ones the recorded holds imply, not these shifted ones. Compute and idle periods are cut at
// arrivals, so an interrupt outside the allocator runs at its instant.
//
// Eras before v6.0 have no pcp->lock in the model (pcp_lock_guard takes none): only their zone->lock holds count
// as IRQs-off there, which understates their delays (the kernel kept IRQs off over the whole list access).
#include "engine_impl.hpp"

#include "mm/page_alloc.hpp"

#include <algorithm>

namespace pcplab::sim
{

namespace
{

constexpr vtime_ns NS_PER_MS = 1'000'000;

vtime_ns next_gap(workloads::rng& r, double mean_ns)
{
    const auto twice = static_cast<std::uint64_t>(std::max(2.0, 2 * mean_ns));
    return r.between(1, std::min<std::uint64_t>(twice - 1, 0xfffffffeULL));
}

} // namespace

// From the workload's irq_pages(), at attach: a stream per workload CPU, none when the rate is 0 (every lock
// hold then goes unwatched and the run is the same as without this file).
void engine::impl::setup_irqs()
{
    const irq_load want = load->irq_pages();
    irq.assign(m->nr_cpu_ids(), irq_cpu_state{});
    irq_any = want.pages_per_ms > 0;
    if (!irq_any) return;
    irq_mean_gap_ns = static_cast<double>(NS_PER_MS) / want.pages_per_ms;
    irq_ring = std::max(want.ring, 1u);
    for (int c = 0; c < m->nr_cpu_ids(); ++c) {
        if (!st[c].runs_workload) continue;
        irq_cpu_state& q = irq[c];
        q.active = true;
        q.r = workloads::rng(workloads::stream_seed(cfg.seed, workloads::TAG_IRQ_ALLOC, static_cast<unsigned>(c)));
        q.next = clock[c] + next_gap(q.r, irq_mean_gap_ns);
    }
}

void engine::impl::irq_lock_taken(const mm::lock_id& id, vtime_ns request)
{
    irq_cpu_state& q = irq[acting];
    if (!q.active) return;
    q.windows.push_back({request, 0, id.kind, id.kind == mm::lock_kind::pcp_lock && id.cpu == acting});
}

void engine::impl::irq_lock_released(const mm::lock_id& id, vtime_ns end)
{
    irq_cpu_state& q = irq[acting];
    if (!q.active) return;
    const bool own = id.kind == mm::lock_kind::pcp_lock && id.cpu == acting;
    for (auto w = q.windows.rbegin(); w != q.windows.rend(); ++w)
        if (w->end == 0 && w->kind == id.kind && w->own_pcp == own) {
            w->end = end;
            return;
        }
}

// After a step of `cpu`: every arrival up to its clock, against the holds of the step. IRQs are off inside a
// zone->lock window (both sides) and inside a pcp->lock window (off only); an arrival waits until the end of the
// chain of such windows it falls in. On, it then still finds the CPU's own pcp->lock held if that hold goes on.
void engine::impl::classify_irqs(int cpu)
{
    irq_cpu_state& q = irq[cpu];
    if (!q.active) return;
    if (q.windows.empty() && q.next > clock[cpu]) return; // most steps: no hold and no arrival to classify
    const bool irqs_on_under_pcp = m->patches[mm::patch::pcp_lock_irqs_enabled] && m->era.has_pcp_lock();
    auto masks = [&](const irq_window& w) { return w.kind == mm::lock_kind::zone_lock || !irqs_on_under_pcp; };
    for (auto& w : q.windows)
        if (w.end == 0) w.end = clock[cpu]; // still held at the step's end (not expected): up to now
    // The IRQs-off stretches of the step: holds that mask, merged where they touch or nest.
    auto close_stretch = [this](vtime_ns from, vtime_ns to) {
        tot.irq.irqs_off_ns_max = std::max(tot.irq.irqs_off_ns_max, to - from);
        tot.irq.irqs_off_ns_total += to - from;
    };
    {
        vtime_ns from = 0, to = 0;
        bool open = false;
        std::vector<irq_window>& ms = irq_masking;
        ms.clear();
        for (const auto& w : q.windows)
            if (masks(w)) ms.push_back(w);
        std::sort(ms.begin(), ms.end(), [](const irq_window& a, const irq_window& b) { return a.start < b.start; });
        for (const auto& w : ms) {
            if (open && w.start <= to) {
                to = std::max(to, w.end);
                continue;
            }
            if (open) close_stretch(from, to);
            from = w.start;
            to = w.end;
            open = true;
        }
        if (open) close_stretch(from, to);
    }
    while (q.next <= clock[cpu]) {
        const vtime_ns t = q.next;
        vtime_ns runs_at = t;
        for (bool moved = true; moved;) {
            moved = false;
            for (const auto& w : q.windows)
                if (masks(w) && w.start <= runs_at && runs_at < w.end) {
                    runs_at = w.end;
                    moved = true;
                }
        }
        bool locked = false;
        if (irqs_on_under_pcp)
            for (const auto& w : q.windows)
                if (w.own_pcp && w.start <= runs_at && runs_at < w.end) locked = true;
        irq_metrics& im = tot.irq;
        im.arrivals += 1;
        if (runs_at > t) {
            im.delayed += 1;
            im.delay_ns_total += runs_at - t;
            im.delay_ns_max = std::max<std::uint64_t>(im.delay_ns_max, runs_at - t);
        }
        q.pending.push_back({t, locked});
        q.next = t + next_gap(q.r, irq_mean_gap_ns);
    }
    q.windows.clear();
}

// A compute or idle chunk of `cpu` stops at its next arrival (at least 1 ns long, as run_chunk's are).
vtime_ns engine::impl::irq_cut(int cpu, vtime_ns chunk) const
{
    const irq_cpu_state& q = irq[cpu];
    if (!q.active || q.next <= clock[cpu]) return chunk;
    return std::min(chunk, q.next - clock[cpu]);
}

// One interrupt, as a NIC's RX refill does it: free the page taken `ring` interrupts ago (the stack is done
// with it), then take a new one. GFP_ATOMIC: unmovable, up to ZONE_NORMAL, no reclaim: the allocation is
// get_page_from_freelist's first try at the low mark (the slow path's reserves that __GFP_HIGH may use are not
// modelled; a failure is counted instead). Each call goes through the ordinary
// free_unref_page / rmqueue paths; where the interrupted code held this CPU's pcp->lock (on), their
// pcp_spin_trylock fails (engine::impl::trylock) and they use the buddy lists.
void engine::impl::run_irq(int cpu)
{
    irq_cpu_state& q = irq[cpu];
    const pending_irq p = q.pending.front();
    q.pending.pop_front();
    const vtime_ns t0 = clock[cpu];
    const std::uint64_t spin_before = cpu_m[cpu].spin_ns;
    irq_fail_own_pcp = p.pcp_locked;
    if (q.ring.size() >= irq_ring) {
        const mm::pfn_t old = q.ring.front();
        q.ring.pop_front();
        begin_action(cpu);
        mm::free_pages(ctxs[cpu], old, 0);
        end_action(cpu, prices.call_ns);
        tot.irq.frees += 1;
    }
    mm::alloc_request req;
    req.order = 0;
    req.migratetype = mm::MIGRATE_UNMOVABLE;
    req.highest_zoneidx = mm::ZONE_NORMAL;
    begin_action(cpu);
    const mm::pfn_t pfn = mm::alloc_pages(ctxs[cpu], req);
    end_action(cpu, prices.call_ns);
    irq_fail_own_pcp = false;
    tot.irq.allocs += 1;
    if (pfn == mm::NO_PFN)
        tot.irq.alloc_failures += 1;
    else {
        q.ring.push_back(pfn);
        check_watermark(m->page_zone(pfn));
    }
    tot.irq.spin_ns += cpu_m[cpu].spin_ns - spin_before;
    cpu_m[cpu].sys_ns += clock[cpu] - t0;
}

} // namespace pcplab::sim
