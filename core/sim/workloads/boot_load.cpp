// boot (and bpf-any-context, below): a modest, steady order-0 load on every CPU while deferred struct-page init is
// still running (seeds 000 and 004: the PCP batch/high computed before init finished, and what the pgdatinit threads
// compete with; seed 003's "free 2k+ pages over 100 times just during boot").
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
//
// bpf-any-context is the same load with a BPF program attached to a tracepoint that fires on every CPU from
// power-on (a tracing program loaded from the initramfs), allocating pages for its map from whatever context
// it interrupts: the v6.15 alloc-pages-nolock switch (Alexei Starovoitov's try_alloc_pages /
// free_pages_nolock, scenario 008). Its calls are cpu_action::any_context: with the switch alloc_pages_nolock
// / free_pages_nolock, without it the ordinary paths (which such a caller could not safely take on a real
// kernel: the model shows the spinning it would do). In each step, after the CPU's own pages, the program
// makes bpf_pages x intensity (at least 1) order-0 UNMOVABLE allocations up to ZONE_NORMAL; a failed one is
// dropped (the program sees NULL and goes on, as try_alloc_pages' callers must); once it holds bpf_batch
// pages it frees them all from any context (a map emptied in one go). At the end it frees what it holds.
// Parameters (E: the program's rates are an illustration, not a measured BPF workload):
//   bpf_pages       2 any-context allocations per step (x intensity)
//   bpf_batch       128 pages held before the program frees them all
// Score: the program's pages allocated.
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

// The program's request: what try_alloc_pages asks for (no __GFP_MOVABLE, no highmem), from any context.
cpu_action alloc_any_context()
{
    cpu_action a = alloc_kernel(0);
    a.any_context = true;
    return a;
}

cpu_action free_any_context(mm::pfn_t pfn)
{
    cpu_action a = free_block(pfn, 0);
    a.any_context = true;
    return a;
}

class boot_load final : public workload_base
{
public:
    // `program`: bpf-any-context, the boot load with a BPF program allocating from any context.
    explicit boot_load(bool program)
        : m_program(program)
    {
        m_params.add("steps", 2000, "allocation steps per CPU", 1, 1e9);
        m_params.add("pages_per_step", 4, "order-0 pages per step (x intensity)", 1, 1e6);
        m_params.add("resident", 512, "newest pages each CPU keeps; older ones are freed", 0, 1e9);
        m_params.add("gap_us_min", 100, "shortest compute between steps, us", 0, 1e9);
        m_params.add("gap_us_max", 400, "longest compute between steps, us", 0, 1e9);
        if (!program) return;
        m_params.add("bpf_pages", 2, "any-context allocations of the BPF program per step (x intensity)", 1, 1e6);
        m_params.add("bpf_batch", 128, "pages the program holds before freeing them all from any context", 1, 1e6);
    }
    std::string_view name() const override { return m_program ? "bpf-any-context" : "boot"; }

    void attach(const workload_env& env) override
    {
        attach_base(env);
        m_steps = static_cast<std::uint64_t>(m_params.get("steps"));
        m_resident = static_cast<std::size_t>(m_params.get("resident"));
        m_gap_us_min = static_cast<std::uint64_t>(m_params.get("gap_us_min"));
        m_gap_us_max = std::max(m_gap_us_min, static_cast<std::uint64_t>(m_params.get("gap_us_max")));
        if (m_program) m_bpf_batch = static_cast<std::size_t>(m_params.get("bpf_batch"));
        on_intensity();
        reset_states(m_cpus, m_order.size(), m_program ? TAG_BPF_ANY_CONTEXT : TAG_BOOT);
        for (auto& c : m_cpus) c.held.reserve(m_resident + m_pages_per_step);
        m_cpus_done = 0;
        m_allocated = m_bpf_allocated = 0;
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
            if (c.bpf_left > 0) { // the program's allocations of this step
                --c.bpf_left;
                return c.gate.issue(alloc_any_context());
            }
            bool last = c.step >= m_steps;
            std::size_t keep = last ? 0 : m_resident;
            if (c.held.size() > keep) return free_block(c.held.pop(), 0);
            if (!c.bpf.empty() && (last || c.emptying || c.bpf.size() >= m_bpf_batch)) {
                c.emptying = true; // one free per action until the program holds nothing
                const mm::pfn_t pfn = c.bpf.back();
                c.bpf.pop_back();
                return free_any_context(pfn);
            }
            c.emptying = false;
            if (last) {
                c.finished = true;
                ++m_cpus_done;
                continue;
            }
            // Start the next step after its gap (none before the first).
            ++c.step;
            c.left = m_pages_per_step;
            c.bpf_left = m_bpf_pages;
            if (c.step > 1)
                if (vtime_ns gap = c.r.between(m_gap_us_min, m_gap_us_max) * 1000) return compute(gap);
        }
    }

    void allocated(int cpu, mm::pfn_t pfn, vtime_ns now) override
    {
        int p = place_of(cpu);
        if (p < 0) return;
        cpu_state& c = m_cpus[p];
        const bool any_context = c.gate.request().any_context;
        // The program's failures are final (no retry); the CPU's own allocations retry after a back-off.
        if (!c.gate.complete(pfn, /*retry=*/!any_context)) return;
        if (any_context) {
            c.bpf.push_back(pfn);
            ++m_bpf_allocated;
            return;
        }
        c.held.push(pfn);
        c.touch_pending = true;
        --c.left;
        ++m_allocated;
    }

    workload_score score(vtime_ns elapsed) const override
    {
        return m_program ? count_score(m_bpf_allocated, "BPF pages") : count_score(m_allocated, "pages");
    }

    bool finished() const override { return m_released || m_cpus_done == m_cpus.size(); }
    bool starts_during_deferred_init() const override { return true; }

    released_blocks release_all() override
    {
        return release_each(m_cpus, [](auto& c, released_blocks& out) {
            while (c.held.size() > 0) out.emplace_back(c.held.pop(), 0U);
            for (mm::pfn_t pfn : c.bpf) out.emplace_back(pfn, 0U);
            c.bpf.clear();
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
        std::uint32_t bpf_left = 0; // the program's allocations of the current step still to make
        bool emptying = false; // the program is freeing everything it holds
        std::vector<mm::pfn_t> bpf; // the program's pages
    };

    void on_intensity() override
    {
        m_pages_per_step = scaled_amount(m_params.get("pages_per_step"), 1e6);
        if (m_program) m_bpf_pages = scaled_amount(m_params.get("bpf_pages"), 1e6);
    }

    const bool m_program;
    std::uint32_t m_bpf_pages = 0;
    std::size_t m_bpf_batch = 1;
    std::uint64_t m_bpf_allocated = 0;

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
    return std::make_unique<boot_load>(false);
}

std::unique_ptr<workload> make_bpf_any_context()
{
    return std::make_unique<boot_load>(true);
}

} // namespace pcplab::sim::workloads
