#include "sim/snapshot_builder.hpp"

#include "sim/engine.hpp"

#include "mm/boot.hpp"
#include "mm/machine.hpp"
#include "mm/state_digest.hpp"
#include "procfs/procfs_texts.hpp"

#include <algorithm>

namespace pcplab::sim
{

namespace
{

void fill_identity(snapshot& s, const engine_config& cfg)
{
    s.preset = cfg.spec.name;
    s.era = cfg.era;
    s.patches = cfg.patches;
    s.workload = cfg.workload;
    s.intensity = cfg.intensity;
    s.seed = cfg.seed;
    s.holds_kept = cfg.keep_holds; // a boot's snapshots too: the lanes view must not say holds are not kept
    s.run.hold_threshold_ns = cfg.hold_threshold_ns;
}

// The entries numbered from the cursor on of an engine's log that holds those from `base` on: copied into
// `out` (the newest `cap`), the cursor moved past them. Entries released before the cursor reached them
// count as dropped; a cursor past the end (the engine was replaced) starts again at `base`.
template <typename T>
void copy_numbered(const std::vector<T>& kept, std::uint64_t base, std::size_t& cursor, std::size_t cap,
    std::vector<T>& out, std::uint64_t& dropped)
{
    const std::uint64_t end = base + kept.size();
    if (cursor > end) cursor = static_cast<std::size_t>(base);
    if (cursor < base) {
        dropped += base - cursor;
        cursor = static_cast<std::size_t>(base);
    }
    std::size_t rel = static_cast<std::size_t>(cursor - base);
    copy_window(kept, rel, cap, out, dropped);
    cursor = static_cast<std::size_t>(base + rel);
}

std::shared_ptr<snapshot> start(snapshot_cursor& cur, snapshot_context& ctx)
{
    auto s = cur.pool.take();
    s->seq = ++cur.seq;
    s->side = ctx.side;
    s->state = ctx.state;
    s->error = std::move(ctx.error);
    s->boundary_ns = ctx.boundary_ns;
    s->run = ctx.run;
    s->commands = std::move(ctx.commands);
    return s;
}

// A zone-lock record whose wait, the interval [start - wait_ns, start), covers `t`.
bool waits_at(const lock_hold_record& h, vtime_ns t)
{
    if (h.kind != mm::lock_kind::zone_lock || h.wait_ns == 0) return false;
    const vtime_ns from = h.start >= h.wait_ns ? h.start - h.wait_ns : 0;
    return from <= t && t < h.start;
}

} // namespace

void count_free_blocks(zone_snapshot& zs, const mm::zone& z)
{
    zs.free_blocks_exact = true;
    for (unsigned o = 0; o < mm::NR_PAGE_ORDERS; ++o) {
        const auto& area = z.free_area_[o];
        zs.nr_free[o] = area.nr_free;
        for (unsigned mt = 0; mt < mm::MIGRATE_TYPES; ++mt) zs.free_blocks[o][mt] = area.nr_free_mt[mt];
    }
}

void copy_memory_state(snapshot& s, const mm::machine& m)
{
    s.nr_cpus = m.nr_cpu_ids();
    s.cpu_node = m.cpu_to_node;
    s.zones.clear();
    s.pcp.clear();
    // Sized up front, and each zone filled in place: growing the vectors zone by zone was a third of a small
    // machine's snapshot.
    std::size_t nr_zones = 0;
    m.for_each_populated_zone([&](const mm::zone&) { ++nr_zones; });
    s.zones.reserve(nr_zones);
    s.pcp.reserve(nr_zones * static_cast<std::size_t>(s.nr_cpus));
    long resident = 0;
    m.for_each_populated_zone([&](const mm::zone& z) {
        zone_snapshot& zs = s.zones.emplace_back();
        zs.node = z.node;
        zs.zone = z.idx;
        zs.spanned = z.spanned_pages;
        zs.present = z.present_pages;
        zs.managed = z.managed();
        zs.free_pages = z.nr_free_pages;
        for (unsigned w = 0; w < mm::NR_WMARK; ++w)
            zs.watermark[w] = z.wmark_pages(static_cast<mm::zone_watermarks>(w));
        zs.watermark_boost = z.watermark_boost;
        zs.flags = z.flags;
        zs.batch = z.pageset_batch;
        zs.high = z.pageset_high;
        zs.high_min = z.pageset_high_min;
        zs.high_max = z.pageset_high_max;
        count_free_blocks(zs, z);
        for (int cpu = 0; cpu < s.nr_cpus; ++cpu) {
            pcp_sample ps;
            if (cpu < z.per_cpu_pageset.nr_cpus()) {
                const auto& pcp = z.per_cpu_pageset[cpu];
                ps = {pcp.count, pcp.high, pcp.batch};
            }
            zs.pcp_pages += ps.count;
            s.pcp.push_back(ps);
        }
        resident += zs.pcp_pages;
    });
    s.totals.pcp_resident_pages = static_cast<std::uint64_t>(resident);
}

int waiting_cpus_at(const std::vector<lock_hold_record>& holds, int node, int zone, vtime_ns t)
{
    std::vector<int> seen;
    for (const auto& h : holds) {
        if (h.node != node || h.zone != zone || !waits_at(h, t)) continue;
        if (std::find(seen.begin(), seen.end(), h.cpu) == seen.end()) seen.push_back(h.cpu);
    }
    return static_cast<int>(seen.size());
}

void copy_lock_state(snapshot& s, const std::vector<lock_metrics>& locks, const std::vector<lock_hold_record>& holds,
    bool holds_kept, snapshot_cursor& cur)
{
    // Shares of the workload's time: the boot before it has no lock activity to count.
    const vtime_ns now = s.sim_time_ns;
    const vtime_ns from = std::max(cur.prev_time, s.boot.workload_start_ns);
    const vtime_ns interval = now > from ? now - from : 0;
    if (cur.prev_waiting_ns.size() != locks.size()) cur.prev_waiting_ns.assign(locks.size(), 0);
    // The few records still waiting now, found in one pass for all the locks (the interval's records are
    // thousands per lock on a large machine, and a snapshot is taken hundreds of times a virtual second).
    std::vector<lock_hold_record> waiting;
    if (holds_kept)
        for (const auto& h : holds)
            if (h.kind == mm::lock_kind::zone_lock && waits_at(h, now))
                waiting.push_back(h); // a pcp->lock wait is not one for zone->lock
    for (std::size_t i = 0; i < locks.size(); ++i) {
        const lock_metrics& lm = locks[i];
        int zi = s.zone_index(lm.node, lm.zone);
        // Waiting up to now only (as contention_pct counts it); a wait credited late can still land in a later
        // interval than its own, so the share of the interval is capped at all of it.
        const std::uint64_t waited = waiting_ns_before(lm, now);
        const std::uint64_t recent
            = std::min<std::uint64_t>(waited >= cur.prev_waiting_ns[i] ? waited - cur.prev_waiting_ns[i] : 0, interval);
        cur.prev_waiting_ns[i] = waited;
        if (zi < 0) continue;
        lock_snapshot& ls = s.zones[static_cast<std::size_t>(zi)].lock;
        ls.present = true;
        ls.m = lm;
        ls.contention_pct = contention_pct(lm, s.boot.workload_start_ns, now);
        ls.contention_pct_recent = interval ? 100.0 * static_cast<double>(recent) / static_cast<double>(interval) : 0;
        ls.someone_waiting = lm.waiting_until > now;
        ls.waiting_cpus_now = holds_kept ? waiting_cpus_at(waiting, lm.node, lm.zone, now) : -1;
    }
    cur.prev_time = now;
}

std::shared_ptr<snapshot> build_snapshot(
    engine& e, snapshot_cursor& cur, snapshot_context ctx, const snapshot_options& opt)
{
    auto s = start(cur, ctx);
    const engine_config& cfg = e.config();
    fill_identity(*s, cfg);
    s->run.costs = e.shared_costs();
    mm::machine& m = e.machine();
    s->era = m.era.version;
    s->patches = m.patches; // the live settings, flips included
    s->sim_time_ns = e.now();
    s->boot = e.timeline();
    s->events_processed = e.events_processed();

    copy_memory_state(*s, m);
    s->cpus = e.cpus();
    const std::uint64_t resident = s->totals.pcp_resident_pages;
    s->totals = e.totals();
    s->totals.pcp_resident_pages = resident;
    s->score = e.score();

    copy_numbered(e.events(), e.events_released(), cur.events, opt.max_events, s->events, s->events_dropped);
    s->holds_kept = cfg.keep_holds;
    if (cfg.keep_holds) {
        // A snapshot that takes every record the engine kept, which the engine then frees, takes the log itself
        // and leaves its own (empty) vector to the engine: on a contended machine a recording's snapshot carries
        // tens of thousands, and copying them was most of its sampling time.
        if (opt.release_published && cur.holds == e.holds_released() && e.holds().size() <= opt.max_holds) {
            e.take_holds(s->holds);
            cur.holds = static_cast<std::size_t>(e.holds_released());
        } else
            copy_numbered(e.holds(), e.holds_released(), cur.holds, opt.max_holds, s->holds, s->holds_dropped);
    }
    if (opt.release_published) {
        e.release_events(cur.events);
        e.release_holds(cur.holds);
    }
    copy_lock_state(*s, e.zone_locks(), s->holds, s->holds_kept, cur);
    copy_procfs_texts(*s, m, s->events_processed, !s->commands.empty(), cur, opt);

    const bool init_pending = e.deferred_init_pending();
    for (const auto& r : e.boot_report()) {
        deferred_progress d;
        d.node = r.node;
        d.threads = r.threads;
        d.done = d.total = d.host_done = r.pages;
        d.finished = !init_pending;
        d.modelled_ms = r.modelled_ms;
        d.host_ms = r.host_ms;
        d.done_at_ns = r.done_at;
        if (init_pending) {
            // Deferred init in virtual time (a workload that starts during it): the modelled timeline.
            const vtime_ns start = s->boot.deferred_init_start_ns;
            const vtime_ns at = std::clamp(s->sim_time_ns, start, std::max(start, r.done_at));
            d.paced = true;
            d.host_done = 0;
            d.modelled_elapsed_ms = static_cast<double>(at - start) / 1e6;
            d.done = modelled_pages_done(r.pages, start, r.done_at, s->sim_time_ns);
        }
        s->deferred_init.push_back(d);
    }
    if (opt.state_digest) s->state_digest = mm::state_digest(m);
    return s;
}

void copy_procfs_texts(snapshot& s, const mm::machine& m, std::uint64_t events_processed, bool changed,
    snapshot_cursor& cur, const snapshot_options& opt)
{
    if (opt.procfs_every_ns <= 0) return;
    const auto period = static_cast<std::uint64_t>(opt.procfs_every_ns);
    // The clock only for a wall-clock schedule: reading it was a sixteenth of a recording's sampling time.
    const auto wall = opt.procfs_virtual_time ? cur.procfs_wall : std::chrono::steady_clock::now();
    const bool first = !cur.procfs;
    const bool moved = events_processed != cur.procfs_events;
    const bool due = opt.procfs_virtual_time ? s.sim_time_ns >= cur.procfs_vt + period
                                             : wall - cur.procfs_wall >= std::chrono::nanoseconds(period);
    // A command (a sysctl, a switch) may change the texts without a step: shown at once, commands are rare.
    if (first || changed || (moved && due)) {
        cur.procfs = procfs::procfs_texts::capture(m);
        cur.procfs_wall = wall;
        cur.procfs_vt = s.sim_time_ns;
        cur.procfs_events = events_processed;
    }
    s.procfs = cur.procfs;
    s.procfs_time_ns = cur.procfs_vt;
}

std::shared_ptr<snapshot> build_boot_snapshot(
    engine& e, const boot_frame& f, snapshot_cursor& cur, snapshot_context ctx)
{
    auto s = start(cur, ctx);
    fill_identity(*s, e.config());
    s->run.costs = e.shared_costs();
    const mm::machine& m = e.machine();
    s->nr_cpus = m.nr_cpu_ids();
    s->cpu_node = m.cpu_to_node;
    s->sim_time_ns = f.t;
    s->boot = e.timeline();
    s->deferred_init = f.nodes;
    if (f.at_setup) {
        s->zones = f.at_setup->zones;
        s->pcp = f.at_setup->pcp;
        s->totals.pcp_resident_pages = f.at_setup->totals.pcp_resident_pages;
        for (const auto& d : f.nodes) {
            // Zones are node-major in ascending zone order: a node's last one is its highest, the deferred one.
            auto z
                = std::find_if(s->zones.rbegin(), s->zones.rend(), [&](const auto& zs) { return zs.node == d.node; });
            if (z == s->zones.rend()) continue;
            z->managed += d.done;
            z->free_pages += static_cast<long>(d.done);
        }
    }
    // The engine's boot events up to f.t (in time order, numbered from events_released()).
    const auto& kept = e.events();
    const std::uint64_t base = e.events_released();
    if (cur.events < base) cur.events = static_cast<std::size_t>(base);
    const auto from = static_cast<std::size_t>(cur.events - base);
    std::size_t to = std::min(from, kept.size());
    while (to < kept.size() && kept[to].t <= f.t) ++to;
    if (from < to)
        s->events.assign(
            kept.begin() + static_cast<std::ptrdiff_t>(from), kept.begin() + static_cast<std::ptrdiff_t>(to));
    cur.events = static_cast<std::size_t>(base + std::max(from, to));
    cur.prev_time = f.t;
    return s;
}

std::shared_ptr<snapshot> build_config_snapshot(const engine_config& cfg, snapshot_cursor& cur, snapshot_context ctx)
{
    auto s = start(cur, ctx);
    fill_identity(*s, cfg);
    s->nr_cpus = cfg.spec.nr_cpus();
    return s;
}

} // namespace pcplab::sim
