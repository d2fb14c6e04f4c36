// jemalloc-purge: a userspace allocator whose frees reach the kernel on other CPUs than its allocations, the
// load behind Johannes Weiner's "[RFC 0/2] mm: page_alloc: pcp buddy allocator" (linux-mm, 2026-04-03; not
// merged; scenario 009). The cover letter: allocations happen in page faults on every CPU of the workload; the
// frees are cached for reuse and purged back to the kernel periodically by a handful of purger threads, so one
// side empties its PCP lists and the other overfills them, and both routinely take zone->lock.
//
// What allocates and frees these pages in a real kernel: a worker's first touch of an extent jemalloc handed
// it faults in order-0 MOVABLE pages (GFP_HIGHUSER_MOVABLE) on the worker's CPU; free() keeps the extent as
// dirty memory in the arena; the background thread's purge (madvise(MADV_DONTNEED)) unmaps the dirty extents
// and frees their pages, on the purger's CPU.
//
// Model: the last `purgers` places of the workload's CPUs (placement order) purge, the others work. Worker w
// hands its dirty pages to purger w mod purgers.
//   worker: start after 1 .. 100 us (drawn from its stream); fault in run_kib of order-0 MOVABLE pages, each
//           written (env.user_ns_per_page), compute work_ns_per_page x pages on them, then free() them into
//           its dirty list; a worker whose dirty list would grow past dirty_mib waits 10 us (WAIT_NS) for its
//           purger instead (E: jemalloc's dirty decay bounds the dirty memory; here the bound is a size);
//   purger: take every dirty page its workers have queued and free them (one purge: a run of frees of pages
//           other CPUs allocated); with nothing queued, sleep purge_us.
// Parameters:
//   purgers       2 (E: "a handful of purger threads"; jemalloc's default is one background thread per
//                 group of arenas)
//   run_kib       256 x intensity (E: the pages one extent's first touches fault in between purges)
//   dirty_mib     4 (E: dirty memory a worker may leave to its purger)
//   work_ns_per_page  1000 (E: the worker computes on its data about 1 us per 4 KiB)
//   purge_us      100 (E: a purger with nothing to do looks again this much later)
// Score: pages faulted in.
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

constexpr std::uint64_t START_JITTER_US = 100;
constexpr vtime_ns WAIT_NS = 10'000;

class jemalloc_purge final : public workload_base
{
public:
    jemalloc_purge()
    {
        m_params.add("purgers", 2, "CPUs that purge (free) what the others fault in", 1, 1e6);
        m_params.add("run_kib", 256, "KiB faulted in per run before free() (x intensity)", 4, 1 << 20);
        m_params.add("dirty_mib", 4, "MiB a worker may leave dirty for its purger", 0.004, 1 << 20);
        m_params.add("work_ns_per_page", 1000, "compute per page after a run, ns", 0, 1e9);
        m_params.add("purge_us", 100, "a purger with nothing queued sleeps this long, us", 1, 1e9);
    }
    std::string_view name() const override { return "jemalloc-purge"; }

    void attach(const workload_env& env) override
    {
        attach_base(env);
        const int places = nr_places();
        m_purgers = std::clamp(static_cast<int>(m_params.get("purgers")), 1, std::max(1, places - 1));
        m_workers = std::max(0, places - m_purgers);
        m_dirty_max = std::max<std::size_t>(1, static_cast<std::size_t>(m_params.get("dirty_mib") * 256));
        m_work_ns = m_params.get("work_ns_per_page");
        m_purge_ns = static_cast<vtime_ns>(m_params.get("purge_us") * 1000);
        reset_states(m_cpus, m_order.size(), TAG_JEMALLOC_PURGE);
        m_faulted = 0;
        on_intensity();
    }

    status settings_problem(const workload_env& env) const override
    {
        const auto places = static_cast<double>(env.cpus.empty() ? env.nr_cpus : static_cast<int>(env.cpus.size()));
        if (places < 2) return pcplab::error("jemalloc-purge needs at least two CPUs: one works, one purges");
        if (m_params.get("purgers") >= places)
            return pcplab::error("purgers must leave at least one of the workload's CPUs to work");
        return {};
    }

