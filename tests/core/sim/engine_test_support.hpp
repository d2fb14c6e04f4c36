// A small workload for engine tests, independent of the shipped ones: every CPU it runs on allocates `burst`
// blocks, frees them all (newest first), computes `gap_ns`, and starts over; optionally a fixed number of
// rounds, an instant after which it only idles, or a hog mode that never frees (only reclaim takes pages).
#pragma once

#include "sim/engine.hpp"
#include "support/small_machine.hpp"

#include "mm/kernel_version.hpp"
#include "mm/patch_switches.hpp"

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace pcplab::test
{

struct loop_params {
    int burst = 64;
    unsigned order = 0;
    sim::vtime_ns gap_ns = 0;
    sim::vtime_ns per_alloc_ns = 0; // compute after every allocation (writing the page)
    int rounds = 0; // 0 = forever
    sim::vtime_ns idle_after = 0; // 0 = never: from this instant on, only idle
    bool hog = false; // allocate forever, never free
};

class loop_load final : public sim::workload
{
public:
    explicit loop_load(loop_params p)
        : m_p(p)
    {
    }
    std::string_view name() const override { return "test-loop"; }
    void attach(const sim::workload_env& env) override
    {
        m_cpus.assign(static_cast<std::size_t>(env.nr_cpus), per_cpu{});
        for (int c : env.cpus) m_cpus[static_cast<std::size_t>(c)].mine = true;
    }
    sim::cpu_action next(int cpu, sim::vtime_ns now) override
    {
        per_cpu& s = m_cpus[static_cast<std::size_t>(cpu)];
        sim::cpu_action a;
        if (m_p.rounds && s.rounds >= m_p.rounds) {
            a.k = sim::cpu_action::kind::done;
            return a;
        }
        if (m_p.idle_after && now >= m_p.idle_after) {
            a.k = sim::cpu_action::kind::idle;
            a.ns = sim::NS_PER_SEC / 4;
            return a;
        }
        if (s.compute_due) {
            s.compute_due = false;
            a.k = sim::cpu_action::kind::compute;
            a.ns = m_p.per_alloc_ns;
            return a;
        }
        if (s.freeing && !m_p.hog) {
            if (!s.held.empty()) {
                a.k = sim::cpu_action::kind::free;
                a.pfn = s.held.back();
                a.order = static_cast<std::uint8_t>(m_p.order);
                s.held.pop_back();
                return a;
            }
            s.freeing = false;
            s.rounds += 1;
            if (m_p.gap_ns) {
                a.k = sim::cpu_action::kind::compute;
                a.ns = m_p.gap_ns;
                return a;
            }
            return next(cpu, now);
        }
        a.k = sim::cpu_action::kind::alloc;
        a.order = static_cast<std::uint8_t>(m_p.order);
        return a;
    }
    void allocated(int cpu, mm::pfn_t pfn, sim::vtime_ns) override
    {
        per_cpu& s = m_cpus[static_cast<std::size_t>(cpu)];
        if (pfn == mm::NO_PFN) {
            ++failures;
            s.freeing = true; // give back what it has rather than spin on failures
            return;
        }
        ++allocations;
        s.held.push_back(pfn);
        s.compute_due = m_p.per_alloc_ns > 0;
        if (static_cast<int>(s.held.size()) >= m_p.burst) s.freeing = true;
    }
    std::vector<std::pair<mm::pfn_t, unsigned>> reclaim(std::size_t nr) override
    {
        std::vector<std::pair<mm::pfn_t, unsigned>> out;
        // Oldest blocks first, CPU by CPU in turn: deterministic.
        for (bool any = true; any && out.size() < nr;) {
            any = false;
            for (auto& s : m_cpus) {
                if (out.size() >= nr) break;
                if (s.held.empty()) continue;
                out.emplace_back(s.held.front(), m_p.order);
                s.held.erase(s.held.begin());
                any = true;
            }
        }
        reclaimed += out.size();
        return out;
    }
    sim::workload_score score(sim::vtime_ns) const override
    {
        sim::workload_score sc;
        sc.work_units = static_cast<double>(allocations);
        sc.unit = "allocations";
        return sc;
    }

    std::uint64_t allocations = 0, failures = 0, reclaimed = 0;

private:
    struct per_cpu {
        bool mine = false;
        bool freeing = false;
        bool compute_due = false;
        int rounds = 0;
        std::vector<mm::pfn_t> held;
    };
    loop_params m_p;
    std::vector<per_cpu> m_cpus;
};

inline sim::workload_factory loop_factory(loop_params p)
{
    return [p] { return std::make_unique<loop_load>(p); };
}

// An engine config on a small_spec machine with the era's default switches.
inline sim::engine_config small_config(int nodes, int cpus_per_node, unsigned long gib_per_node, const char* era)
{
    sim::engine_config cfg;
    cfg.spec = small_spec(nodes, cpus_per_node, gib_per_node);
    cfg.era = *mm::kernel_version::parse(era);
    cfg.patches = mm::default_patches(cfg.era);
    return cfg;
}

// Boots `e` if needed and runs it until `t` of its workload's virtual time (the engine's clocks count from
// power-on; the workload starts after the boot: engine::workload_start).
inline void run_to(sim::engine& e, sim::vtime_ns t)
{
    e.boot();
    e.run_until(e.workload_start() + t);
}

inline const loop_load& loop_of(const sim::engine& e)
{
    return static_cast<const loop_load&>(e.load());
}

} // namespace pcplab::test
