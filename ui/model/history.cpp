// Time series accumulated from snapshots: one sample per new seq, events and holds appended with caps.
#include "ui/model/history.hpp"

#include <algorithm>
#include <climits>

namespace pcplab::ui
{

namespace
{

// One zone's numbers at this snapshot, including the band of per-CPU high over all CPUs.
zone_sample sample_zone(const sim::snapshot& s, std::size_t zi)
{
    const sim::zone_snapshot& z = s.zones[zi];
    zone_sample out;
    out.batch = z.batch;
    out.high = z.high;
    out.high_min = z.high_min;
    out.high_max = z.high_max;
    out.pcp_pages = z.pcp_pages;
    out.free_pages = z.free_pages;
    out.managed = z.managed;
    out.contention_pct_recent = z.lock.contention_pct_recent;
    out.waiting_cpus = z.lock.waiting_cpus_now >= 0 ? z.lock.waiting_cpus_now : (z.lock.someone_waiting ? 1 : 0);
    out.lock_acquisitions = z.lock.m.acquisitions;
    out.lock_hold_ns_max = z.lock.m.hold_ns_max;
    if (s.has_pagesets(static_cast<int>(zi))) {
        // With auto-tuning (v6.7+) a pageset's high stays at the boot pageset's 0 until its CPU first allocates
        // or frees in the zone (nr_pcp_high clamps it then): those CPUs do not use the zone, and a 0 would put
        // the band's lower edge off a log axis. The band covers the CPUs whose high is set.
        int lo = INT_MAX, hi = 0;
        for (int cpu = 0; cpu < s.nr_cpus; ++cpu) {
            const int h = s.pageset(zi, cpu).high;
            if (h <= 0) continue;
            lo = std::min(lo, h);
            hi = std::max(hi, h);
        }
        out.cpu_high_min = hi > 0 ? lo : 0;
        out.cpu_high_max = hi;
    }
    return out;
}

// Halves the density of the older half of the samples (every other one dropped), so that the recent past
// stays at full resolution while the whole run still fits in max_samples.
void thin_old_half(std::deque<sample>& samples)
{
    const std::size_t old_end = samples.size() / 2;
    std::deque<sample> kept;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        if (i < old_end && (i % 2) == 1) continue;
        kept.push_back(std::move(samples[i]));
    }
    samples.swap(kept);
}

template <typename T>
void append_capped(std::deque<T>& dst, const std::vector<T>& src, std::size_t cap, std::uint64_t* dropped)
{
    for (const T& x : src) dst.push_back(x);
    while (dst.size() > cap) {
        dst.pop_front();
        if (dropped) ++*dropped;
    }
}

// Inserts keeping the deque sorted by start. Records come nearly in order, so the place is almost always at
// or near the end, where a deque inserts cheaply.
void insert_by_start(std::deque<sim::lock_hold_record>& d, const sim::lock_hold_record& h)
{
    if (d.empty() || d.back().start <= h.start) {
        d.push_back(h);
        return;
    }
    auto at = std::upper_bound(
        d.begin(), d.end(), h.start, [](sim::vtime_ns t, const sim::lock_hold_record& r) { return t < r.start; });
    d.insert(at, h);
}

} // namespace

history::history(std::size_t max_samples, std::size_t max_events, std::size_t max_holds)
    : m_max_samples(std::max<std::size_t>(max_samples, 4))
    , m_max_events(max_events)
    , m_max_holds(max_holds)
{
}

void history::clear()
{
    m_samples.clear();
    m_events.clear();
    m_holds.clear();
    m_zone_holds.clear();
    m_zone_reach_ns = 0;
    m_bins.clear();
    m_boot_end_ns = 0;
    m_last_seq = 0;
    m_any = false;
    m_generation = 0;
    m_events_dropped = 0;
    m_events_total = m_holds_total = 0;
    m_samples_total = m_thins = 0;
    ++m_epoch;
}

bool history::append(const sim::snapshot& s)
{
    if (m_any && s.run.generation == m_generation && s.seq == m_last_seq) return false; // already seen
    // A reboot (new generation) or a new source (seq restarted) starts a new timeline.
    if (m_any && (s.run.generation != m_generation || s.seq < m_last_seq)) clear();
    m_any = true;
    m_last_seq = s.seq;
    m_generation = s.run.generation;

    sample smp;
    smp.t_ns = s.sim_time_ns;
    smp.generation = s.run.generation;
    smp.pcp_hits = s.totals.pcp_hits;
    smp.zone_allocs = s.totals.zone_allocs;
    smp.sys_ns = s.sys_ns_total();
    smp.user_ns = s.user_ns_total();
    for (const sim::cpu_metrics& c : s.cpus) smp.idle_ns += c.idle_ns;
    smp.score = s.score.work_units;
    smp.zones.reserve(s.zones.size());
    for (std::size_t zi = 0; zi < s.zones.size(); ++zi) smp.zones.push_back(sample_zone(s, zi));
    m_samples.push_back(std::move(smp));
    ++m_samples_total;
    if (m_samples.size() > m_max_samples) {
        thin_old_half(m_samples);
        ++m_thins;
    }

    m_events_dropped += s.events_dropped;
    append_capped(m_events, s.events, m_max_events, &m_events_dropped);
    append_capped(m_holds, s.holds, m_max_holds, nullptr);
    for (const sim::lock_hold_record& h : s.holds)
        if (h.kind == mm::lock_kind::zone_lock) {
            insert_by_start(m_zone_holds, h);
            m_zone_reach_ns = std::max(
                {m_zone_reach_ns, static_cast<std::int64_t>(h.hold_ns), static_cast<std::int64_t>(h.wait_ns)});
        }
    while (m_zone_holds.size() > m_max_holds) m_zone_holds.pop_front();
    m_bins.add(s);
    if (s.state == sim::run_state::booting)
        m_boot_end_ns = std::max(m_boot_end_ns, static_cast<std::int64_t>(s.sim_time_ns));
    for (const sim::sim_event& e : s.events)
        if (e.kind == sim::event_kind::deferred_init_done)
            m_boot_end_ns = std::max(m_boot_end_ns, static_cast<std::int64_t>(e.t));
    m_events_total += s.events.size();
    m_holds_total += s.holds.size();
    return true;
}

} // namespace pcplab::ui
