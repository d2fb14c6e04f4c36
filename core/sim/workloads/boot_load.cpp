// boot: a modest, steady order-0 load on every CPU while deferred struct-page init is still running (seeds
// 000 and 004: the PCP batch/high computed before init finished, and what the pgdatinit threads compete
// with; seed 003's "free 2k+ pages over 100 times just during boot").
//
// It starts at virtual time 0 right after setup_per_cpu_pageset, before deferred init
// (starts_during_deferred_init): it allocates from the early memory with the pagesets' setup-time limits,
// and the deferred frames join when every CPU has reached the modelled end of the slowest node's init (see
// engine_boot.cpp; until then the watermarks are 0, as before init_per_zone_wmark_min).
//
// In a real boot the window between setup_per_cpu_pageset and the end of deferred init, and the seconds
// right after it, are filled by kernel work on every CPU: per-CPU kthreads and workqueues, slab and percpu
// growth, page tables and stacks of new threads, then udev and systemd faulting in their first pages and
// reading files. Mostly long-lived kernel memory, with some that is released again.
//
// Model, per CPU (every CPU of the workload), `steps` steps, each:
//   allocate pages_per_step order-0 pages, 3 of 4 UNMOVABLE up to ZONE_NORMAL (kernel data) and 1 of 4
//   MOVABLE (user and page-cache pages), drawn from the CPU's stream; each written
//   (env.user_ns_per_page); keep the newest `resident` pages and free the older ones; then compute a gap
//   of gap_us_min..gap_us_max.
// After the last step the CPU frees what it still holds and is done (finite; finished() when all are).
// Parameters (E: boot logs show a few hundred MiB allocated across all CPUs in the first seconds; these
// give 4 pages / 250 us = 64 MiB/s per CPU, 2000 steps = about half a second):
//   steps           2000 per CPU
//   pages_per_step  4 x intensity (at least 1)
//   resident        512 pages kept per CPU
//   gap_us_min/max  100 / 400
// Score: pages allocated.
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

// A FIFO of pages over a ring whose storage grows only when it must (not per step).
class page_fifo
{
public:
    void reserve(std::size_t n)
    {
        if (n > m_ring.size()) grow(n);
    }
    void push(mm::pfn_t pfn)
    {
        if (m_size == m_ring.size()) grow(m_ring.empty() ? 16 : m_ring.size() * 2);
        m_ring[(m_head + m_size) % m_ring.size()] = pfn;
        ++m_size;
    }
    mm::pfn_t pop()
    {
        mm::pfn_t pfn = m_ring[m_head];
        m_head = (m_head + 1) % m_ring.size();
        --m_size;
        return pfn;
    }
    std::size_t size() const { return m_size; }
    void clear() { m_head = m_size = 0; }

private:
    void grow(std::size_t n)
    {
        std::vector<mm::pfn_t> r(n);
        for (std::size_t i = 0; i < m_size; ++i) r[i] = m_ring[(m_head + i) % m_ring.size()];
        m_ring.swap(r);
        m_head = 0;
    }
    std::vector<mm::pfn_t> m_ring;
    std::size_t m_head = 0, m_size = 0;
};

class boot_load final : public workload_base
{
public:
    boot_load()
    {
        m_params.add("steps", 2000, "allocation steps per CPU", 1, 1e9);
        m_params.add("pages_per_step", 4, "order-0 pages per step (x intensity)", 1, 1e6);
        m_params.add("resident", 512, "newest pages each CPU keeps; older ones are freed", 0, 1e9);
        m_params.add("gap_us_min", 100, "shortest compute between steps, us", 0, 1e9);
        m_params.add("gap_us_max", 400, "longest compute between steps, us", 0, 1e9);
    }
    std::string_view name() const override { return "boot"; }

    void attach(const workload_env& env) override
    {
        attach_base(env);
        m_steps = static_cast<std::uint64_t>(m_params.get("steps"));
        m_resident = static_cast<std::size_t>(m_params.get("resident"));
        m_gap_us_min = static_cast<std::uint64_t>(m_params.get("gap_us_min"));
        m_gap_us_max = std::max(m_gap_us_min, static_cast<std::uint64_t>(m_params.get("gap_us_max")));
        on_intensity();
        reset_states(m_cpus, m_order.size(), TAG_BOOT);
        for (auto& c : m_cpus) c.held.reserve(m_resident + m_pages_per_step);
        m_cpus_done = 0;
        m_allocated = 0;
    }

    cpu_action next(int cpu, vtime_ns now) override
    {
        int p = place_of(cpu);
        if (p < 0 || m_released) return done();
        cpu_state& c = m_cpus[p];
        cpu_action a;
        if (c.gate.pending(a)) return a;
        for (;;) {
            if (c.finished) return done();
            if (take_touch(c.touch_pending, a)) return a;
            if (c.left > 0) // allocating the current step's pages
                return c.gate.issue(c.r.chance(1, 4) ? alloc_user(0) : alloc_kernel(0));
            bool last = c.step >= m_steps;
            std::size_t keep = last ? 0 : m_resident;
            if (c.held.size() > keep) return free_block(c.held.pop(), 0);
            if (last) {
                c.finished = true;
                ++m_cpus_done;
                continue;
            }
            // Start the next step after its gap (none before the first).
            ++c.step;
            c.left = m_pages_per_step;
            if (c.step > 1)
                if (vtime_ns gap = c.r.between(m_gap_us_min, m_gap_us_max) * 1000) return compute(gap);
        }
    }

    void allocated(int cpu, mm::pfn_t pfn, vtime_ns now) override
    {
        int p = place_of(cpu);
        if (p < 0) return;
        cpu_state& c = m_cpus[p];
        if (!c.gate.complete(pfn)) return;
        c.held.push(pfn);
        c.touch_pending = true;
        --c.left;
        ++m_allocated;
    }

    workload_score score(vtime_ns elapsed) const override { return count_score(m_allocated, "pages"); }

    bool finished() const override { return m_released || m_cpus_done == m_cpus.size(); }
    bool starts_during_deferred_init() const override { return true; }

    released_blocks release_all() override
    {
        return release_each(m_cpus, [](auto& c, released_blocks& out) {
            while (c.held.size() > 0) out.emplace_back(c.held.pop(), 0U);
        });
    }

private:
    struct cpu_state {
        alloc_gate gate;
        rng r;
        bool touch_pending = false;
        bool finished = false;
        std::uint64_t step = 0; // steps started
        std::uint32_t left = 0; // pages of the current step still to allocate
        page_fifo held; // oldest first
    };

    void on_intensity() override { m_pages_per_step = scaled_amount(m_params.get("pages_per_step"), 1e6); }

    std::uint64_t m_steps = 0;
    std::size_t m_resident = 0;
    std::uint32_t m_pages_per_step = 1;
    std::uint64_t m_gap_us_min = 0, m_gap_us_max = 0;
    std::vector<cpu_state> m_cpus;
    std::size_t m_cpus_done = 0;
    std::uint64_t m_allocated = 0;
};

} // namespace

std::unique_ptr<workload> make_boot_load()
{
    return std::make_unique<boot_load>();
}

} // namespace pcplab::sim::workloads
