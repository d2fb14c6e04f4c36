// The field tables of the condition language over sim::snapshot.
#include "lessons/expr_fields.hpp"

#include "session/record_names.hpp"
#include "sim/snapshot.hpp"

#include "mm/lock_ops.hpp"
#include "mm/zone.hpp"

#include <cmath>

namespace pcplab::lessons
{

namespace
{

using sim::snapshot;

const std::vector<sim::sim_event>& step_events(const eval_context& c)
{
    return c.events ? *c.events : c.snap->events;
}

// Table builders: a getter of a double / bool / string from (snapshot, record index).
template <typename F> field_def num(std::string name, std::string what, F f)
{
    return {std::move(name), vtype::number, false, std::move(what),
        [f](const eval_context& c, std::size_t i, long) { return value::of(static_cast<double>(f(c, i))); }};
}
template <typename F> field_def flag(std::string name, std::string what, F f)
{
    return {std::move(name), vtype::boolean, false, std::move(what),
        [f](const eval_context& c, std::size_t i, long) { return value::of_bool(f(c, i)); }};
}
template <typename F> field_def str(std::string name, std::string what, F f)
{
    return {std::move(name), vtype::string, false, std::move(what),
        [f](const eval_context& c, std::size_t i, long) { return value::of_text(f(c, i)); }};
}
// An array field read as name[N], N in [0, size).
template <typename F> field_def indexed(std::string name, std::string what, long size, F f)
{
    return {name, vtype::number, true, std::move(what), [f, size, name](const eval_context& c, std::size_t i, long n) {
                if (n < 0 || n >= size)
                    throw eval_failure{
                        name + "[" + std::to_string(n) + "]: the index must be 0.." + std::to_string(size - 1)};
                return value::of(static_cast<double>(f(c, i, n)));
            }};
}

std::string zone_text(int zone)
{
    return zone >= 0 && zone < mm::MAX_NR_ZONES ? mm::zone_name(static_cast<unsigned>(zone)) : "";
}

const sim::zone_snapshot& zone_at(const eval_context& c, std::size_t i)
{
    return c.snap->zones[i];
}

std::vector<field_def> global_fields()
{
    std::vector<field_def> f = {
        num("time_ns", "virtual time of the snapshot since power-on (the slowest CPU's clock)",
            [](const eval_context& c, std::size_t) { return c.snap->sim_time_ns; }),
        num("boot_ns", "virtual time from power-on to the workload's start (the modelled boot)",
            [](const eval_context& c, std::size_t) { return c.snap->boot.workload_start_ns; }),
        num("run_ns", "virtual time the workload has run (time_ns - boot_ns)",
            [](const eval_context& c, std::size_t) {
                const auto& s = *c.snap;
                return s.sim_time_ns > s.boot.workload_start_ns ? s.sim_time_ns - s.boot.workload_start_ns : 0;
            }),
        str("state", "booting, running, paused, finished, failed, stopped",
            [](const eval_context& c, std::size_t) { return std::string(sim::run_state_name(c.snap->state)); }),
        str("preset", "the machine preset's name", [](const eval_context& c, std::size_t) { return c.snap->preset; }),
        str("era", "the modelled kernel era (\"v5.4\")",
            [](const eval_context& c, std::size_t) { return c.snap->era.str(); }),
        str("workload", "the workload's name", [](const eval_context& c, std::size_t) { return c.snap->workload; }),
        num("seed", "the workload's random seed", [](const eval_context& c, std::size_t) { return c.snap->seed; }),
        num("intensity", "the workload's intensity",
            [](const eval_context& c, std::size_t) { return c.snap->intensity; }),
        num("nr_cpus", "CPUs of the machine", [](const eval_context& c, std::size_t) { return c.snap->nr_cpus; }),
        num("nr_nodes", "NUMA nodes", [](const eval_context& c, std::size_t) { return c.snap->deferred_init.size(); }),
        num("sys_ns", "system time of all CPUs (allocator work, spinning included)",
            [](const eval_context& c, std::size_t) { return c.snap->sys_ns_total(); }),
        num("user_ns", "user time of all CPUs (the workload's computing)",
            [](const eval_context& c, std::size_t) { return c.snap->user_ns_total(); }),
        num("spin_ns", "the part of sys_ns spent waiting for locks",
            [](const eval_context& c, std::size_t) {
                double t = 0;
                for (const auto& cpu : c.snap->cpus) t += static_cast<double>(cpu.spin_ns);
                return t;
            }),
        num("score.work_units", "the workload's work done (jobs, iterations, bogo ops)",
            [](const eval_context& c, std::size_t) { return c.snap->score.work_units; }),
        num("score.measure", "the workload's own measure (kernbench: elapsed seconds of the build)",
            [](const eval_context& c, std::size_t) { return c.snap->score.seed_measure_value; }),
    };
    // The global counters, one field each.
    struct total {
        const char* name;
        std::uint64_t sim::global_metrics::*field;
        const char* what;
    };
    static const total totals[] = {
        {"allocs", &sim::global_metrics::allocs, "allocations"},
        {"frees", &sim::global_metrics::frees, "frees"},
        {"pcp_hits", &sim::global_metrics::pcp_hits, "allocations served from a PCP list without a refill"},
        {"zone_allocs", &sim::global_metrics::zone_allocs, "pages taken from the buddy allocator"},
        {"free_high_drains", &sim::global_metrics::free_high_drains, "free_high drains (v6.7+)"},
        {"pcp_resident_pages", &sim::global_metrics::pcp_resident_pages, "pages on all PCP lists"},
        {"reclaimed_pages", &sim::global_metrics::reclaimed_pages, "pages given back by reclaim"},
        {"drain_all_calls", &sim::global_metrics::drain_all_calls, "drain_all_pages after a failed allocation"},
        {"alloc_failures", &sim::global_metrics::alloc_failures, "allocations that failed"},
        {"pcp_trylock_failures", &sim::global_metrics::pcp_trylock_failures,
            "pcp->lock trylocks that failed (v6.0+; the caller went to the buddy lists)"},
        {"remote_work_items", &sim::global_metrics::remote_work_items,
            "drain work items queued on CPUs other than the draining one"},
    };
    for (const auto& t : totals)
        f.push_back(num(std::string("totals.") + t.name, t.what,
            [m = t.field](const eval_context& c, std::size_t) { return c.snap->totals.*m; }));
    // Calls from any context (v6.15 alloc-pages-nolock), one field each.
    struct any_context_total {
        const char* name;
        std::uint64_t sim::any_context_metrics::*field;
        const char* what;
    };
    static const any_context_total any_context[] = {
        {"allocs", &sim::any_context_metrics::allocs, "allocations from any context"},
        {"failures", &sim::any_context_metrics::failures, "allocations from any context that failed"},
        {"failures_deferred_init", &sim::any_context_metrics::failures_deferred_init,
            "allocations from any context that failed while deferred init ran"},
        {"spin_ns", &sim::any_context_metrics::spin_ns, "lock waits inside calls from any context, ns"},
        {"frees_over_high", &sim::any_context_metrics::frees_over_high,
            "frees from any context that left a pageset above its high"},
        {"over_high_pages_max", &sim::any_context_metrics::over_high_pages_max,
            "the most pages a pageset held above high after such a free"},
        {"over_high_ns_max", &sim::any_context_metrics::over_high_ns_max,
            "the longest a pageset stayed above high after such a free, ns"},
    };
    for (const auto& t : any_context)
        f.push_back(num(std::string("totals.any_context.") + t.name, t.what,
            [m = t.field](const eval_context& c, std::size_t) { return c.snap->totals.any_context.*m; }));
    // Interrupt-context allocations (workload::irq_pages; v6.2 pcp-lock-irqs-enabled), one field each.
    struct irq_total {
        const char* name;
        std::uint64_t sim::irq_metrics::*field;
        const char* what;
    };
    static const irq_total irqs[] = {
        {"arrivals", &sim::irq_metrics::arrivals, "interrupts raised (each allocates a page)"},
        {"allocs", &sim::irq_metrics::allocs, "allocations in interrupt context"},
        {"frees", &sim::irq_metrics::frees, "frees in interrupt context"},
        {"pcp_fallbacks", &sim::irq_metrics::pcp_fallbacks,
            "interrupt calls whose pcp_spin_trylock failed on their CPU's own held pcp->lock (to zone->lock)"},
        {"delayed", &sim::irq_metrics::delayed, "interrupts raised while IRQs were off on their CPU"},
        {"delay_ns_total", &sim::irq_metrics::delay_ns_total, "time interrupts waited for IRQs to come on, ns"},
        {"delay_ns_max", &sim::irq_metrics::delay_ns_max, "the longest wait of one interrupt, ns"},
        {"irqs_off_ns_max", &sim::irq_metrics::irqs_off_ns_max, "the longest IRQs-off stretch of one CPU, ns"},
        {"irqs_off_ns_total", &sim::irq_metrics::irqs_off_ns_total,
            "every CPU's IRQs-off time in lock holds and their waits, summed, ns"},
        {"spin_ns", &sim::irq_metrics::spin_ns, "lock waits inside interrupt-context calls, ns"},
    };
    for (const auto& t : irqs)
        f.push_back(num(std::string("totals.irq.") + t.name, t.what,
            [m = t.field](const eval_context& c, std::size_t) { return c.snap->totals.irq.*m; }));
    return f;
}

// zone->lock figures of a zone record: "lock.NAME".
void add_lock_fields(std::vector<field_def>& f)
{
    struct lock_field {
        const char* name;
        std::uint64_t sim::lock_metrics::*field;
        const char* what;
    };
    static const lock_field fields[] = {
        {"acquisitions", &sim::lock_metrics::acquisitions, "zone->lock acquisitions"},
        {"contended", &sim::lock_metrics::contended, "acquisitions that had to wait"},
        {"wait_ns", &sim::lock_metrics::wait_ns_total, "time CPUs spent waiting, summed"},
        {"wait_max_ns", &sim::lock_metrics::wait_ns_max, "longest single wait"},
        {"hold_ns", &sim::lock_metrics::hold_ns_total, "time the lock was held, summed"},
        {"hold_max_ns", &sim::lock_metrics::hold_ns_max, "longest single hold"},
        {"max_pages", &sim::lock_metrics::max_pages_per_hold, "most pages moved in one hold"},
        {"holds_over_threshold", &sim::lock_metrics::holds_over_threshold, "holds longer than the hold threshold"},
        {"waits_over_threshold", &sim::lock_metrics::waits_over_threshold, "waits longer than the hold threshold"},
        {"waiting_ns", &sim::lock_metrics::waiting_ns, "time during which at least one CPU waited"},
    };
    for (const auto& l : fields)
        f.push_back(num(std::string("lock.") + l.name, l.what,
            [m = l.field](const eval_context& c, std::size_t i) { return zone_at(c, i).lock.m.*m; }));
    f.push_back(num("lock.hold_p99_ns", "99th percentile of the hold time (bucket upper edge, at most the longest)",
        [](const eval_context& c, std::size_t i) { return sim::hold_ns_p99(zone_at(c, i).lock.m); }));
    f.push_back(num("lock.contention_pct", "share of the run during which some CPU waited, %",
        [](const eval_context& c, std::size_t i) { return zone_at(c, i).lock.contention_pct; }));
    f.push_back(num("lock.contention_pct_recent", "the same since the previous snapshot, %",
        [](const eval_context& c, std::size_t i) { return zone_at(c, i).lock.contention_pct_recent; }));
    // Per caller: "caller.free_pcppages_bulk.holds" ...
    for (unsigned k = 0; k < static_cast<unsigned>(mm::lock_caller::nr_callers); ++k) {
        const std::string base = "caller." + std::string(mm::lock_caller_name(static_cast<mm::lock_caller>(k))) + ".";
        f.push_back(num(base + "holds", "zone->lock holds by this caller",
            [k](const eval_context& c, std::size_t i) { return zone_at(c, i).lock.m.holds_by_caller[k]; }));
        f.push_back(num(base + "hold_ns", "time this caller held the lock, summed",
            [k](const eval_context& c, std::size_t i) { return zone_at(c, i).lock.m.hold_ns_by_caller[k]; }));
        f.push_back(num(base + "max_pages", "most pages this caller moved in one hold",
            [k](const eval_context& c, std::size_t i) { return zone_at(c, i).lock.m.max_pages_by_caller[k]; }));
        f.push_back(num(base + "mean_hold_ns", "mean hold of this caller (0 when it never held the lock)",
            [k](const eval_context& c, std::size_t i) {
                return sim::mean_hold_ns(zone_at(c, i).lock.m, static_cast<mm::lock_caller>(k));
            }));
    }
}

std::vector<field_def> zone_fields()
{
    std::vector<field_def> f = {
        num("node", "NUMA node", [](const eval_context& c, std::size_t i) { return zone_at(c, i).node; }),
        str("zone", "DMA, DMA32, Normal, Movable",
            [](const eval_context& c, std::size_t i) { return zone_text(zone_at(c, i).zone); }),
        num("spanned", "spanned pages", [](const eval_context& c, std::size_t i) { return zone_at(c, i).spanned; }),
        num("present", "present pages", [](const eval_context& c, std::size_t i) { return zone_at(c, i).present; }),
        num("managed", "managed pages (what batch and high are computed from)",
            [](const eval_context& c, std::size_t i) { return zone_at(c, i).managed; }),
        num("free", "free pages (NR_FREE_PAGES)",
            [](const eval_context& c, std::size_t i) { return zone_at(c, i).free_pages; }),
        num("wmark_min", "min watermark",
            [](const eval_context& c, std::size_t i) { return zone_at(c, i).watermark[mm::WMARK_MIN]; }),
        num("wmark_low", "low watermark",
            [](const eval_context& c, std::size_t i) { return zone_at(c, i).watermark[mm::WMARK_LOW]; }),
        num("wmark_high", "high watermark",
            [](const eval_context& c, std::size_t i) { return zone_at(c, i).watermark[mm::WMARK_HIGH]; }),
        num("batch", "the zone's pageset batch",
            [](const eval_context& c, std::size_t i) { return zone_at(c, i).batch; }),
        num("high", "the zone's pageset high", [](const eval_context& c, std::size_t i) { return zone_at(c, i).high; }),
        num("high_min", "auto-tuning's lower bound of high (v6.7+)",
            [](const eval_context& c, std::size_t i) { return zone_at(c, i).high_min; }),
        num("high_max", "auto-tuning's upper bound of high (v6.7+)",
            [](const eval_context& c, std::size_t i) { return zone_at(c, i).high_max; }),
        num("pcp_pages", "pages on this zone's PCP lists, all CPUs",
            [](const eval_context& c, std::size_t i) { return zone_at(c, i).pcp_pages; }),
        flag("reclaim_active", "ZONE_RECLAIM_ACTIVE is set",
            [](const eval_context& c, std::size_t i) { return (zone_at(c, i).flags & mm::ZONE_RECLAIM_ACTIVE) != 0; }),
        flag("below_high", "ZONE_BELOW_HIGH is set",
            [](const eval_context& c, std::size_t i) { return (zone_at(c, i).flags & mm::ZONE_BELOW_HIGH) != 0; }),
        indexed("nr_free", "free blocks of order N (/proc/buddyinfo's column N)", mm::NR_PAGE_ORDERS,
            [](const eval_context& c, std::size_t i, long n) { return zone_at(c, i).nr_free[n]; }),
    };
    static const std::pair<const char*, unsigned> types[]
        = {{"unmovable", mm::MIGRATE_UNMOVABLE}, {"movable", mm::MIGRATE_MOVABLE},
            {"reclaimable", mm::MIGRATE_RECLAIMABLE}, {"highatomic", mm::MIGRATE_HIGHATOMIC}};
    f.push_back(num("free_blocks", "free blocks of every order together", [](const eval_context& c, std::size_t i) {
        unsigned long n = 0;
        for (auto v : zone_at(c, i).nr_free) n += v;
        return n;
    }));
    for (const auto& [name, mt] : types)
        f.push_back(num(std::string("free_") + name + "_blocks",
            std::string("free blocks of every order on the ") + name + " lists",
            [mt = mt](const eval_context& c, std::size_t i) {
                unsigned long n = 0;
                for (const auto& order : zone_at(c, i).free_blocks) n += order[mt];
                return n;
            }));
    for (const auto& [name, mt] : types)
        f.push_back(indexed(std::string("free_") + name,
            std::string("free blocks of order N on the ") + name + " lists", mm::NR_PAGE_ORDERS,
            [mt = mt](const eval_context& c, std::size_t i, long n) { return zone_at(c, i).free_blocks[n][mt]; }));
    add_lock_fields(f);
    return f;
}

std::vector<field_def> pageset_fields()
{
    // Record i is pageset (zone i / nr_cpus, cpu i % nr_cpus), the snapshot's zone-major order.
    auto zone_of = [](const eval_context& c, std::size_t i) -> const sim::zone_snapshot& {
        return c.snap->zones[i / static_cast<std::size_t>(c.snap->nr_cpus)];
    };
    auto cpu_of = [](const eval_context& c, std::size_t i) {
        return static_cast<int>(i % static_cast<std::size_t>(c.snap->nr_cpus));
    };
    return {
        num("cpu", "the CPU whose pageset it is",
            [cpu_of](const eval_context& c, std::size_t i) { return cpu_of(c, i); }),
        num("cpu_node", "that CPU's node",
            [cpu_of](const eval_context& c, std::size_t i) {
                return c.snap->cpu_node[static_cast<std::size_t>(cpu_of(c, i))];
            }),
        num("node", "the zone's node", [zone_of](const eval_context& c, std::size_t i) { return zone_of(c, i).node; }),
        str("zone", "the zone: DMA, DMA32, Normal, Movable",
            [zone_of](const eval_context& c, std::size_t i) { return zone_text(zone_of(c, i).zone); }),
        num("count", "pages on this CPU's lists",
            [](const eval_context& c, std::size_t i) { return c.snap->pcp[i].count; }),
        num("high", "pcp->high", [](const eval_context& c, std::size_t i) { return c.snap->pcp[i].high; }),
        num("batch", "pcp->batch", [](const eval_context& c, std::size_t i) { return c.snap->pcp[i].batch; }),
    };
}

std::vector<field_def> cpu_fields()
{
    struct cpu_field {
        const char* name;
        std::uint64_t sim::cpu_metrics::*field;
        const char* what;
    };
    static const cpu_field fields[] = {
        {"sys_ns", &sim::cpu_metrics::sys_ns, "allocator time, spinning included"},
        {"user_ns", &sim::cpu_metrics::user_ns, "the workload's computing"},
        {"idle_ns", &sim::cpu_metrics::idle_ns, "idle time"},
        {"spin_ns", &sim::cpu_metrics::spin_ns, "time spent waiting for locks"},
        {"allocs", &sim::cpu_metrics::allocs, "allocations"},
        {"frees", &sim::cpu_metrics::frees, "frees"},
        {"alloc_failures", &sim::cpu_metrics::alloc_failures, "failed allocations"},
        {"pcp_hits", &sim::cpu_metrics::pcp_hits, "allocations served from the PCP lists"},
        {"refills", &sim::cpu_metrics::refills, "PCP refills from the zone (rmqueue_bulk)"},
        {"drains", &sim::cpu_metrics::drains, "PCP drains to the zone (free_pcppages_bulk)"},
    };
    std::vector<field_def> f = {
        num("cpu", "CPU id", [](const eval_context&, std::size_t i) { return i; }),
        num("node", "the CPU's node", [](const eval_context& c, std::size_t i) { return c.snap->cpu_node[i]; }),
    };
    for (const auto& cf : fields)
        f.push_back(
            num(cf.name, cf.what, [m = cf.field](const eval_context& c, std::size_t i) { return c.snap->cpus[i].*m; }));
    return f;
}

std::vector<field_def> event_fields()
{
    auto ev = [](const eval_context& c, std::size_t i) -> const sim::sim_event& { return step_events(c)[i]; };
    return {
        num("t", "virtual time of the event", [ev](const eval_context& c, std::size_t i) { return ev(c, i).t; }),
        str("kind",
            "limits_change, pcp_high_change, drain, reclaim_start, reclaim_stop, switch_flip, deferred_init_done, "
            "note, "
            "workload_round",
            [ev](
                const eval_context& c, std::size_t i) { return std::string(session::event_kind_name(ev(c, i).kind)); }),
        str("field", "which value old and new describe: batch, high, high_min, high_max, pages, none",
            [ev](const eval_context& c, std::size_t i) {
                return std::string(session::event_field_name(ev(c, i).field));
            }),
        num("cpu", "the CPU (-1: none)", [ev](const eval_context& c, std::size_t i) { return ev(c, i).cpu; }),
        num("node", "the node (-1: none)", [ev](const eval_context& c, std::size_t i) { return ev(c, i).node; }),
        str("zone", "the zone's name (\"\": none)",
            [ev](const eval_context& c, std::size_t i) { return zone_text(ev(c, i).zone); }),
        num("old", "the value before", [ev](const eval_context& c, std::size_t i) { return ev(c, i).old_value; }),
        num("new", "the value after", [ev](const eval_context& c, std::size_t i) { return ev(c, i).new_value; }),
        str("text", "the cause, readable", [ev](const eval_context& c, std::size_t i) { return ev(c, i).text; }),
    };
}

std::vector<field_def> node_fields()
{
    auto d = [](const eval_context& c, std::size_t i) -> const sim::deferred_progress& {
        return c.snap->deferred_init[i];
    };
    return {
        num("node", "node id", [d](const eval_context& c, std::size_t i) { return d(c, i).node; }),
        num("init_threads", "deferred-init threads of the node",
            [d](const eval_context& c, std::size_t i) { return d(c, i).threads; }),
        num("init_done", "frames initialised so far",
            [d](const eval_context& c, std::size_t i) { return d(c, i).done; }),
        num("init_total", "frames the init threads had to initialise",
            [d](const eval_context& c, std::size_t i) { return d(c, i).total; }),
        flag("init_finished", "deferred init of the node is done",
            [d](const eval_context& c, std::size_t i) { return d(c, i).finished; }),
        num("init_modelled_ms", "modelled deferred-init time on the preset's machine",
            [d](const eval_context& c, std::size_t i) { return d(c, i).modelled_ms; }),
        num("init_host_ms", "wall time of deferred init on this host (not deterministic)",
            [d](const eval_context& c, std::size_t i) { return d(c, i).host_ms; }),
    };
}

} // namespace

const char* scope_name(scope s)
{
    switch (s) {
    case scope::global:
        return "snapshot";
    case scope::zones:
        return "zones";
    case scope::pagesets:
        return "pagesets";
    case scope::cpus:
        return "cpus";
    case scope::events:
        return "events";
    case scope::nodes:
        return "nodes";
    }
    return "?";
}

std::optional<scope> collection_from_name(std::string_view name)
{
    for (scope s : k_collections)
        if (name == scope_name(s)) return s;
    return std::nullopt;
}

const std::vector<field_def>& fields_of(scope s)
{
    static const std::vector<field_def> tables[]
        = {global_fields(), zone_fields(), pageset_fields(), cpu_fields(), event_fields(), node_fields()};
    return tables[static_cast<unsigned>(s)];
}

const field_def* find_field(scope s, std::string_view name)
{
    for (const auto& f : fields_of(s))
        if (f.name == name) return &f;
    return nullptr;
}

std::size_t collection_size(const eval_context& ctx, scope s)
{
    const auto& snap = *ctx.snap;
    switch (s) {
    case scope::global:
        return 1;
    case scope::zones:
        return snap.zones.size();
    case scope::pagesets:
        // Only whole zone x CPU tables (a snapshot without memory state has none).
        return snap.nr_cpus > 0 && snap.pcp.size() == snap.zones.size() * static_cast<std::size_t>(snap.nr_cpus)
            ? snap.pcp.size()
            : 0;
    case scope::cpus:
        return std::min(snap.cpus.size(), snap.cpu_node.size());
    case scope::events:
        return step_events(ctx).size();
    case scope::nodes:
        return snap.deferred_init.size();
    }
    return 0;
}

} // namespace pcplab::lessons
