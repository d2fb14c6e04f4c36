// page-fault1: will-it-scale's page_fault1, the load of seed 001 (Aaron Lu, free_pcppages_bulk picking).
//
// The real benchmark (antonblanchard/will-it-scale, tests/page_fault1.c): every task loops forever over
//   mmap 128 MiB anonymous private; write one byte to every 4 KiB page; munmap.
// and counts one "iteration" per page written, so the published score (ops/s) is page faults per second.
// Each write faults: do_anonymous_page allocates one order-0 page (GFP_HIGHUSER_MOVABLE: MOVABLE, any zone up
// to ZONE_MOVABLE) and zeroes it. The first fault in every 2 MiB also allocates the PTE page (pte_alloc:
// GFP_PGTABLE_USER, order 0, UNMOVABLE, up to ZONE_NORMAL, zeroed). munmap's zap_pte_range frees the data pages
// in address order, then free_pgtables the PTE pages.
//
// Model, per task (one task per CPU, placed as will-it-scale's -t N: cores first, nodes in turn), after a
// start offset of 1..100 us (the tasks are forked one after another):
//   for each of the 32768 pages: [every 512th: alloc PTE page, compute clear] alloc data page, compute clear
//   then free the 32768 data pages in address (= allocation) order, then the 64 PTE pages.
// "compute clear" is env.user_ns_per_page (the cost model's clear_page time). Not modelled: the fault
// trap, memcg charge and LRU insertion (lru_lock), the mmap/munmap syscalls themselves (one each per 32768
// faults) and the TLB flush; they cost the same with every patch switch, so they only dilute the score.
// THP is taken as disabled (the seed's profile is order-0 zone->lock contention).
//
// Parameters:
//   tasks     0 = intensity x CPUs (intensity 1 = the seed's "full load", one task per CPU)
//   mmap_mib  128 (MEMSIZE in page_fault1.c)
//   loops     0 = forever (will-it-scale's 5 minutes); N: every task stops after N loops, and the workload
//             is finished when all have (the run's elapsed time is then the last task's end)
// Score: iterations = data pages faulted (will-it-scale's counter). Seed measure "iterations/s": iterations
// per virtual second of the run, what will-it-scale reports (runtest.py averages its per-second samples).
// Why a rate over whole loops for the seed: under a saturated zone->lock the tasks move in convoy (all fault,
// then all unmap), so a count taken at a fixed instant jumps by a whole round of faults or not at all (seed
// 001 at 150 ms: every task had faulted exactly 3 loops with the switch off and on, 0% apart); the time to
// finish N loops is continuous in the lock costs.
#include "sim/workloads/registry_internal.hpp"
#include "sim/workloads/rng.hpp"
#include "sim/workloads/task_state.hpp"
#include "sim/workloads/workload_base.hpp"

#include <algorithm>

namespace pcplab::sim::workloads
{
namespace
{

constexpr unsigned PTRS_PER_PTE = 512; // one PTE page maps 2 MiB
constexpr vtime_ns PARK_NS = 10'000'000; // an unused CPU looks again every 10 ms (intensity may change)
// will-it-scale forks the tasks one after another, so they reach their loops a few microseconds apart; a
// start offset drawn from 1..100 us (E) stands for that (and keeps the CPUs out of artificial lockstep).
constexpr vtime_ns START_JITTER_NS = 100'000;

class page_fault1 final : public workload_base
{
public:
    page_fault1()
    {
        m_params.add("tasks", 0, "processes, one per CPU (0 = intensity x CPUs; the seed ran one per CPU)", 0, 1e6);
        m_params.add("mmap_mib", 128, "MiB mapped, written and unmapped per loop (page_fault1.c: 128)", 1, 1 << 20);
        m_params.add("loops", 0, "loops per task, then it stops (0 = forever)", 0, 1e9);
    }
    std::string_view name() const override { return "page-fault1"; }
    status settings_problem(const workload_env& env) const override
    {
        return one_per_cpu_problem(env, "tasks", "task");
    }

    void attach(const workload_env& env) override
    {
        attach_base(env);
        m_pages = static_cast<std::uint32_t>(m_params.get("mmap_mib") * 256);
        m_loops = static_cast<std::uint64_t>(m_params.get("loops"));
        reset_states(m_tasks, m_order.size(), TAG_PAGE_FAULT1);
        for (auto& t : m_tasks) {
            t.data.reserve(m_pages);
            t.ptes.reserve((m_pages + PTRS_PER_PTE - 1) / PTRS_PER_PTE);
        }
        m_iterations = 0;
        m_tasks_finished = 0;
        on_intensity();
    }

