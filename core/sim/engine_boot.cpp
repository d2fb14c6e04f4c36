// The engine's setup: the machine, the virtual-time state, boot and the workload's attachment.
#include "engine_impl.hpp"

#include "mm/boot.hpp"
#include "mm/pcp.hpp"

#include <algorithm>
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
    m = std::make_unique<mm::machine>(cfg.spec, cfg.era, cfg.patches);
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
    last_high_event.assign(static_cast<std::size_t>(n) * nr_slots, -1);
    last_high_cause.assign(static_cast<std::size_t>(n) * nr_slots, 0);
    limits_text = nullptr;

    zrec.assign(nr_slots, zone_reclaim{});
    drain_busy_until = 0;
    reclaimer_cpu.assign(m->nodes.size(), 0);
    for (std::size_t nid = 0; nid < m->nodes.size(); ++nid)
        if (!m->nodes[nid]->cpus.empty()) reclaimer_cpu[nid] = m->nodes[nid]->cpus.front();
}

// mm::boot with the real deferred-init threads, the modelled deferred-init time of each node, then the
// virtual-time lock model and the workload. Virtual time 0 is the moment the workload starts.
void engine::impl::boot()
{
    if (booted) return;
    const mm::deferred_init_report rep = mm::boot(*m);
    for (const auto& nr : rep.nodes) {
        boot_node_report b;
        b.node = nr.node;
        b.threads = nr.threads;
        b.pages = nr.pages;
        b.modelled_ms = deferred_init_ms(rates, nr.pages, nr.threads);
        b.host_ms = static_cast<double>(nr.host_ns) / 1e6;
        boot_nodes.push_back(b);
        sim_event e;
        e.kind = event_kind::deferred_init_done;
        e.node = nr.node;
        e.new_value = static_cast<long>(nr.pages);
        e.field = event_field::pages;
        e.text = std::to_string(nr.threads) + " thread(s), modelled "
            + std::to_string(static_cast<long>(b.modelled_ms + 0.5)) + " ms";
        push_event(std::move(e));
    }
    m->set_lock_ops(this);
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
