// What a view sees of a running engine at one virtual time: an immutable, self-contained copy (no pointer
// into the engine), published as std::shared_ptr<const snapshot>. A reader may keep one as long as it likes;
// the engine never waits for it. A replay produces the same structure, so views cannot tell the two apart.
#pragma once

#include "sim/boot_timeline.hpp"
#include "sim/command_result.hpp"
#include "sim/metrics.hpp"
#include "sim/workload.hpp"

#include "mm/kernel_version.hpp"
#include "mm/mm_types.hpp"
#include "mm/patch_switches.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pcplab::procfs
{
class procfs_texts; // procfs/procfs_texts.hpp: include it to read the texts
} // namespace pcplab::procfs

namespace pcplab::sim
{

struct cost_model; // sim/cost_model.hpp: include it to read the model

enum class run_state : std::uint8_t {
    // The engine is being built or booted, or its boot is being played: sim_time_ns is before
    // boot.workload_start_ns and advances through the boot (the early part, then deferred init). A pause
    // during the boot shows `paused` with sim_time_ns < boot.workload_start_ns.
    booting,
    running,
    paused,
    finished, // the workload is done everywhere; waits for commands
    failed, // the engine could not be built, booted or stepped: see snapshot::error
    stopped, // the last snapshot of a stopped engine thread
};
const char* run_state_name(run_state s);

// One CPU's pageset of one zone: the three numbers the list-depth views draw.
struct pcp_sample {
    std::int32_t count = 0;
    std::int32_t high = 0;
    std::int32_t batch = 0;
};

// zone->lock as the lock views show it.
struct lock_snapshot {
    bool present = false; // false when the engine reported no metrics for this zone
    lock_metrics m; // the engine's counters, histograms included (hold p99: sim::hold_ns_p99(m))
    double contention_pct = 0; // time some CPU spent waiting / elapsed virtual time, whole run
    double contention_pct_recent = 0; // the same over the interval since the previous snapshot
    // CPUs spinning on this lock at sim_time_ns. Exact only when the engine keeps lock holds (then counted
    // from the hold records); otherwise -1, and someone_waiting says whether at least one CPU was.
    int waiting_cpus_now = -1;
    bool someone_waiting = false;
};

struct zone_snapshot {
    int node = 0;
    int zone = 0; // mm::zone_type
    unsigned long spanned = 0, present = 0, managed = 0;
    long free_pages = 0; // NR_FREE_PAGES
    std::array<unsigned long, mm::NR_WMARK> watermark{}; // min, low, high, promo (boost included)
    unsigned long watermark_boost = 0;
    unsigned flags = 0; // mm::zone_flag bits (ZONE_RECLAIM_ACTIVE, ZONE_BELOW_HIGH)
    // The zone's cached pageset limits (zone_set_pageset_high_and_batch); per-CPU values are in pcp[].
    int batch = 0, high = 0, high_min = 0, high_max = 0;
    // Free blocks per order (exact) and per order and migratetype (see free_blocks_exact).
    std::array<unsigned long, mm::NR_PAGE_ORDERS> nr_free{};
    std::array<std::array<unsigned long, mm::MIGRATE_TYPES>, mm::NR_PAGE_ORDERS> free_blocks{};
    // Exact in every snapshot of this build (the free areas count their lists). False only in recordings of
    // builds that walked the lists with a cap: entries then held the cap (a lower bound), as
    // /proc/pagetypeinfo prints ">100000"; the views still show such a recording that way.
    bool free_blocks_exact = true;
    long pcp_pages = 0; // pages on all CPUs' lists of this zone
    lock_snapshot lock;
};

// Deferred struct-page init of one node: progress while booting, the result afterwards.
//
// The node's init runs on the virtual time axis from boot.deferred_init_start_ns to done_at_ns (its modelled
// time, cost model: frames x max(t1 / threads, floor)). While the boot is played (`paced`), `done` is what
// that timeline has done at the snapshot's sim_time_ns, never more than the real init threads have done
// (`host_done`; they count their frames in atomics), and `modelled_elapsed_ms` the node's position on its
// timeline. Unpaced (the engine thread runs as fast as it can) the shown time follows the threads: `done` is
// their count. A workload that starts during deferred init (`boot`, engine::deferred_init_pending) runs it
// in virtual time: `paced`, `done` the modelled timeline at the snapshot's time; the threads run
// (host_done) when every CPU has reached boot.init_end_ns.
struct deferred_progress {
    int node = 0;
    int threads = 0;
    unsigned long done = 0; // frames initialised so far (see above)
    unsigned long total = 0; // frames the node's init threads have to initialise
    bool finished = false;
    double modelled_ms = 0; // the engine's modelled deferred-init time of the node (known from boot start)
    double host_ms = 0; // after boot: wall time on this host
    bool paced = false; // done follows the modelled timeline (see above)
    unsigned long host_done = 0; // frames the real init threads have initialised
    double modelled_elapsed_ms = 0; // paced: position on the modelled timeline, at most modelled_ms
    vtime_ns done_at_ns = 0; // virtual time (power-on axis) the node's init is modelled to end; 0 = unknown
};

// How the engine is being driven (filled by the engine thread; a replay fills what it recorded).
struct run_info {
    // What the engine was configured with, for the views: the cost model it charges (engine_config::costs or the
    // preset's) and engine_config::hold_threshold_ns. One model shared by all the snapshots of an engine (they are
    // published at up to 60 Hz), null where no engine was built; a replay takes both from the run's header.
    std::shared_ptr<const cost_model> costs;
    vtime_ns hold_threshold_ns = 0;
    double speed = 0; // virtual ns per wall second; 0 = as fast as possible
    vtime_ns quantum_ns = 0; // commands take effect on multiples of this virtual time
    double events_per_s = 0; // engine actions per wall second over the last publish interval
    double vns_per_s = 0; // virtual ns per wall second achieved over the last publish interval
    bool behind = false; // paced, but the host cannot keep up with the requested speed
    std::uint64_t generation = 0; // counts reboots
    std::uint64_t commands_done_through = 0; // every command with an id <= this has been handled
    // Booting, paced: modelled deferred-init ns shown per wall second (the speed, bounded so that the boot
    // stays visible: loop_options::boot_min_wall / boot_max_wall). 0 otherwise.
    double boot_speed = 0;
};

struct snapshot {
    std::uint64_t seq = 0; // increases by one per published snapshot of this source
    int side = 0; // 0, or 1 for the B engine of an A/B pair
    run_state state = run_state::booting;
    std::string error; // state == failed: why

