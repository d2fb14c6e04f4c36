// The engine's setup: the machine, the virtual-time state, boot and the workload's attachment.
#include "engine_impl.hpp"

#include "sim/boot_timeline.hpp"
#include "sim/machine_config.hpp"

#include "mm/boot.hpp"
#include "mm/pcp.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pcplab::sim
{

namespace
{

// vmstat_update is queued with round_jiffies_relative(HZ): the instant is a whole second minus 3 jiffies per
// CPU id ("we skew each extra cpu with an extra 3 jiffies", kernel/time/timer.c round_jiffies_common), so
// the CPUs' ticks are spread over the second instead of all hitting zone->lock at once. HZ = 1000 assumed.
vtime_ns first_tick(int cpu)
{
    constexpr vtime_ns jiffy = NS_PER_SEC / 1000;
    vtime_ns skew = (static_cast<vtime_ns>(cpu) * 3 * jiffy) % NS_PER_SEC;
    return NS_PER_SEC - skew;
}

} // namespace

engine::impl::impl(const engine_config& c, workload_factory factory)
    : cfg(c)
    , make_load(std::move(factory))
{
    model = std::make_shared<const cost_model>(cfg.costs ? *cfg.costs : cost_model_for(cfg.spec));
    rates = compile_rates(*model);
    prices = work_prices::from(rates);
    create_machine();
}

engine::impl::~impl()
{
    // The machine may outlive nothing of ours, but do not leave it pointing at a dead lock model.
    if (m) m->set_lock_ops(nullptr);
}

void engine::impl::create_machine()
{
    pending_init.reset(); // it refers to the old machine
    m = build_machine(cfg.spec, mm::kernel_era{cfg.era, cfg.formulas}, cfg.patches);
    m->on_limits_change = [this](const mm::limits_change& lc) { on_limits_change(lc); };
    for (int c : cfg.cpus)
        if (c < 0 || c >= m->nr_cpu_ids())
            throw std::invalid_argument("cpu " + std::to_string(c) + " does not exist on " + cfg.spec.name);
    load = make_load();
    if (!load) throw std::invalid_argument("unknown workload '" + cfg.workload + "'");
    boot_st = boot_state{};
    reset_run_state();
}

// Clocks, metrics, events, locks and caches for the current machine, all at zero.
void engine::impl::reset_run_state()
{
    const int n = m->nr_cpu_ids();
    const auto threads = std::max(cfg.spec.threads_per_core, 1);
    const int cores = n % threads == 0 ? n / threads : n;

    clock.assign(n, 0);
    st.assign(n, cpu_state{});
    per_cpu<int> socket(n);
    for (int c = 0; c < n; ++c) {
        cpu_state& s = st[c];
        s.node = m->cpu_to_node[static_cast<std::size_t>(c)];
        s.socket = socket[c] = m->node_data(s.node).socket;
        // Linux numbers the first thread of every core first, then the second threads (enumerate_cpus).
        s.core = c % cores;
        if (threads == 2 && cores != n) s.smt_sibling = (c + cores) % n;
        s.next_tick = first_tick(c);
        s.runs_workload = cfg.cpus.empty();
    }
    for (int c : cfg.cpus) st[c].runs_workload = true;
    round = round_state{};
    round.nr_workload_cpus
        = static_cast<int>(std::count_if(st.begin(), st.end(), [](auto& s) { return s.runs_workload; }));
    steps = 0;
    heap.reset(n, 0);
    acting = 0;
    in_step = false;

    meter = mm::mm_work{};
    action = action_charge{};
    caches = std::make_unique<struct_page_cache_model>(n, rates.cache_lines_per_cpu);
    ctxs.clear();
    ctxs.reserve(n);
    for (int c = 0; c < n; ++c) ctxs.emplace_back(mm::mm_ctx{*m, c, st[c].node, meter, *this, caches->cpu(c), this});

    locks.reset(*m, socket);
    cpu_m.assign(n, cpu_metrics{});
    tot = global_metrics{};
    log.reset(n, m->nodes.size());
    limits_text = nullptr;
    periodic.reset(*m);
}

// Power-on to the workload's start (boot_timeline.hpp), in the kernel's order: mem_init on the boot CPU,
// setup_per_cpu_pageset at the end of the early part, the deferred-init plan (frames and threads per node, so
// every node's modelled end is known before a thread runs), then page_alloc_init_late on real threads
// (watched by `obs` when given) with zone_pcp_update at the end, and init_per_zone_wmark_min. Each boot event
// carries its instant on the virtual time axis; the CPUs' clocks start where the workload does. A workload
// that starts during deferred init boots only as far as the plan (boot_during_deferred_init).
void engine::impl::boot(const boot_observer* obs)
{
    if (boot_st.done) return;
    if (m->stage < mm::boot_stage::early_init) mm::mem_init(*m);
    boot_times& times = boot_st.times;
    times = boot_times{};
    times.deferred_init_start_ns = early_init_ns(rates, m->early_init_pages);
    boot_st.event_time = times.deferred_init_start_ns;
    mm::boot_early(*m); // setup_per_cpu_pageset: the pagesets' first limits
    auto di = std::make_unique<mm::deferred_init>(*m);
    di->plan();
    plan_boot(*di);
    if (obs && obs->on_setup) obs->on_setup(*m);
    if (load->starts_during_deferred_init()) {
        boot_during_deferred_init(std::move(di));
        return;
    }
    di->start();
    watch_deferred_init(*m, *di, obs);
    boot_st.event_time = times.init_end_ns; // zone_pcp_update and the watermarks, once the last node is done
    const mm::deferred_init_report rep = di->finish();
    mm::boot_late(*m);
    note_deferred_init(rep);
    // The boot's events in the order of their instants (a node's end comes before the recomputed limits).
    log.sort_by_time();
    boot_st.event_time.reset();
    times.workload_start_ns = times.init_end_ns;
    start_clocks(times.workload_start_ns);
    m->set_lock_ops(this);
    attach_workload();
}

// Each node with frames to initialise: its threads, frames and modelled time, which start at
// deferred_init_start_ns and end at done_at; the init ends with the last node.
void engine::impl::plan_boot(const mm::deferred_init& di)
{
    boot_times& times = boot_st.times;
    boot_st.nodes.clear();
    times.init_end_ns = times.deferred_init_start_ns;
    for (int nid = 0; nid < m->nr_online_nodes(); ++nid) {
        if (di.total(nid) == 0) continue;
        boot_node_report b;
        b.node = nid;
        b.threads = di.threads(nid);
        b.pages = di.total(nid);
        b.modelled_ms = deferred_init_ms(rates, b.pages, b.threads);
        b.done_at = deferred_init_done_at(times.deferred_init_start_ns, b.modelled_ms);
        times.init_end_ns = std::max(times.init_end_ns, b.done_at);
        boot_st.nodes.push_back(b);
    }
}

// The boot of a workload that runs while the pgdatinit threads do (seed 000's window: the pagesets got their
// limits from the early managed pages, and kernel work allocates from those meanwhile). The workload starts
// when deferred init does; the init runs for real once every CPU has reached init_end_ns, page_alloc_init_late's
// wait (complete_deferred_init); then init_per_zone_wmark_min, as kernel_init_freeable does. Until then the
// deferred frames are not free and the watermarks are 0. Simplification: every node's deferred frames become
// free at that one instant, where the kernel frees them as the threads go (each node's deferred_init_done
// event still carries its own modelled end).
void engine::impl::boot_during_deferred_init(std::unique_ptr<mm::deferred_init> di)
{
    boot_st.times.workload_start_ns = boot_st.times.deferred_init_start_ns;
    start_clocks(boot_st.times.workload_start_ns);
    m->set_lock_ops(this);
    attach_workload();
    if (boot_st.nodes.empty()) // nothing deferred: the rest of the boot at once
        mm::boot_late(*m);
    else
        pending_init = std::move(di);
    boot_st.event_time.reset();
}

// Between two steps, every CPU at or past init_end_ns: the threads run (the workload waits, so the result does
// not depend on the host), their pages join the zones, then the watermarks are set.
void engine::impl::complete_deferred_init()
{
    std::unique_ptr<mm::deferred_init> di = std::move(pending_init);
    // The init threads' own locking is not the workload's: the merge takes zone->lock outside virtual time.
    m->set_lock_ops(nullptr);
    boot_st.event_time = boot_st.times.init_end_ns; // zone_pcp_update's limit changes at the modelled end too
    di->start();
    const mm::deferred_init_report rep = di->finish();
    mm::boot_late(*m);
    boot_st.event_time.reset();
    m->set_lock_ops(this);
    note_deferred_init(rep);
}

// Host times, and one deferred_init_done event per node at its own modelled end.
void engine::impl::note_deferred_init(const mm::deferred_init_report& rep)
{
    for (const auto& nr : rep.nodes) {
        auto b = std::find_if(
            boot_st.nodes.begin(), boot_st.nodes.end(), [&](const auto& x) { return x.node == nr.node; });
        if (b == boot_st.nodes.end()) continue;
        b->host_ms = static_cast<double>(nr.host_ns) / 1e6;
        sim_event e;
        e.t = b->done_at;
        e.kind = event_kind::deferred_init_done;
        e.node = nr.node;
        e.new_value = static_cast<long>(nr.pages);
        e.field = event_field::pages;
        e.text = std::to_string(nr.threads) + " thread(s), modelled "
            + std::to_string(static_cast<long>(b->modelled_ms + 0.5)) + " ms";
        push_event(std::move(e));
    }
}

// The CPUs start at `origin`: their clocks, and the vmstat ticks' phase relative to it. The phase of the
// kernel's ticks (whole jiffies seconds, skewed per CPU) relative to this model's power-on is not knowable
// (firmware time, the timer starting mid-boot, INITIAL_JIFFIES being 296 jiffies off a whole second at
// HZ=1000), so it is kept relative to the workload's start: a run does not depend on how long its boot took.
void engine::impl::start_clocks(vtime_ns origin)
{
    const int n = m->nr_cpu_ids();
    round.origin = origin;
    clock.assign(n, origin);
    for (int c = 0; c < n; ++c) st[c].next_tick = origin + first_tick(c);
    heap.reset(n, origin);
}

workload_env engine::impl::make_env() const
{
    workload_env e;
    e.nr_cpus = m->nr_cpu_ids();
    for (int c = 0; c < e.nr_cpus; ++c)
        if (st[c].runs_workload) e.cpus.push_back(c);
    e.cpu_node = m->cpu_to_node;
    m->for_each_populated_zone([&](mm::zone& z) { e.total_pages += z.managed(); });
    e.seed = cfg.seed;
    e.intensity = cfg.intensity;
    e.user_ns_per_page = rates.clear_page_ns;
    if (cfg.spec.threads_per_core == 2) e.smt_alone_share = 1 / (1 + rates.smt_busy_sibling_factor);
    return e;
}

void engine::impl::attach_workload()
{
    autotune = mm::pcp_tuning_of(*m) == mm::pcp_tuning::autotune_v6_7;
    env = make_env();
    if (const status fits = load->settings_problem(env); !fits)
        throw workload_error(cfg.workload + ": " + fits.message());
    load->attach(env);
    setup_irqs();
    boot_st.done = true;
}

} // namespace pcplab::sim
