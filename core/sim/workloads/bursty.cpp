// bursty: bursts of allocation separated by idle seconds, the case for which the auto-tuned PCP high
// (seed 002, Huang Ying, v6.7) decays: under load high grows by a batch per refill up to high_max; every
// vmstat interval (1 s) decay_pcp_high lowers it by 1/8 towards high_min and drains what is above it, so
// the pages a burst left on the PCP lists go back to the buddy allocator while the CPU idles. On older eras
// the same pages stay on the lists (up to the fixed high) until something drains them.
//
// A real counterpart: a batch or request spike (a cron job, a service answering a wave of requests) whose
// tasks fault in a working set, work on it and exit, followed by quiet seconds.
//
// Model, per CPU (every CPU of the workload):
//   start: idle 1 us..100 ms (the spike reaches the CPUs at slightly different times);
//   burst: allocate burst_mib of order-0 MOVABLE pages, each written (env.user_ns_per_page), then compute
//          work_ns_per_page x pages on them, then free them all (exit);
//   idle idle_ms_min..idle_ms_max, drawn per burst from the CPU's stream, so CPUs drift apart.
// Parameters:
//   burst_mib          32 x intensity (E: a request's or a job's working set)
//   work_ns_per_page   2000 (E: the task computes on its data about 2 us per 4 KiB)
//   idle_ms_min / max  1000 / 3000: one to three vmstat intervals, each a decay_pcp_high step
// Score: bursts completed.
#include "sim/workloads/registry_internal.hpp"
#include "sim/workloads/rng.hpp"
#include "sim/workloads/task_state.hpp"
#include "sim/workloads/workload_base.hpp"

#include <algorithm>
#include <cmath>

namespace pcplab::sim::workloads
{
namespace
{

constexpr vtime_ns START_JITTER_US = 100'000;

class bursty final : public workload_base
{
public:
    bursty()
    {
        m_params.add("burst_mib", 32, "MiB faulted in per burst (x intensity)", 0.004, 1 << 20);
        m_params.add("work_ns_per_page", 2000, "compute per page after the burst, ns", 0, 1e9);
        m_params.add("idle_ms_min", 1000, "shortest idle period, ms (>= 1000: at least one vmstat tick)", 0, 1e6);
        m_params.add("idle_ms_max", 3000, "longest idle period, ms", 0, 1e6);
    }
    std::string_view name() const override { return "bursty"; }

    void attach(const workload_env& env) override
    {
        attach_base(env);
        m_work_ns = m_params.get("work_ns_per_page");
        m_idle_us_min = static_cast<std::uint64_t>(m_params.get("idle_ms_min") * 1000);
        m_idle_us_max = std::max(m_idle_us_min, static_cast<std::uint64_t>(m_params.get("idle_ms_max") * 1000));
        reset_states(m_cpus, m_order.size(), TAG_BURSTY);
        m_bursts = 0;
        on_intensity();
        for (auto& c : m_cpus) c.held.reserve(m_burst_pages);
    }

    cpu_action next(int cpu, vtime_ns now) override
    {
        int p = place_of(cpu);
        if (p < 0 || m_released) return done();
        cpu_state& c = m_cpus[p];
        cpu_action a;
        if (c.gate.pending(a)) return a;
        for (;;) {
            switch (c.ph) {
            case phase::start:
                c.ph = phase::burst;
                c.left = m_burst_pages;
                return idle(c.r.between(1, START_JITTER_US) * 1000);
            case phase::burst:
                if (take_touch(c.touch_pending, a)) return a;
                if (c.left > 0) return c.gate.issue(alloc_user(0));
                c.ph = phase::free;
                c.free_cursor = 0;
                if (auto ns = static_cast<vtime_ns>(std::llround(m_work_ns * c.held.size()))) return compute(ns);
                continue;
            case phase::free:
                if (c.free_cursor < c.held.size()) return free_block(c.held[c.free_cursor++], 0);
                c.held.clear();
                ++m_bursts;
                c.ph = phase::burst;
                c.left = m_burst_pages;
                return idle(c.r.between(m_idle_us_min, m_idle_us_max) * 1000);
            }
        }
    }

    void allocated(int cpu, mm::pfn_t pfn, vtime_ns now) override
    {
        int p = place_of(cpu);
        if (p < 0) return;
        cpu_state& c = m_cpus[p];
        if (!c.gate.complete(pfn)) return;
        c.held.push_back(pfn);
        c.touch_pending = true;
        --c.left;
    }

    workload_score score(vtime_ns elapsed) const override { return count_score(m_bursts, "bursts"); }

    released_blocks release_all() override
    {
        return release_each(m_cpus, [](auto& c, released_blocks& out) {
            append_pages(out, c.held, c.ph == phase::free ? c.free_cursor : 0);
            c.held.clear();
        });
    }

private:
    enum class phase : std::uint8_t { start, burst, free };
    struct cpu_state {
        alloc_gate gate;
        rng r;
        phase ph = phase::start;
        bool touch_pending = false;
        std::uint32_t left = 0; // pages of this burst still to fault in
        std::size_t free_cursor = 0;
        std::vector<mm::pfn_t> held;
    };

    void on_intensity() override { m_burst_pages = scaled_amount(m_params.get("burst_mib") * 256, 4e9); }

    std::uint32_t m_burst_pages = 1;
    double m_work_ns = 0;
    std::uint64_t m_idle_us_min = 0, m_idle_us_max = 0;
    std::vector<cpu_state> m_cpus;
    std::uint64_t m_bursts = 0;
};

} // namespace

std::unique_ptr<workload> make_bursty()
{
    return std::make_unique<bursty>();
}

} // namespace pcplab::sim::workloads
