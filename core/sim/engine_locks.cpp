// zone->lock and pcp->lock in virtual time, and the charging of allocator work to the acting CPU's clock.
//
// Work is charged lazily so that a lock is requested at the clock the CPU had when its action started or
// when it last released a lock. Work done while no lock is held is charged at the end of the action; work
// done inside a hold is charged when that hold is released, so the hold lasts exactly as long as the work
// done inside it (nested holds included) plus the acquire cost. The order of work inside one action is
// permuted by this (the picking of seed 001 is charged after the zone->lock hold instead of before), but
// every duration is exact, and because the acting CPU is the one furthest behind, the first lock request of
// every action is never earlier than a request already granted: locks are granted in request order. A
// second request inside the same action (drain loops, seed 003's chunks, a fallback to another zone) comes
// at the release of the first and may be granted ahead of a CPU whose request time was earlier; those
// grants are counted in lock_metrics::order_inversions.
//
// Acquire: requested at t; if the lock is free, granted at t and the hold includes lock_ns plus the lock
// word's cache-line transfer from the previous holder; if not, the CPU spins until the release and gets the
// line after one hand-over (wait = grant - t), then pays lock_ns inside the hold. The hand-over cost comes
// from the cost model by topology (SMT sibling, same socket, where the lock word is homed).
#include "engine_impl.hpp"

#include <algorithm>
#include <limits>