    cpu_action next(int cpu, vtime_ns now) override
    {
        int p = place_of(cpu);
        if (p < 0 || m_released) return done();
        cpu_state& c = m_cpus[static_cast<std::size_t>(p)];
        if (p >= m_workers) return purge(p, c);
        cpu_action a;
        if (c.gate.pending(a)) return a;
        for (;;) {
            switch (c.ph) {
            case phase::start:
                c.ph = phase::fault;
                c.left = m_run_pages;
                return idle(c.r.between(1, START_JITTER_US) * 1000);
            case phase::fault:
                if (take_touch(c.touch_pending, a)) return a;
                if (c.left > 0) return c.gate.issue(alloc_user(0));
                c.ph = phase::release;
                if (auto ns = static_cast<vtime_ns>(std::llround(m_work_ns * double(c.held.size()))))
                    return compute(ns);
                continue;
            case phase::release:
                // free(): the run becomes dirty memory, for the purger to give back.
                if (!c.dirty.empty() && c.dirty.size() + c.held.size() > m_dirty_max) return idle(WAIT_NS);
                c.dirty.insert(c.dirty.end(), c.held.begin(), c.held.end());
                c.held.clear();
                c.ph = phase::fault;
                c.left = m_run_pages;
                continue;
            }
        }
    }

    void allocated(int cpu, mm::pfn_t pfn, vtime_ns now) override
    {
        int p = place_of(cpu);
        if (p < 0 || p >= m_workers) return;
        cpu_state& c = m_cpus[static_cast<std::size_t>(p)];
        if (!c.gate.complete(pfn)) return;
        c.held.push_back(pfn);
        c.touch_pending = true;
        --c.left;
        ++m_faulted;
    }

    workload_score score(vtime_ns elapsed) const override { return count_score(m_faulted, "pages"); }

    released_blocks release_all() override
    {
        return release_each(m_cpus, [](auto& c, released_blocks& out) {
            append_pages(out, c.held);
            append_pages(out, c.dirty);
            append_pages(out, c.purging, c.cursor);
            c.held.clear();
            c.dirty.clear();
            c.purging.clear();
        });
    }

private:
    enum class phase : std::uint8_t { start, fault, release };
    struct cpu_state {
        alloc_gate gate;
        rng r;
        phase ph = phase::start;
        bool touch_pending = false;
        std::uint32_t left = 0; // pages of this run still to fault in
        std::vector<mm::pfn_t> held; // faulted in, in use
        std::vector<mm::pfn_t> dirty; // freed to the allocator, not yet purged
        std::vector<mm::pfn_t> purging; // a purger's current run of frees
        std::size_t cursor = 0;
    };

    // A purger's next action: the next free of its run, or a new run from its workers' dirty lists.
    cpu_action purge(int p, cpu_state& c)
    {
        if (c.cursor < c.purging.size()) {
            const std::size_t i = c.cursor++;
            return free_in_order(c.purging, i);
        }
        c.purging.clear();
        c.cursor = 0;
        for (int w = p - m_workers; w < m_workers; w += m_purgers) {
            auto& d = m_cpus[static_cast<std::size_t>(w)].dirty;
            c.purging.insert(c.purging.end(), d.begin(), d.end());
            d.clear();
        }
        if (c.purging.empty()) return idle(m_purge_ns);
        return purge(p, c);
    }

    void on_intensity() override { m_run_pages = scaled_amount(m_params.get("run_kib") / 4, 1e9); }

    int m_purgers = 1, m_workers = 0;
    std::uint32_t m_run_pages = 1;
    std::size_t m_dirty_max = 1;
    double m_work_ns = 0;
    vtime_ns m_purge_ns = 0;
    std::vector<cpu_state> m_cpus;
    std::uint64_t m_faulted = 0;
};

} // namespace

std::unique_ptr<workload> make_jemalloc_purge()
{
    return std::make_unique<jemalloc_purge>();
}

} // namespace pcplab::sim::workloads