    // Time: virtual ns since power-on (boot_timeline.hpp). Every CPU clock is >= boundary_ns; sim_time_ns is
    // the engine's now() (the slowest CPU's clock), or while the boot is played the instant shown.
    vtime_ns sim_time_ns = 0;
    vtime_ns boundary_ns = 0; // the last quantum boundary the engine was run to
    // The boot's instants: deferred init starts, ends (zone_pcp_update, watermarks), the workload starts.
    // Known from the first snapshot after the plan (all 0 before, and in recordings made before pcplab
    // put the boot on the time axis: there t = 0 was the workload's start).
    boot_times boot;
    std::uint64_t events_processed = 0;
    run_info run;

    // What runs: preset, era, the live switch settings, workload.
    std::string preset;
    mm::kernel_version era;
    mm::patch_set patches;
    std::string workload;
    double intensity = 1.0;
    std::uint64_t seed = 0;

    // Topology.
    int nr_cpus = 0;
    std::vector<int> cpu_node;

    // Memory state: populated zones, node-major; pcp holds zones.size() x nr_cpus samples, zone-major.
    std::vector<zone_snapshot> zones;
    std::vector<pcp_sample> pcp;

    // Metrics.
    std::vector<cpu_metrics> cpus;
    global_metrics totals; // pcp_resident_pages is recounted from the pagesets at this snapshot
    workload_score score;

    // What happened since the previous snapshot of this source. A reader that skips snapshots misses these;
    // a consumer that needs every one (the recorder) subscribes to publication instead of polling.
    std::vector<sim_event> events;
    std::uint64_t events_dropped = 0; // beyond snapshot_options::max_events
    bool holds_kept = false; // the engine keeps lock_hold_records (engine_config::keep_holds)
    std::vector<lock_hold_record> holds;
    std::uint64_t holds_dropped = 0;
    std::vector<command_result> commands;

    std::vector<deferred_progress> deferred_init; // per node; filled while booting and after

    std::optional<std::uint64_t> state_digest; // mm::state_digest when snapshot_options::state_digest

    // The simulated machine's /proc/zoneinfo and /proc/buddyinfo, captured at most every
    // snapshot_options::procfs_every_ns and printed by their first reader (procfs::procfs_texts); between two
    // captures consecutive snapshots share the same object. Null when the option is off or while booting.
    std::shared_ptr<const procfs::procfs_texts> procfs;
    vtime_ns procfs_time_ns = 0; // the virtual time the texts were captured at

    // The pageset of `cpu` in zones[zone_index].
    const pcp_sample& pageset(int zone_index, int cpu) const
    {
        return pcp[static_cast<std::size_t>(zone_index * nr_cpus + cpu)];
    }
    // Whether pcp holds the pagesets of zones[zone_index] (a boot or config snapshot may have none).
    bool has_pagesets(int zone_index) const
    {
        return zone_index >= 0 && nr_cpus > 0
            && pcp.size() >= static_cast<std::size_t>(zone_index + 1) * static_cast<std::size_t>(nr_cpus);
    }
    // zones[zone_index]: the views keep zone indices as ints (zone_index(), combo box rows).
    const zone_snapshot& zone_at(int zone_index) const { return zones[static_cast<std::size_t>(zone_index)]; }
    // The node of `cpu`; 0 for a CPU the snapshot does not list (a snapshot taken before the machine's CPUs are).
    int node_of_cpu(int cpu) const
    {
        return cpu >= 0 && cpu < static_cast<int>(cpu_node.size()) ? cpu_node[static_cast<std::size_t>(cpu)] : 0;
    }
    // Index into zones of (node, zone), or -1 when that zone is not populated.
    int zone_index(int node, int zone) const;
    std::uint64_t sys_ns_total() const;
    std::uint64_t user_ns_total() const;
};

// What to copy into each snapshot (the costly parts are optional or capped).
struct snapshot_options {
    std::size_t max_events = 10'000; // per snapshot; the rest is counted in events_dropped
    std::size_t max_holds = 65'536;
    bool state_digest = false; // walks every list: for tests and recorders that check determinism
    // The /proc texts: rendered again once this much time has passed since the last rendering (wall time,
    // or virtual time with procfs_virtual_time) and the machine may have changed; 0 = never rendered.
    std::int64_t procfs_every_ns = 500'000'000;
    bool procfs_virtual_time = false; // deterministic schedule (recorders, tests), not the wall clock
    // After copying the events and hold records that are new since the previous snapshot, let the engine
    // free them (engine::release_events / release_holds), so a long live run keeps flat memory. Turn off
    // when something else reads engine::events() or holds() of the same engine.
    bool release_published = true;
};

} // namespace pcplab::sim
