// What each CPU and each zone->lock did over virtual time, in bins of equal width from t = 0: the per-CPU x time
// heatmap and the rates view read it. Per bin:
//   - each CPU's PCP list depth in every zone, as count / high, the time-weighted mean over the bin (a snapshot's
//     value holds until the next snapshot);
//   - the time each CPU spent waiting for a zone->lock (from the hold records: [start - wait_ns, start));
//   - per zone->lock, the time during which at least one CPU waited (the waits of one lock merged as the engine
//     merges them for lock_metrics::waiting_ns, so that over the whole run they add up to what
//     sim::contention_pct divides by the elapsed time), and the CPU time spent waiting for it.
// Without hold records (engine_config::keep_holds off), the waits come from the snapshots' counters instead: a
// CPU's spin time (any lock) and a lock's waiting_ns, spread evenly over the interval between two snapshots.
// When the run outgrows max_bins, neighbouring bins are merged in pairs (the width doubles), so memory stays
// within max_bins x (zones + 1) x CPUs floats, plus four per zone and bin. Plain C++, like the history.
#pragma once

#include "sim/snapshot.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace pcplab::ui
{

class activity_bins
{
public:
    explicit activity_bins(std::size_t max_bins = 512, std::int64_t first_width_ns = 20'000);
    void clear();
    // Takes a new snapshot (history::append calls it once per new snapshot, in order).
    void add(const sim::snapshot& s);

    std::int64_t bin_ns() const { return m_width; }
    // Bins that hold anything: up to the one holding the newest snapshot's time.
    std::size_t bins() const;
    std::size_t max_bins() const { return m_max; }
    int nr_cpus() const { return m_cpus; }
    std::size_t nr_zones() const { return m_zones.size(); }
    // The zones' (node, zone type), in the snapshots' order (the zone index zi of the functions below).
    struct zone_key {
        int node = 0, zone = 0;
    };
    const std::vector<zone_key>& zones() const { return m_zones; }
    int zone_index(int node, int zone) const;
    // The newest snapshot's virtual time (the end of what the bins know).
    std::int64_t now_ns() const { return m_now; }
    // True when the waits come from hold records (exact); false: from the spin / waiting counters.
    bool waits_from_holds() const { return m_exact; }
    // Bytes held by the bins (for the history's memory bound).
    std::size_t bytes() const;

    // The part of bin b that lies before now_ns() (the bin's width except for the newest bin).
    std::int64_t elapsed_in(std::size_t b) const;
    // count / high of `cpu`'s pageset in zone zi, averaged over the part of bin b the snapshots covered; a
    // negative value when no snapshot covered it (not yet, or the zone had no pagesets).
    float depth(std::size_t zi, int cpu, std::size_t b) const;
    // The share (0..1) of bin b during which `cpu` waited for a zone->lock.
    float cpu_wait_share(int cpu, std::size_t b) const;
    // The share (0..1) of bin b during which at least one CPU waited for zone zi's lock: contention % of the bin.
    double zone_contention_share(std::size_t zi, std::size_t b) const;
    // CPUs waiting for zone zi's lock, on average over bin b (CPU time spent waiting / the bin's time).
    double zone_cpus_waiting(std::size_t zi, std::size_t b) const;

    // For readers that redraw only what changed (the heatmap's image): a mark taken after reading, and the first
    // bin any add() since that mark wrote into; 0 when the bins were cleared, reshaped or merged since (every
    // bin moved) or the mark is too old to tell, max_bins() when nothing was written. A wait reported late (a
    // CPU granted the lock after a long wait) writes bins well before the newest one, so readers must ask.
    struct mark {
        std::uint64_t layout = ~std::uint64_t{0}, adds = 0;
    };
    mark current_mark() const { return {m_layout, m_adds}; }
    std::size_t first_changed_since(const mark& m) const;

private:
    void shape(const sim::snapshot& s);
    void touched(std::size_t b) { m_touched = std::min(m_touched, b); }
    void fit(std::int64_t t_end); // doubles the width until [0, t_end) fits
    void merge_pairs();
    // Adds `value` per ns over [t0, t1) to row[b] (a row of m_max bins).
    void spread(float* row, std::int64_t t0, std::int64_t t1, double value_per_ns);
    void add_waits(const sim::snapshot& s);
    void add_counter_waits(const sim::snapshot& s, std::int64_t t0, std::int64_t t1);

    std::size_t m_max;
    std::int64_t m_first_width, m_width;
    int m_cpus = 0;
    std::vector<zone_key> m_zones;
    std::int64_t m_now = 0;
    bool m_have_prev = false;
    bool m_exact = true;
    // Row-major: row r holds m_max bins. depth: zones x cpus rows of (count/high) x ns; cover: ns covered.
    std::vector<float> m_depth, m_cover, m_cpu_wait;
    std::vector<float> m_zone_union, m_zone_sum; // zones rows each
    std::vector<float> m_prev_depth; // zones x cpus: the previous snapshot's count/high (< 0: none)
    std::vector<std::uint64_t> m_prev_spin, m_prev_waiting; // per CPU, per zone: the counters' last values
    std::vector<std::int64_t> m_until; // per zone: the end of the current merged wait interval
    // Change tracking (first_changed_since): layout changes on clear and merge; the lowest bin each of the
    // latest adds wrote, by add number modulo the ring's size.
    static constexpr std::size_t k_touch_ring = 64;
    std::uint64_t m_layout = 0, m_adds = 0;
    std::size_t m_touched = 0;
    std::array<std::size_t, k_touch_ring> m_touch_ring{};
};

} // namespace pcplab::ui
