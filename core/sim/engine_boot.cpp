// The engine's setup: the machine, the virtual-time state, boot and the workload's attachment.
#include "engine_impl.hpp"

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
    model = cfg.costs ? *cfg.costs : cost_model_for(cfg.spec);
    rates = compile_rates(model);
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
    m = std::make_unique<mm::machine>(cfg.spec, mm::kernel_era{cfg.era, cfg.formulas}, cfg.patches);
    m->on_limits_change = [this](const mm::limits_change& lc) { on_limits_change(lc); };
    for (int c : cfg.cpus)
        if (c < 0 || c >= m->nr_cpu_ids())
            throw std::invalid_argument("cpu " + std::to_string(c) + " does not exist on " + cfg.spec.name);
    load = make_load();
    if (!load) throw std::invalid_argument("unknown workload '" + cfg.workload + "'");
    booted = false;
    boot_nodes.clear();
    reset_run_state();
}

// Clocks, metrics, events, locks and caches for the current machine, all at zero.
void engine::impl::reset_run_state()
{
    const int n = m->nr_cpu_ids();
    const auto nr_slots = m->nodes.size() * mm::MAX_NR_ZONES;
    const auto threads = std::max(cfg.spec.threads_per_core, 1);
    const int cores = n % threads == 0 ? n / threads : n;

    clock.assign(static_cast<std::size_t>(n), 0);
    st.assign(static_cast<std::size_t>(n), cpu_state{});
    for (int c = 0; c < n; ++c) {
        cpu_state& s = st[static_cast<std::size_t>(c)];
        s.node = m->cpu_to_node[static_cast<std::size_t>(c)];
        s.socket = m->nodes[static_cast<std::size_t>(s.node)]->socket;
        // Linux numbers the first thread of every core first, then the second threads (enumerate_cpus).
        s.core = c % cores;
        s.next_tick = first_tick(c);
        s.runs_workload = cfg.cpus.empty();
    }
    for (int c : cfg.cpus) st[static_cast<std::size_t>(c)].runs_workload = true;
    nr_workload_cpus = static_cast<int>(std::count_if(st.begin(), st.end(), [](auto& s) { return s.runs_workload; }));
    done_cpus = 0;
    workload_finished = false;
    finish_time = 0;
    steps = 0;
    heap.reset(n, 0);
    acting = 0;
    in_step = false;

    meter = mm::mm_work{};
    mark_ps = action_from_buddy = 0;
    pending_ps = {};
    depth = 0;
    caches = std::make_unique<struct_page_cache_model>(n, rates.cache_lines_per_cpu);
    ctxs.clear();
    ctxs.reserve(static_cast<std::size_t>(n));
    for (int c = 0; c < n; ++c)
        ctxs.push_back(mm::mm_ctx{*m, c, st[static_cast<std::size_t>(c)].node, meter, *this, caches->cpu(c)});

    zone_lock_m.clear();
    m->for_each_populated_zone([&](mm::zone& z) {
        lock_metrics lm;
        lm.node = z.node;
        lm.zone = z.idx;
        zone_lock_m.push_back(lm);
    });
    zone_vlocks.assign(nr_slots, vlock{});
    pcp_lock_m = lock_metrics{};
    pcp_lock_m.node = pcp_lock_m.zone = -1;
    pcp_vlocks.assign(m->era.has_pcp_lock() ? nr_slots * static_cast<std::size_t>(n) : 0, vlock{});
    std::size_t i = 0;
    m->for_each_populated_zone([&](mm::zone& z) {
        vlock& l = zone_vlocks[static_cast<std::size_t>(zone_slot(z.node, z.idx))];
        l.metrics = &zone_lock_m[i++];
    });
    for (std::size_t s = 0; s < nr_slots; ++s) {
        int home = m->nodes[s / mm::MAX_NR_ZONES]->socket;
        zone_vlocks[s].home_socket = home;
        if (!zone_vlocks[s].metrics) zone_vlocks[s].metrics = &pcp_lock_m; // never taken: unpopulated zone
        for (int c = 0; c < n && !pcp_vlocks.empty(); ++c) {
            vlock& l = pcp_vlocks[s * static_cast<std::size_t>(n) + static_cast<std::size_t>(c)];
            l.metrics = &pcp_lock_m;
            l.home_socket = st[static_cast<std::size_t>(c)].socket; // the pageset lives in the owner's percpu area
        }
    }

    cpu_m.assign(static_cast<std::size_t>(n), cpu_metrics{});
    tot = global_metrics{};
    events.clear();
    holds.clear();
    events_base = holds_base = holds_dropped = 0;
    last_high_event.assign(static_cast<std::size_t>(n) * nr_slots, -1);
    last_high_cause.assign(static_cast<std::size_t>(n) * nr_slots, 0);
    limits_text = nullptr;

    zrec.assign(nr_slots, zone_reclaim{});
    drain_busy_until = 0;
    reclaimer_cpu.assign(m->nodes.size(), 0);
    for (std::size_t nid = 0; nid < m->nodes.size(); ++nid)
        if (!m->nodes[nid]->cpus.empty()) reclaimer_cpu[nid] = m->nodes[nid]->cpus.front();
}

