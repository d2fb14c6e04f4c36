// Field-by-field comparison of two snapshots for the recording tests: the path of the first field that
// differs ("zones[2].lock.m.hold_hist[5]: 3 != 4"), or "" when every field is equal. Every field of
// sim::snapshot is listed; the size check in snapshot_codec_test.cpp fails when a field is added to the
// struct without being added here and to the codec.
#pragma once

#include "sim/cost_model.hpp"
#include "sim/snapshot.hpp"

#include "procfs/procfs_texts.hpp"

#include <map>
#include <sstream>
#include <string>

namespace pcplab::test
{

class snapshot_diff
{
public:
    template <typename T> void eq(const std::string& path, const T& a, const T& b)
    {
        if (!m_first.empty() || a == b) return;
        std::ostringstream o;
        o << path << ": ";
        if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, std::string>)
            o << a << " != " << b;
        else
            o << "differs";
        m_first = o.str();
    }
    template <typename A> void arr(const std::string& path, const A& a, const A& b)
    {
        eq(path + ".size", a.size(), b.size());
        for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) eq(path + "[" + std::to_string(i) + "]", a[i], b[i]);
    }
    std::string result() const { return m_first; }

    void lock(const std::string& p, const sim::lock_metrics& a, const sim::lock_metrics& b)
    {
        eq(p + ".node", a.node, b.node);
        eq(p + ".zone", a.zone, b.zone);
        eq(p + ".acquisitions", a.acquisitions, b.acquisitions);
        eq(p + ".contended", a.contended, b.contended);
        eq(p + ".wait_ns_total", a.wait_ns_total, b.wait_ns_total);
        eq(p + ".wait_ns_max", a.wait_ns_max, b.wait_ns_max);
        eq(p + ".hold_ns_total", a.hold_ns_total, b.hold_ns_total);
        eq(p + ".hold_ns_max", a.hold_ns_max, b.hold_ns_max);
        eq(p + ".max_pages_per_hold", a.max_pages_per_hold, b.max_pages_per_hold);
        eq(p + ".holds_over_threshold", a.holds_over_threshold, b.holds_over_threshold);
        eq(p + ".waits_over_threshold", a.waits_over_threshold, b.waits_over_threshold);
        arr(p + ".hold_hist", a.hold_hist.buckets, b.hold_hist.buckets);
        arr(p + ".wait_hist", a.wait_hist.buckets, b.wait_hist.buckets);
        arr(p + ".holds_by_caller", a.holds_by_caller, b.holds_by_caller);
        arr(p + ".hold_ns_by_caller", a.hold_ns_by_caller, b.hold_ns_by_caller);
        arr(p + ".max_pages_by_caller", a.max_pages_by_caller, b.max_pages_by_caller);
        eq(p + ".waiting_ns", a.waiting_ns, b.waiting_ns);
        eq(p + ".waiting_until", a.waiting_until, b.waiting_until);
        eq(p + ".waiting_from", a.waiting_from, b.waiting_from);
        eq(p + ".trylock_failures", a.trylock_failures, b.trylock_failures);
        eq(p + ".order_inversions", a.order_inversions, b.order_inversions);
    }

    void zone(const std::string& p, const sim::zone_snapshot& a, const sim::zone_snapshot& b)
    {
        eq(p + ".node", a.node, b.node);
        eq(p + ".zone", a.zone, b.zone);
        eq(p + ".spanned", a.spanned, b.spanned);
        eq(p + ".present", a.present, b.present);
        eq(p + ".managed", a.managed, b.managed);
        eq(p + ".free_pages", a.free_pages, b.free_pages);
        arr(p + ".watermark", a.watermark, b.watermark);
        eq(p + ".watermark_boost", a.watermark_boost, b.watermark_boost);
        eq(p + ".flags", a.flags, b.flags);
        eq(p + ".batch", a.batch, b.batch);
        eq(p + ".high", a.high, b.high);
        eq(p + ".high_min", a.high_min, b.high_min);
        eq(p + ".high_max", a.high_max, b.high_max);
        arr(p + ".nr_free", a.nr_free, b.nr_free);
        for (std::size_t o = 0; o < a.free_blocks.size(); ++o)
            arr(p + ".free_blocks[" + std::to_string(o) + "]", a.free_blocks[o], b.free_blocks[o]);
        eq(p + ".free_blocks_exact", a.free_blocks_exact, b.free_blocks_exact);
        eq(p + ".pcp_pages", a.pcp_pages, b.pcp_pages);
        eq(p + ".lock.present", a.lock.present, b.lock.present);
        lock(p + ".lock.m", a.lock.m, b.lock.m);
        eq(p + ".lock.contention_pct", a.lock.contention_pct, b.lock.contention_pct);
        eq(p + ".lock.contention_pct_recent", a.lock.contention_pct_recent, b.lock.contention_pct_recent);
        eq(p + ".lock.waiting_cpus_now", a.lock.waiting_cpus_now, b.lock.waiting_cpus_now);
        eq(p + ".lock.someone_waiting", a.lock.someone_waiting, b.lock.someone_waiting);
    }

    // The values a model charges (its texts, what each parameter prices and its source, may differ in a recording:
    // recorded_cost_model.hpp).
    void costs(const sim::cost_model* a, const sim::cost_model* b)
    {
        eq("run.costs.has_value", a != nullptr, b != nullptr);
        if (!a || !b) return;
        eq("run.costs.machine_class", a->machine_class, b->machine_class);
        std::map<std::string, double> va, vb;
        for (const auto& p : a->params) va[p.key] = p.value;
        for (const auto& p : b->params) vb[p.key] = p.value;
        eq("run.costs.params", va, vb);
    }

    // `logs`: also compare events, holds, commands, the /proc texts and the run header's cost model and hold
    // threshold (the blob alone does not carry them).
    void snapshot(const sim::snapshot& a, const sim::snapshot& b, bool logs = true)
    {
        eq("seq", a.seq, b.seq);
        eq("side", a.side, b.side);
        eq("state", static_cast<int>(a.state), static_cast<int>(b.state));
        eq("error", a.error, b.error);
        eq("sim_time_ns", a.sim_time_ns, b.sim_time_ns);
        eq("boundary_ns", a.boundary_ns, b.boundary_ns);
        eq("boot.deferred_init_start_ns", a.boot.deferred_init_start_ns, b.boot.deferred_init_start_ns);
        eq("boot.init_end_ns", a.boot.init_end_ns, b.boot.init_end_ns);
        eq("boot.workload_start_ns", a.boot.workload_start_ns, b.boot.workload_start_ns);
        eq("events_processed", a.events_processed, b.events_processed);
        eq("run.speed", a.run.speed, b.run.speed);
        eq("run.quantum_ns", a.run.quantum_ns, b.run.quantum_ns);
        eq("run.events_per_s", a.run.events_per_s, b.run.events_per_s);
        eq("run.vns_per_s", a.run.vns_per_s, b.run.vns_per_s);
        eq("run.behind", a.run.behind, b.run.behind);
        eq("run.generation", a.run.generation, b.run.generation);
        eq("run.commands_done_through", a.run.commands_done_through, b.run.commands_done_through);
        eq("run.boot_speed", a.run.boot_speed, b.run.boot_speed);
        eq("preset", a.preset, b.preset);
        eq("era", a.era.str(), b.era.str());
        eq("era.rc", a.era.rc, b.era.rc);
        arr("patches.on", a.patches.on, b.patches.on);
        eq("patches.init_threads", a.patches.init_threads, b.patches.init_threads);
        eq("workload", a.workload, b.workload);
        eq("intensity", a.intensity, b.intensity);
        eq("seed", a.seed, b.seed);
        eq("nr_cpus", a.nr_cpus, b.nr_cpus);
        arr("cpu_node", a.cpu_node, b.cpu_node);
        eq("zones.size", a.zones.size(), b.zones.size());
        for (std::size_t i = 0; i < a.zones.size() && i < b.zones.size(); ++i)
            zone("zones[" + std::to_string(i) + "]", a.zones[i], b.zones[i]);
        eq("pcp.size", a.pcp.size(), b.pcp.size());
        for (std::size_t i = 0; i < a.pcp.size() && i < b.pcp.size(); ++i) {
            const std::string p = "pcp[" + std::to_string(i) + "]";
            eq(p + ".count", a.pcp[i].count, b.pcp[i].count);
            eq(p + ".high", a.pcp[i].high, b.pcp[i].high);
            eq(p + ".batch", a.pcp[i].batch, b.pcp[i].batch);
        }
        eq("cpus.size", a.cpus.size(), b.cpus.size());
        for (std::size_t i = 0; i < a.cpus.size() && i < b.cpus.size(); ++i) {
            const std::string p = "cpus[" + std::to_string(i) + "]";
            const auto &x = a.cpus[i], &y = b.cpus[i];
            eq(p + ".sys_ns", x.sys_ns, y.sys_ns);
            eq(p + ".user_ns", x.user_ns, y.user_ns);
            eq(p + ".idle_ns", x.idle_ns, y.idle_ns);
            eq(p + ".spin_ns", x.spin_ns, y.spin_ns);
            eq(p + ".allocs", x.allocs, y.allocs);
            eq(p + ".frees", x.frees, y.frees);
            eq(p + ".alloc_failures", x.alloc_failures, y.alloc_failures);
            eq(p + ".pcp_hits", x.pcp_hits, y.pcp_hits);
            eq(p + ".refills", x.refills, y.refills);
            eq(p + ".drains", x.drains, y.drains);
        }
        const auto &t = a.totals, &u = b.totals;
        eq("totals.allocs", t.allocs, u.allocs);
        eq("totals.frees", t.frees, u.frees);
        eq("totals.pcp_hits", t.pcp_hits, u.pcp_hits);
        eq("totals.zone_allocs", t.zone_allocs, u.zone_allocs);
        eq("totals.free_high_drains", t.free_high_drains, u.free_high_drains);
        eq("totals.pcp_resident_pages", t.pcp_resident_pages, u.pcp_resident_pages);
        eq("totals.reclaimed_pages", t.reclaimed_pages, u.reclaimed_pages);
        eq("totals.drain_all_calls", t.drain_all_calls, u.drain_all_calls);
        eq("totals.alloc_failures", t.alloc_failures, u.alloc_failures);
        eq("totals.events_dropped", t.events_dropped, u.events_dropped);
        eq("totals.pcp_trylock_failures", t.pcp_trylock_failures, u.pcp_trylock_failures);
        eq("totals.remote_work_items", t.remote_work_items, u.remote_work_items);
        eq("totals.any_context", t.any_context == u.any_context, true);
        eq("totals.irq", t.irq == u.irq, true);
        eq("score.work_units", a.score.work_units, b.score.work_units);
        eq("score.unit", a.score.unit, b.score.unit);
        eq("score.seed_measure", a.score.seed_measure, b.score.seed_measure);
        eq("score.seed_measure_value", a.score.seed_measure_value, b.score.seed_measure_value);
        eq("events_dropped", a.events_dropped, b.events_dropped);
        eq("holds_kept", a.holds_kept, b.holds_kept);
        eq("holds_dropped", a.holds_dropped, b.holds_dropped);
        eq("deferred_init.size", a.deferred_init.size(), b.deferred_init.size());
        for (std::size_t i = 0; i < a.deferred_init.size() && i < b.deferred_init.size(); ++i) {
            const std::string p = "deferred_init[" + std::to_string(i) + "]";
            const auto &x = a.deferred_init[i], &y = b.deferred_init[i];
            eq(p + ".node", x.node, y.node);
            eq(p + ".threads", x.threads, y.threads);
            eq(p + ".done", x.done, y.done);
            eq(p + ".total", x.total, y.total);
            eq(p + ".finished", x.finished, y.finished);
            eq(p + ".modelled_ms", x.modelled_ms, y.modelled_ms);
            eq(p + ".host_ms", x.host_ms, y.host_ms);
            eq(p + ".paced", x.paced, y.paced);
            eq(p + ".host_done", x.host_done, y.host_done);
            eq(p + ".modelled_elapsed_ms", x.modelled_elapsed_ms, y.modelled_elapsed_ms);
            eq(p + ".done_at_ns", x.done_at_ns, y.done_at_ns);
        }
        eq("state_digest.has_value", a.state_digest.has_value(), b.state_digest.has_value());
        if (a.state_digest && b.state_digest) eq("state_digest", *a.state_digest, *b.state_digest);
        eq("procfs.has_value", a.procfs != nullptr, b.procfs != nullptr);
        eq("procfs_time_ns", a.procfs_time_ns, b.procfs_time_ns);
        if (!logs) return;
        eq("run.hold_threshold_ns", a.run.hold_threshold_ns, b.run.hold_threshold_ns);
        costs(a.run.costs.get(), b.run.costs.get());
        if (a.procfs && b.procfs) {
            eq("procfs.zoneinfo", a.procfs->zoneinfo(), b.procfs->zoneinfo());
            eq("procfs.buddyinfo", a.procfs->buddyinfo(), b.procfs->buddyinfo());
        }
        eq("events.size", a.events.size(), b.events.size());
        for (std::size_t i = 0; i < a.events.size() && i < b.events.size(); ++i) {
            const std::string p = "events[" + std::to_string(i) + "]";
            const auto &x = a.events[i], &y = b.events[i];
            eq(p + ".t", x.t, y.t);
            eq(p + ".kind", static_cast<int>(x.kind), static_cast<int>(y.kind));
            eq(p + ".cpu", x.cpu, y.cpu);
            eq(p + ".node", x.node, y.node);
            eq(p + ".zone", x.zone, y.zone);
            eq(p + ".old_value", x.old_value, y.old_value);
            eq(p + ".new_value", x.new_value, y.new_value);
            eq(p + ".text", x.text, y.text);
            eq(p + ".field", static_cast<int>(x.field), static_cast<int>(y.field));
        }
        eq("holds.size", a.holds.size(), b.holds.size());
        for (std::size_t i = 0; i < a.holds.size() && i < b.holds.size(); ++i) {
            const std::string p = "holds[" + std::to_string(i) + "]";
            const auto &x = a.holds[i], &y = b.holds[i];
            eq(p + ".start", x.start, y.start);
            eq(p + ".hold_ns", x.hold_ns, y.hold_ns);
            eq(p + ".wait_ns", x.wait_ns, y.wait_ns);
            eq(p + ".cpu", x.cpu, y.cpu);
            eq(p + ".node", x.node, y.node);
            eq(p + ".zone", x.zone, y.zone);
            eq(p + ".caller", static_cast<int>(x.caller), static_cast<int>(y.caller));
            eq(p + ".kind", static_cast<int>(x.kind), static_cast<int>(y.kind));
            eq(p + ".pages", x.pages, y.pages);
            eq(p + ".owner", x.owner, y.owner);
        }
        eq("commands.size", a.commands.size(), b.commands.size());
        for (std::size_t i = 0; i < a.commands.size() && i < b.commands.size(); ++i) {
            const std::string p = "commands[" + std::to_string(i) + "]";
            const auto &x = a.commands[i], &y = b.commands[i];
            eq(p + ".id", x.id, y.id);
            eq(p + ".kind", static_cast<int>(x.kind), static_cast<int>(y.kind));
            eq(p + ".what", x.what, y.what);
            eq(p + ".ok", x.ok, y.ok);
            eq(p + ".message", x.message, y.message);
            eq(p + ".applied_at_ns", x.applied_at_ns, y.applied_at_ns);
            eq(p + ".applied_at_event", x.applied_at_event, y.applied_at_event);
        }
    }

private:
    std::string m_first;
};

inline std::string first_difference(const sim::snapshot& a, const sim::snapshot& b, bool logs = true)
{
    snapshot_diff d;
    d.snapshot(a, b, logs);
    return d.result();
}

} // namespace pcplab::test
