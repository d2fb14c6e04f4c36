// What every workload shares: its tunables, the environment it was attached to, and where its tasks run.
#pragma once

#include "sim/workload.hpp"
#include "sim/workloads/rng.hpp"
#include "sim/workloads/workload_params.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pcplab::sim::workloads
{

// The order in which tasks are placed on the workload's CPUs: the nodes taken in turn, each node's CPUs in
// ascending number. The preset loader numbers all first hardware threads before the SMT siblings (ACPI MADT
// order), so the first N places are one thread per core, spread over the nodes, as the scheduler spreads N
// busy tasks (idle cores first, balanced between nodes). Deterministic.
std::vector<int> placement_order(const workload_env& env);

// How many of `places` CPUs a task count of `intensity` x places fills: at least one, at most all.
int scaled_count(double intensity, int places);

// A score that counts `n` `unit`s; with `seed_measure`, the count is also the seed's measure, by that name.
workload_score count_score(std::uint64_t n, std::string unit, bool seed_measure = false);

class workload_base : public workload
{
public:
    std::vector<workload_param> params() const override { return m_params.list(); }
    status set_param(std::string_view key, double value) override { return m_params.set(key, value); }
    void set_intensity(double intensity) override;

protected:
    // Store the environment, compute the placement and clear m_released; derived attach() calls it first.
    void attach_base(const workload_env& env);
    // `n` fresh task states, state i drawing its member `r` from stream (seed, tag, i).
    template <class State> void reset_states(std::vector<State>& states, std::size_t n, std::uint64_t tag) const
    {
        states.clear();
        states.resize(n);
        for (std::size_t i = 0; i < n; ++i) states[i].r = rng(stream_seed(m_env.seed, tag, i));
    }
    // The CPU's place in placement_order (its task index), or -1 when the workload does not run there.
    int place_of(int cpu) const
    {
        return cpu >= 0 && static_cast<std::size_t>(cpu) < m_place_of.size() ? m_place_of[cpu] : -1;
    }
    int nr_places() const { return static_cast<int>(m_order.size()); }
    // User time to write `pages` 4 KiB pages (clear_page-like stores), from the cost model.
    vtime_ns pages_ns(double pages) const;
    // release_all()'s frame: `take(state, out)` appends what one task holds and forgets it; then every CPU
    // is done.
    template <class State, class Take>
    std::vector<std::pair<mm::pfn_t, unsigned>> release_each(std::vector<State>& states, Take take)
    {
        std::vector<std::pair<mm::pfn_t, unsigned>> out;
        for (auto& st : states) take(st, out);
        m_released = true;
        return out;
    }
    // When `pending` is set (a page was just allocated): clear it and, if writing one page costs time, put
    // that compute in `out` and return true.
    bool take_touch(bool& pending, cpu_action& out) const;
    // A per-CPU amount `base` x intensity, rounded, at least 1 (also for NaN), at most `cap`.
    std::uint32_t scaled_amount(double base, double cap) const;
    // Called after the intensity changed (attach_base has run).
    virtual void on_intensity() { }
    // settings_problem of a workload that runs at most one task per CPU, `key` being its task count (0 =
    // intensity x CPUs): a count above the CPUs it runs on, an intensity above 1, or any intensity beside an
    // explicit count would change nothing. `task` names one task ("job slot").
    status one_per_cpu_problem(const workload_env& env, const char* key, const char* task) const;

    workload_env m_env;
    param_set m_params;
    std::vector<int> m_order; // placement order (CPU numbers)
    std::vector<int> m_place_of; // CPU -> place, -1 when unused
    bool m_released = false; // release_all() ran: every CPU is done
    vtime_ns m_one_page_ns = 0; // pages_ns(1)
};

} // namespace pcplab::sim::workloads