namespace pcplab::sim
{

void engine::impl::begin_action(int cpu)
{
    acting = cpu;
    action.begin(meter, prices);
}

// Advance a clock by `ps` picoseconds, carrying the sub-nanosecond rest so nothing is lost to rounding.
void engine::impl::charge(int cpu, std::uint64_t ps)
{
    cpu_state& s = st[cpu];
    const std::uint64_t total = s.rem_ps + ps;
    clock[cpu] += total / 1000;
    s.rem_ps = static_cast<std::uint32_t>(total % 1000);
}

void engine::impl::end_action(int cpu, std::uint64_t fixed_ns)
{
    action.sync(meter, prices);
    charge(cpu, fixed_ns * 1000 + action.take_all());
}

std::uint64_t engine::impl::handover_ns(int from, int to, int home_socket) const
{
    if (from < 0 || from == to) return 0;
    const cpu_state& a = st[from];
    const cpu_state& b = st[to];
    // cost_model's handover_ns by topology: SMT sibling, same socket, and which side of the transfer sits on
    // the socket the lock word is homed on (cost-model-sources.md §1: the home-node effect).
    return prices.handover[a.core == b.core][a.socket == b.socket][a.socket == home_socket][b.socket == home_socket];
}

void engine::impl::lock(const mm::lock_id& id, int cpu, mm::lock_caller caller)
{
    action.sync(meter, prices);
    vlock& l = locks.of(id);
    vtime_ns& clk = clock[acting];
    const vtime_ns t = clk;
    const std::uint64_t line = handover_ns(l.last_holder, cpu, l.home_socket);
    if (l.free_at > t) {
        l.grant = l.free_at + line;
        l.acquire_ns = prices.lock_ns;
        cpu_m[acting].spin_ns += l.grant - t;
    } else {
        l.grant = t;
        l.acquire_ns = prices.lock_ns + line;
    }
    l.request = t;
    if (t < l.last_request)
        ++l.metrics->order_inversions;
    else
        l.last_request = t;
    clk = l.grant;
    action.enter_lock();
    if (irq_any) irq_lock_taken(id, t);

    if (id.kind == mm::lock_kind::zone_lock) {
        if (caller == mm::lock_caller::rmqueue_bulk) action.refill = true;
        if (caller == mm::lock_caller::rmqueue_buddy) action.zone_direct = true;
        if (caller == mm::lock_caller::free_pcppages_bulk) action.flush = true;
    }
}

// pcp_spin_trylock (v6.0+), and zone->lock's spin_trylock on the v6.15 nolock paths: fails while another CPU
// holds the lock at this instant, or (v6.2+) in an interrupt whose CPU's own pcp->lock the interrupted code held.
bool engine::impl::trylock(const mm::lock_id& id, int cpu, mm::lock_caller caller)
{
    vlock& l = locks.of(id);
    // An interrupt on the CPU whose own pcp->lock the interrupted code holds (v6.2+, engine_irq.cpp).
    if (irq_fail_own_pcp && id.kind == mm::lock_kind::pcp_lock && id.cpu == acting) {
        ++l.metrics->trylock_failures;
        ++tot.irq.pcp_fallbacks;
        return false;
    }
    if (l.free_at > clock[acting]) {
        ++l.metrics->trylock_failures;
        return false;
    }
    lock(id, cpu, caller);
    return true;
}

void engine::impl::unlock(const mm::lock_id& id, int cpu, mm::lock_caller caller, const mm::mm_work& inside)
{
    action.sync(meter, prices);
    vlock& l = locks.of(id);
    charge(acting, action.leave_lock() + l.acquire_ns * 1000);
    const vtime_ns end = clock[acting];
    record_hold(l, id, cpu, caller, end, inside.pages_to_buddy + inside.pages_from_buddy);
    l.free_at = end;
    l.last_holder = cpu;
    if (irq_any) irq_lock_released(id, end);
}

void engine::impl::record_hold(
    vlock& l, const mm::lock_id& id, int cpu, mm::lock_caller caller, vtime_ns end, std::uint64_t pages)
{
    if (reclaim_caller) caller = mm::lock_caller::reclaim;
    lock_metrics& lm = *l.metrics;
    const std::uint64_t hold = end - l.grant;
    const std::uint64_t wait = l.grant - l.request;
    const auto ci = static_cast<unsigned>(caller);

    lm.acquisitions += 1;
    if (wait) {
        lm.contended += 1;
        lm.wait_ns_total += wait;
        lm.wait_ns_max = std::max(lm.wait_ns_max, wait);
        lm.wait_hist.add(wait);
        if (wait > cfg.hold_threshold_ns) lm.waits_over_threshold += 1;
        // Time during which some CPU waited: grants of one lock come in increasing order, so each wait
        // interval either starts after the merged interval so far or extends it to the right.
        if (l.request >= lm.waiting_until) {
            lm.waiting_ns += wait;
            lm.waiting_from = l.request;
            lm.waiting_until = l.grant;
        } else if (l.grant > lm.waiting_until) {
            lm.waiting_ns += l.grant - lm.waiting_until;
            lm.waiting_until = l.grant;
        }
    }
    lm.hold_ns_total += hold;
    lm.hold_ns_max = std::max(lm.hold_ns_max, hold);
    lm.hold_hist.add(hold);
    lm.max_pages_per_hold = std::max(lm.max_pages_per_hold, pages);
    if (hold > cfg.hold_threshold_ns) lm.holds_over_threshold += 1;
    lm.holds_by_caller[ci] += 1;
    lm.hold_ns_by_caller[ci] += hold;
    lm.max_pages_by_caller[ci] = std::max(lm.max_pages_by_caller[ci], pages);

    if (cfg.keep_holds) {
        constexpr std::uint64_t u32 = std::numeric_limits<std::uint32_t>::max();
        lock_hold_record r;
        r.start = l.grant;
        r.hold_ns = static_cast<std::uint32_t>(std::min(hold, u32));
        r.wait_ns = static_cast<std::uint32_t>(std::min(wait, u32));
        r.cpu = static_cast<std::uint16_t>(cpu);
        r.node = static_cast<std::uint8_t>(id.node);
        r.zone = static_cast<std::uint8_t>(id.zone);
        r.caller = caller;
        r.kind = id.kind;
        r.pages = static_cast<std::uint32_t>(std::min(pages, u32));
        r.owner = static_cast<std::int16_t>(id.kind == mm::lock_kind::pcp_lock ? id.cpu : -1);
        if (!cfg.keep_plain_pcp_holds && plain_pcp_hold(r)) return;
        log.push_hold(r);
    }
}

} // namespace pcplab::sim