    cpu_action next(int cpu, vtime_ns now) override
    {
        int p = place_of(cpu);
        if (p < 0 || m_released) return done();
        task& t = m_tasks[p];
        if (t.ph == phase::finished) return done();
        cpu_action a;
        if (t.gate.pending(a)) return a;
        for (;;) {
            switch (t.ph) {
            case phase::parked:
                if (!t.active) return idle(PARK_NS);
                t.ph = phase::fault;
                if (!t.started) {
                    t.started = true;
                    return idle(t.r.between(1, START_JITTER_NS));
                }
                continue;
            case phase::fault:
                if (take_touch(t.touch_pending, a)) return a;
                if (t.data.size() == m_pages) {
                    t.ph = phase::munmap;
                    t.free_cursor = 0;
                    continue;
                }
                if (t.data.size() % PTRS_PER_PTE == 0 && !t.pte_ready) {
                    t.pending_pte = true;
                    return t.gate.issue(alloc_kernel(0));
                }
                t.pending_pte = false;
                return t.gate.issue(alloc_user(0));
            case phase::munmap: {
                std::size_t i = t.free_cursor++;
                if (i < t.data.size()) return free_in_order(t.data, i);
                i -= t.data.size();
                if (i < t.ptes.size()) return free_in_order(t.ptes, i);
                t.data.clear();
                t.ptes.clear();
                t.pte_ready = false;
                ++t.cycles;
                if (m_loops && t.cycles >= m_loops) {
                    t.ph = phase::finished;
                    ++m_tasks_finished;
                    return done();
                }
                t.ph = t.active ? phase::fault : phase::parked;
                continue;
            }
            case phase::finished:
                return done();
            }
        }
    }

    void allocated(int cpu, mm::pfn_t pfn, vtime_ns now) override
    {
        int p = place_of(cpu);
        if (p < 0) return;
        task& t = m_tasks[p];
        if (!t.gate.complete(pfn)) return;
        t.touch_pending = true; // both pages are zeroed before use
        if (t.pending_pte) {
            t.ptes.push_back(pfn);
            t.pte_ready = true;
        } else {
            t.data.push_back(pfn);
            t.pte_ready = t.data.size() % PTRS_PER_PTE != 0;
            ++m_iterations;
        }
    }

    workload_score score(vtime_ns elapsed) const override
    {
        workload_score s = count_score(m_iterations, "iterations");
        s.seed_measure = "iterations/s";
        s.seed_measure_value = elapsed ? static_cast<double>(m_iterations) * 1e9 / static_cast<double>(elapsed) : 0;
        return s;
    }
    // With `loops`: once every task that runs has done its loops (tasks parked by the intensity never run).
    bool finished() const override
    {
        if (m_released) return true;
        if (!m_loops) return false;
        int active = 0;
        for (const auto& t : m_tasks) active += t.active || t.ph == phase::finished ? 1 : 0;
        return active > 0 && m_tasks_finished >= static_cast<std::uint64_t>(active);
    }

    released_blocks release_all() override
    {
        return release_each(m_tasks, [](auto& t, released_blocks& out) {
            append_pages(out, t.data, t.ptes, t.ph == phase::munmap ? t.free_cursor : 0);
            t.data.clear();
            t.ptes.clear();
        });
    }

private:
    enum class phase : std::uint8_t { parked, fault, munmap, finished };
    struct task {
        alloc_gate gate;
        phase ph = phase::parked;
        bool active = false;
        bool started = false;
        rng r;
        bool touch_pending = false; // the page just allocated is still to be written
        bool pending_pte = false; // the outstanding allocation is a PTE page
        bool pte_ready = false; // the PTE page of the current 2 MiB is there
        std::size_t free_cursor = 0;
        std::uint64_t cycles = 0;
        std::vector<mm::pfn_t> data; // faulted pages, in address order
        std::vector<mm::pfn_t> ptes;
    };

    void on_intensity() override
    {
        int n = m_params.get("tasks") > 0 ? std::min(nr_places(), static_cast<int>(m_params.get("tasks")))
                                          : scaled_count(m_env.intensity, nr_places());
        for (std::size_t i = 0; i < m_tasks.size(); ++i) m_tasks[i].active = static_cast<int>(i) < n;
    }

    std::uint32_t m_pages = 0;
    std::uint64_t m_loops = 0;
    std::vector<task> m_tasks;
    std::uint64_t m_iterations = 0;
    std::uint64_t m_tasks_finished = 0;
};

} // namespace

std::unique_ptr<workload> make_page_fault1()
{
    return std::make_unique<page_fault1>();
}

} // namespace pcplab::sim::workloads
