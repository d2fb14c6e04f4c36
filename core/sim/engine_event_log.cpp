#include "engine_event_log.hpp"

#include <algorithm>

namespace pcplab::sim
{

namespace
{

// Drops the first `n` entries. A reader releases what it took after every snapshot, so the vector fills
// and empties each interval: its buffer is kept for the next one (giving it back each time made the host
// fault in and zero the pages again for every interval, a fifth of the engine's time on a 256-CPU machine
// that keeps its holds). Only after a burst, once 64 releases in a row found it less than an eighth full,
// does the memory go back.
template <typename T> void drop_front(std::vector<T>& v, std::size_t n, unsigned& sparse_releases)
{
    const bool sparse = v.size() < v.capacity() / 8; // the interval's peak, before the release
    v.erase(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n));
    sparse_releases = sparse ? sparse_releases + 1 : 0;
    if (v.capacity() > (std::size_t{1} << 16) && sparse_releases >= 64) {
        v.shrink_to_fit();
        sparse_releases = 0;
    }
}

// How many of the entries numbered from `base` on (`size` of them) lie below number `upto`.
std::size_t count_below(std::uint64_t upto, std::uint64_t base, std::size_t size)
{
    const std::uint64_t end = base + size;
    return static_cast<std::size_t>(std::min(upto, end) - std::min(upto, base));
}

} // namespace

void event_log::reset(int nr_cpus, std::size_t nr_nodes)
{
    m_events.clear();
    m_holds.clear();
    m_events_base = m_holds_base = m_holds_dropped = 0;
    per_zone_slot<last_high> none;
    none.assign(nr_nodes, last_high{});
    m_last_high.assign(nr_cpus, none);
}

bool event_log::push(sim_event e)
{
    if (!m_cfg.keep_events) return true;
    if (m_events.size() >= m_cfg.max_events) return false;
    m_events.push_back(std::move(e));
    return true;
}

void event_log::push_hold(const lock_hold_record& r)
{
    if (m_holds.size() < m_cfg.max_holds)
        m_holds.push_back(r);
    else
        m_holds_dropped += 1;
}

bool event_log::note_high_change(int cpu, const mm::zone& z, vtime_ns t, vtime_ns workload_start_ns, int old_high,
    int new_high, std::uint8_t cause, const char* cause_text)
{
    if (!m_cfg.keep_events) return true;
    last_high& last = m_last_high[cpu][z];
    // release_events keeps an event while it can still be folded into, so `last` is always still held.
    if (last.number >= 0 && static_cast<std::uint64_t>(last.number) >= m_events_base && last.cause == cause) {
        sim_event& e = m_events[static_cast<std::size_t>(static_cast<std::uint64_t>(last.number) - m_events_base)];
        if (run_second(e.t, workload_start_ns) == run_second(t, workload_start_ns)) {
            e.new_value = new_high;
            return true;
        }
    }
    sim_event e;
    e.t = t;
    e.kind = event_kind::pcp_high_change;
    e.cpu = cpu;
    e.node = z.node;
    e.zone = z.idx;
    e.old_value = old_high;
    e.new_value = new_high;
    e.field = event_field::high;
    e.text = cause_text;
    // keep_events is on (checked above), so a push that succeeds appends the event at index `before`.
    const std::size_t before = m_events.size();
    if (!push(std::move(e))) return false;
    last = {static_cast<std::int64_t>(m_events_base + before), cause};
    return true;
}

void event_log::sort_by_time()
{
    std::stable_sort(
        m_events.begin(), m_events.end(), [](const sim_event& a, const sim_event& b) { return a.t < b.t; });
}

void event_log::release_events(std::uint64_t upto, vtime_ns now, vtime_ns workload_start_ns)
{
    std::size_t n = count_below(upto, m_events_base, m_events.size());
    // now is the slowest CPU's clock, so every CPU is at or past its second.
    const vtime_ns second = run_second(now, workload_start_ns);
    for (std::size_t i = 0; i < n; ++i)
        if (m_events[i].kind == event_kind::pcp_high_change && run_second(m_events[i].t, workload_start_ns) >= second) {
            n = i;
            break;
        }
    drop_front(m_events, n, m_events_sparse_releases);
    m_events_base += n;
}

void event_log::release_holds(std::uint64_t upto)
{
    const std::size_t n = count_below(upto, m_holds_base, m_holds.size());
    drop_front(m_holds, n, m_holds_sparse_releases);
    m_holds_base += n;
}

void event_log::take_holds(std::vector<lock_hold_record>& out)
{
    out.clear();
    out.swap(m_holds);
    m_holds_base += out.size();
}

} // namespace pcplab::sim