// mm::boot with the real deferred-init threads (watched by `obs` when given: boot_to runs the same steps),
// the modelled deferred-init time of each node, then the virtual-time lock model and the workload. Virtual
// time 0 is the moment the workload starts. A workload that starts during deferred init boots differently
// (boot_during_deferred_init).
void engine::impl::boot(const boot_observer* obs)
{
    if (booted) return;
    if (load->starts_during_deferred_init()) {
        boot_during_deferred_init();
        return;
    }
    const mm::deferred_init_report rep
        = obs ? boot_to(*m, boot_target::after_init, obs).value_or(mm::deferred_init_report{}) : mm::boot(*m);
    for (const auto& nr : rep.nodes) {
        boot_node_report b;
        b.node = nr.node;
        b.threads = nr.threads;
        b.pages = nr.pages;
        b.modelled_ms = deferred_init_ms(rates, nr.pages, nr.threads);
        boot_nodes.push_back(b);
    }
    note_deferred_init(rep, 0);
    m->set_lock_ops(this);
    attach_workload();
}

// The boot of a workload that runs while the pgdatinit threads do (seed 000's window: the pagesets got their
// limits from the early managed pages, and kernel work allocates from those meanwhile). start_kernel's part
// runs now (mem_init, setup_per_cpu_pageset) and the workload starts at virtual time 0. Deferred init is
// planned (its frames and threads per node, so its modelled time is known) and run for real once every CPU
// has reached the end of the modelled time of the slowest node, page_alloc_init_late's wait; then
// init_per_zone_wmark_min, as kernel_init_freeable does. Until then the deferred frames are not free and the
// watermarks are 0. Simplification: every node's deferred frames become free at that one instant, where the
// kernel frees them as the threads go (boot_report()'s done_at gives each node's own modelled end).
void engine::impl::boot_during_deferred_init()
{
    mm::boot_early(*m);
    auto di = std::make_unique<mm::deferred_init>(*m);
    di->plan();
    vtime_ns last = 0;
    for (int nid = 0; nid < m->nr_online_nodes(); ++nid) {
        if (di->total(nid) == 0) continue;
        boot_node_report b;
        b.node = nid;
        b.threads = di->threads(nid);
        b.pages = di->total(nid);
        b.modelled_ms = deferred_init_ms(rates, b.pages, b.threads);
        b.done_at = std::max<vtime_ns>(1, static_cast<vtime_ns>(std::ceil(b.modelled_ms * 1e6)));
        last = std::max(last, b.done_at);
        boot_nodes.push_back(b);
    }
    m->set_lock_ops(this);
    attach_workload();
    if (last == 0) { // nothing deferred: the rest of the boot at once
        mm::boot_late(*m);
        return;
    }
    pending_init = std::move(di);
    pending_init_at = last;
}

// Between two steps, every CPU at or past pending_init_at: the threads run (the workload waits, so the result
// does not depend on the host), their pages join the zones, then the watermarks are set.
void engine::impl::complete_deferred_init()
{
    std::unique_ptr<mm::deferred_init> di = std::move(pending_init);
    // The init threads' own locking is not the workload's: the merge takes zone->lock outside virtual time.
    m->set_lock_ops(nullptr);
    event_time_override = pending_init_at; // zone_pcp_update's limit changes happen at the modelled end too
    di->start();
    const mm::deferred_init_report rep = di->finish();
    mm::boot_late(*m);
    event_time_override = 0;
    m->set_lock_ops(this);
    note_deferred_init(rep, pending_init_at);
}

// Host times and one deferred_init_done event per node, at virtual time `t`.
void engine::impl::note_deferred_init(const mm::deferred_init_report& rep, vtime_ns t)
{
    for (const auto& nr : rep.nodes) {
        auto b = std::find_if(boot_nodes.begin(), boot_nodes.end(), [&](const auto& x) { return x.node == nr.node; });
        if (b == boot_nodes.end()) continue;
        b->host_ms = static_cast<double>(nr.host_ns) / 1e6;
        sim_event e;
        e.t = t;
        e.kind = event_kind::deferred_init_done;
        e.node = nr.node;
        e.new_value = static_cast<long>(nr.pages);
        e.field = event_field::pages;
        e.text = std::to_string(nr.threads) + " thread(s), modelled "
            + std::to_string(static_cast<long>(b->modelled_ms + 0.5)) + " ms";
        push_event(std::move(e));
    }
}

void engine::impl::attach_workload()
{
    autotune = mm::pcp_tuning_of(*m) == mm::pcp_tuning::autotune_v6_7;
    env = workload_env{};
    env.nr_cpus = m->nr_cpu_ids();
    for (int c = 0; c < env.nr_cpus; ++c)
        if (st[static_cast<std::size_t>(c)].runs_workload) env.cpus.push_back(c);
    env.cpu_node = m->cpu_to_node;
    m->for_each_populated_zone([&](mm::zone& z) { env.total_pages += z.managed(); });
    env.seed = cfg.seed;
    env.intensity = cfg.intensity;
    env.user_ns_per_page = rates.clear_page_ns;
    load->attach(env);
    booted = true;
}

} // namespace pcplab::sim
