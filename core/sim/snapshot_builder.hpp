// Building snapshots on the engine's thread: a full one between quanta, a light one while booting (the
// init threads are still writing the free lists), a bare one when there is no engine to read.
#pragma once

#include "sim/snapshot.hpp"
#include "sim/snapshot_pool.hpp"

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace pcplab::mm
{
class machine;
class deferred_init;
struct zone;
} // namespace pcplab::mm

namespace pcplab::sim
{

class engine;
struct engine_config;

// What one source remembers between its snapshots ("since the previous snapshot" windows). Reset it when
// the engine is replaced.
struct snapshot_cursor {
    std::uint64_t seq = 0;
    std::size_t events = 0; // engine events already published (their number: see engine::events())
    std::size_t holds = 0; // hold records already published (likewise)
    vtime_ns prev_time = 0;
    std::vector<std::uint64_t> prev_waiting_ns; // per zone lock, for contention_pct_recent
    // The /proc texts of the last capture, shared by the snapshots until the next one.
    std::shared_ptr<const procfs::procfs_texts> procfs;
    std::chrono::steady_clock::time_point procfs_wall{};
    vtime_ns procfs_vt = 0;
    std::uint64_t procfs_events = 0; // engine::events_processed() at the rendering
    snapshot_pool pool; // the snapshots this source published, filled again once their readers let go
};

// What the driver of an engine knows that the engine does not.
struct snapshot_context {
    int side = 0;
    run_state state = run_state::running;
    std::string error;
    vtime_ns boundary_ns = 0;
    run_info run;
    std::vector<command_result> commands;
};

std::shared_ptr<snapshot> build_snapshot(
    engine& e, snapshot_cursor& cur, snapshot_context ctx, const snapshot_options& opt);
// What a boot snapshot shows, worked out by the engine's driver (boot_presenter.hpp).
struct boot_frame {
    vtime_ns t = 0; // the instant shown (virtual time since power-on)
    std::vector<deferred_progress> nodes; // per node
    // The memory state setup_per_cpu_pageset left (copy_memory_state), null before it ran: the zones and
    // pagesets shown, each node's deferred zone (its highest populated one) with the managed and free pages
    // its init has added by `t` (the per-order free block counts stay those of that moment).
    const snapshot* at_setup = nullptr;
};
// While the engine boots or its boot is played (before its workload starts): identity, topology, the boot's
// instants, per-node progress, the memory state of f.at_setup as grown by then, and the engine's events up to
// f.t that are not published yet (the boot's own: the limits at setup, each node's end, the recomputed
// limits; the engine keeps them in time order). Releases nothing.
std::shared_ptr<snapshot> build_boot_snapshot(
    engine& e, const boot_frame& f, snapshot_cursor& cur, snapshot_context ctx);
// Without a usable engine (not built yet, or it failed): identity from the configuration (no cost model: the
// engine builds it).
std::shared_ptr<snapshot> build_config_snapshot(const engine_config& cfg, snapshot_cursor& cur, snapshot_context ctx);

// The parts, usable on a machine without an engine (tests, tools).
// Zones, pagesets, topology and the recount of PCP-resident pages.
void copy_memory_state(snapshot& s, const mm::machine& m);
// Free blocks of one zone per order and migratetype, from the counts the free areas keep (no list walk: a
// snapshot of a large machine would otherwise chase thousands of memmap links).
void count_free_blocks(zone_snapshot& zs, const mm::zone& z);
// Attach the engine's zone-lock metrics to the zones and derive contention % and the waiting CPUs.
// `holds` are the records since the previous snapshot (empty when the engine keeps none).
void copy_lock_state(snapshot& s, const std::vector<lock_metrics>& locks, const std::vector<lock_hold_record>& holds,
    bool holds_kept, snapshot_cursor& cur);
// CPUs spinning on zone->lock of (node, zone) at `t`, from hold records: a record's wait is taken to be
// the interval [start - wait_ns, start) (start = when the hold began).
int waiting_cpus_at(const std::vector<lock_hold_record>& holds, int node, int zone, vtime_ns t);

// Sets s.procfs: captured again when the option's period has passed since the last capture and the engine
// has run since, or at once when `changed` (a command was applied); otherwise the cursor's previous one.
void copy_procfs_texts(snapshot& s, const mm::machine& m, std::uint64_t events_processed, bool changed,
    snapshot_cursor& cur, const snapshot_options& opt);

// Copies the entries of `all` after `cursor` into `out` (the newest `cap` of them; the rest counted in
// `dropped`) and moves the cursor to the end. A vector that shrank (the engine trimmed it) restarts at 0.
template <typename T>
void copy_window(
    const std::vector<T>& all, std::size_t& cursor, std::size_t cap, std::vector<T>& out, std::uint64_t& dropped)
{
    if (cursor > all.size()) cursor = 0;
    std::size_t n = all.size() - cursor;
    std::size_t from = cursor;
    if (n > cap) {
        dropped += n - cap;
        from = all.size() - cap;
    }
    out.assign(all.begin() + static_cast<std::ptrdiff_t>(from), all.end());
    cursor = all.size();
}

} // namespace pcplab::sim
