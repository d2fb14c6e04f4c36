// What the time-series views plot: one sample per snapshot appended, kept in memory with bounded size
// (old samples are thinned, never the recent ones), plus the events and lock holds seen so far (capped), and
// per-CPU / per-lock activity in time bins (activity_bins: the heatmap, the rates view's contention).
// Plain C++ (no Qt) so that the recorder and tests can use it too. A snapshot's seq tells whether it is new.
#pragma once

#include "ui/model/activity_bins.hpp"

#include "sim/snapshot.hpp"

#include <cstdint>
#include <deque>
#include <vector>

namespace pcplab::ui
{

// One zone at one sample.
struct zone_sample {
    int batch = 0, high = 0, high_min = 0, high_max = 0; // the zone's cached limits
    int cpu_high_min = 0, cpu_high_max = 0; // band of the per-CPU (auto-tuned) high over the CPUs that set it
    long pcp_pages = 0;
    long free_pages = 0;
    unsigned long managed = 0;
    double contention_pct_recent = 0;
    int waiting_cpus = 0; // waiting_cpus_now, or someone_waiting as 0/1 when not exact
    std::uint64_t lock_acquisitions = 0;
    std::uint64_t lock_hold_ns_max = 0;
};

struct sample {
    std::int64_t t_ns = 0; // snapshot sim_time_ns
    std::uint64_t generation = 0;
    std::uint64_t pcp_hits = 0, zone_allocs = 0; // cumulative totals
    std::uint64_t sys_ns = 0, user_ns = 0; // cumulative over all CPUs
    std::uint64_t idle_ns = 0; // cumulative over all CPUs (sys + user + idle = the CPU time accounted so far)
    double score = 0;
    std::vector<zone_sample> zones; // same order as snapshot::zones
};

class history
{
public:
    explicit history(
        std::size_t max_samples = 20'000, std::size_t max_events = 100'000, std::size_t max_holds = 200'000);
    // Appends a sample when s.seq is new; collects its events and holds. A new generation (reboot) clears.
    // Returns false when the snapshot was already seen.
    bool append(const sim::snapshot& s);
    void clear();

    const std::deque<sample>& samples() const { return m_samples; }
    const std::deque<sim::sim_event>& events() const { return m_events; }
    const std::deque<sim::lock_hold_record>& holds() const { return m_holds; }
    // The zone->lock holds only (the lanes view), sorted by start: records arrive in host order, and a CPU
    // whose clock runs ahead records holds far in the future of the others, so arrival order is not time order.
    // Capped like holds(), dropping the earliest.
    const std::deque<sim::lock_hold_record>& zone_lock_holds() const { return m_zone_holds; }
    // The longest zone->lock hold or wait among them since the last clear: how long before a time window a
    // record may start and still reach into it (a refill that falls back page after page holds the lock for
    // over 10 ms).
    std::int64_t zone_lock_reach_ns() const { return m_zone_reach_ns; }
    std::uint64_t last_seq() const { return m_last_seq; }
    std::uint64_t events_dropped() const { return m_events_dropped; }
    // For views that keep derived state and take only what is new: how many events / holds were appended since
    // the last clear (the newest min(n - seen, events().size()) are the new ones), and a counter that changes
    // on every clear (a reader that saw another epoch starts over).
    std::uint64_t events_total() const { return m_events_total; }
    std::uint64_t holds_total() const { return m_holds_total; }
    std::uint64_t epoch() const { return m_epoch; }
    // Samples appended since the last clear, and how many times the old ones were thinned since: a reader
    // that built series incrementally rebuilds them when either the epoch or the thin count changed.
    std::uint64_t samples_total() const { return m_samples_total; }
    std::uint64_t thin_count() const { return m_thins; }
    std::size_t max_samples() const { return m_max_samples; }
    // Each CPU's list depths and lock waits, and each zone->lock's contention, over time (bounded memory).
    const activity_bins& bins() const { return m_bins; }
    // The end of the boot in virtual time: the latest deferred_init_done event, or the latest snapshot taken
    // while the machine was booting, whichever is later (0 when the boot took no virtual time).
    std::int64_t boot_end_ns() const { return m_boot_end_ns; }

private:
    std::size_t m_max_samples, m_max_events, m_max_holds;
    std::deque<sample> m_samples;
    std::deque<sim::sim_event> m_events;
    std::deque<sim::lock_hold_record> m_holds;
    std::deque<sim::lock_hold_record> m_zone_holds; // sorted by start
    std::int64_t m_zone_reach_ns = 0;
    activity_bins m_bins;
    std::int64_t m_boot_end_ns = 0;
    std::uint64_t m_last_seq = 0;
    bool m_any = false;
    std::uint64_t m_generation = 0;
    std::uint64_t m_events_dropped = 0;
    std::uint64_t m_events_total = 0, m_holds_total = 0;
    std::uint64_t m_samples_total = 0, m_thins = 0;
    std::uint64_t m_epoch = 0;
};

} // namespace pcplab::ui
