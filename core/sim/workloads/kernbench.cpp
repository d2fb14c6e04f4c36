// kernbench: a parallel kernel build (make -jN), the load of seed 000 (mmtests config-workload-kernbench-max,
// allmodconfig, -j256 on a 2-socket EPYC 2) and, as make -j28 x 8, of seed 002.
//
// The real benchmark: make keeps N job slots busy; every job is a short-lived process tree (gcc driver, cc1,
// as) that compiles one unit and exits. What the page allocator sees of a job:
//   - exec: for each of three processes, a kernel stack (THREAD_SIZE 16 KiB = 4 order-0 pages with vmapped
//     stacks), page-table upper levels and slab growth (order-0 UNMOVABLE), and the PGD: x86's _pgd_alloc
//     takes PGD_ALLOCATION_ORDER pages, order 1 with CONFIG_PAGE_TABLE_ISOLATION (kernel and user PGD in one
//     8 KiB-aligned block, Dave Hansen's KAISER patch, 2017), a distro default. A compile-time constant
//     through v6.14; from v6.15 chosen at boot from X86_FEATURE_PTI (4ce385f56434, "x86/mm: Fix _pgd_alloc()
//     for Xen PV mode", Juergen Gross), so order 0 there on CPUs that boot without PTI.
//   - cc1's heap: GCC's garbage collector does not collect below ggc-min-heapsize (GCC docs: RAM/8, at most
//     128 MiB), so on a server cc1 only grows: every heap page it touches is a fresh anonymous fault
//     (order 0, MOVABLE), and all of them are freed at exit. It grows in bursts: glibc extends the heap by
//     at least M_TOP_PAD (128 KiB) and ggc-page maps GGC_QUIRE_SIZE (256 pages, 1 MiB) at a time; the
//     compiler then works through what it allocated. Every 512 anonymous pages need a PTE page (UNMOVABLE).
//   - output: cc1 writes the assembly to a temporary file, as writes the object, make's fixdep the .cmd file:
//     page-cache pages (MOVABLE, up to ZONE_MOVABLE).
//   - exit: exit_mmap frees the anonymous pages and the page tables, then __mmdrop frees the PGD
//     (mm_free_pgd: an order-1 free right after a long order-0 run, the trigger of v5.18..v6.6's free_high on
//     process exit that Huang Ying traced in kbuild, "mm, pcp: avoid to drain PCP when process exit", v6.7),
//     then the kernel stack; the temporary file is unlinked.
//
// Model, per job (its sizes drawn from the job's own stream, so job k is the same whichever CPU runs it):
//   exec: per process STACK_PAGES + UPPER_PAGES order-0 kernel pages and a PGD of order pgd_order, then
//         EXEC_NS of compute;
//   heap: anon pages in bursts of 32..256 pages, each page = alloc + clear (env.user_ns_per_page); after a
//         burst, compute burst x (job CPU time / anon pages); a PTE page first in every 2 MiB;
//   output: page-cache pages, each alloc + copy (user_ns_per_page);
//   exit: free the user pages in allocation order, then the kernel blocks in reverse: cc1's page tables,
//         then per process its upper levels, its PGD and its stack, so each PGD follows order-0 frees (no two
//         high-order frees in a row: v6.7's PCPF_PREV_FREE_HIGH_ORDER test never passes on them).
// Not modelled: SLUB's slab pages (order 1..3 for task_struct, mm_struct, signal_cache ...), which reach the
// page allocator only when a slab fills or empties past the partial lists; nothing published says how often
// in a kernel build, so every slab page stays in the order-0 estimate of UPPER_PAGES.
// Not modelled: reading the (already cached) sources and headers, which allocates nothing; the object
// files' page cache outliving the job until reclaim (freed at exit here, so a finished build holds nothing).
// Job slots are CPUs (make -jN with N <= CPUs, one job per CPU at a time), placed cores first, nodes in turn.
//
// Parameters (E = estimate, reasoning given):
//   slots         0 = intensity x CPUs (kernbench-max: make -j<CPUs>)
//   pgd_order     1: CONFIG_PAGE_TABLE_ISOLATION=y (distro kernels, and the 0-Day kernels of seed 002 per
//                 Huang Ying's trace); 0 without it.
//   jobs          0 = 4 per slot. A real allmodconfig build is ~100 per slot on 256 CPUs; 4 keep a run short
//                 while every slot still starts several jobs, so starts and exits drift apart as in a build.
//   anon_mib_min/max  32 / 96: cc1's peak heap for a kernel unit with its headers (E: tens of MiB, below
//                 the 128 MiB GC threshold).
//   output_kib_min/max 256 / 2048: temporary .s (several times the object), .o, .cmd (E).
//   job_ms_min/max  250 / 750: CPU time of one unit (E; consistent with seed 000's 13249 s of user time
//                 over the ~25k units (E) of an allmodconfig build, about 0.5 s each). That is CPU time in a
//                 loaded build, where the other thread of the core compiles too; the engine's compute is the
//                 time alone on the core (workload_env::smt_alone_share converts), which it stretches again
//                 while the sibling is busy (engine_prices.hpp, smt_stretched_ns).
// Finite: finished() once every job has exited. Score: jobs; seed measure: elapsed seconds from the first
// step to the exit of the last job (kernbench's "elsp").
#include "sim/workloads/registry_internal.hpp"
#include "sim/workloads/rng.hpp"
#include "sim/workloads/task_state.hpp"
#include "sim/workloads/workload_base.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pcplab::sim::workloads
{
namespace
{

constexpr unsigned PTRS_PER_PTE = 512;
constexpr unsigned PROCS_PER_JOB = 3; // gcc driver, cc1, as
constexpr unsigned STACK_PAGES = 4; // THREAD_SIZE 16 KiB, vmapped: order-0 pages
// pud/pmd and slab pages of one process: with the stack and an order-1 PGD, 8 pages a process, the 24 kernel
// pages a job had when every one was order 0 (E).
constexpr unsigned UPPER_PAGES = 2;
constexpr unsigned BLOCKS_PER_PROC = STACK_PAGES + 1 + UPPER_PAGES;
constexpr unsigned EXEC_BLOCKS = PROCS_PER_JOB * BLOCKS_PER_PROC;
constexpr vtime_ns EXEC_NS = 500'000; // fork + exec + dynamic linking of driver, cc1 and as (E)
constexpr unsigned BURST_MIN = 32, BURST_MAX = 256; // M_TOP_PAD .. GGC_QUIRE_SIZE, in pages
constexpr vtime_ns PARK_NS = 10'000'000;

class kernbench final : public workload_base
{
public:
    kernbench()
    {
        m_params.add("slots", 0, "make -j N job slots (0 = intensity x CPUs)", 0, 1e6);
        m_params.add("pgd_order", 1, "PGD allocation order: 1 with x86 page-table isolation, 0 without", 0, 1);
        m_params.add("jobs", 0, "compile jobs in the build (0 = 4 per slot)", 0, 1e9);
        m_params.add("anon_mib_min", 32, "smallest cc1 heap, MiB", 1, 4096);
        m_params.add("anon_mib_max", 96, "largest cc1 heap, MiB", 1, 4096);
        m_params.add("output_kib_min", 256, "smallest page-cache output (.s, .o, .cmd), KiB", 4, 1 << 20);
        m_params.add("output_kib_max", 2048, "largest page-cache output, KiB", 4, 1 << 20);
        m_params.add("job_ms_min", 250, "shortest job CPU time, ms", 0, 1e6);
        m_params.add("job_ms_max", 750, "longest job CPU time, ms", 0, 1e6);
    }
    std::string_view name() const override { return "kernbench"; }
    status settings_problem(const workload_env& env) const override { return one_per_cpu_problem(env, "slots", "job"); }

    void attach(const workload_env& env) override
    {
        attach_base(env);
        auto pages = [&](double mib) { return static_cast<std::uint32_t>(std::max(1.0, mib * 256)); };
        m_anon_min = pages(m_params.get("anon_mib_min"));
        m_anon_max = std::max(m_anon_min, pages(m_params.get("anon_mib_max")));
        m_out_min = static_cast<std::uint32_t>(std::max(1.0, m_params.get("output_kib_min") / 4));
        m_out_max = std::max(m_out_min, static_cast<std::uint32_t>(m_params.get("output_kib_max") / 4));
        // The job CPU times are a loaded build's (both threads of every core compiling): the time alone is less.
        const double alone = m_env.smt_alone_share * 1e6;
        m_job_ns_min = static_cast<vtime_ns>(m_params.get("job_ms_min") * alone);
        m_job_ns_max = std::max(m_job_ns_min, static_cast<vtime_ns>(m_params.get("job_ms_max") * alone));
        m_pgd_order = static_cast<unsigned>(m_params.get("pgd_order"));
        m_cpus.clear();
        m_cpus.resize(m_order.size());
        for (auto& c : m_cpus) {
            c.user.reserve(m_anon_max + m_out_max);
            c.kernel.reserve(EXEC_BLOCKS + m_anon_max / PTRS_PER_PTE + 1);
        }
        on_intensity();
        double jobs = m_params.get("jobs");
        m_total_jobs = jobs > 0 ? static_cast<std::uint64_t>(jobs) : 4ULL * static_cast<std::uint64_t>(m_slots);
        m_next_job = m_jobs_done = 0;
        m_start = std::numeric_limits<vtime_ns>::max();
        m_last_exit = 0;
    }

    cpu_action next(int cpu, vtime_ns now) override
    {
        int p = place_of(cpu);
        if (p < 0 || m_released) return done();
        m_start = std::min(m_start, now);
        cpu_state& c = m_cpus[p];
        cpu_action a;
        if (c.gate.pending(a)) return a;
        for (;;) {
            switch (c.ph) {
            case phase::between_jobs:
                if (m_next_job >= m_total_jobs) {
                    c.ph = phase::finished;
                    continue;
                }
                if (!c.active) return idle(PARK_NS);
                start_job(c, m_next_job++);
                continue;
            case phase::exec:
                if (c.kernel.size() < EXEC_BLOCKS)
                    return issue(c, pending::kernel, alloc_kernel(exec_block_order(c.kernel.size())));
                c.ph = phase::heap;
                return compute(EXEC_NS);
            case phase::heap:
                if (take_touch(c.touch_pending, a)) return a;
                if (c.burst_left == 0) {
                    if (c.think_pending) {
                        c.think_pending = false;
                        auto ns = static_cast<vtime_ns>(std::llround(c.think_ns_per_page * c.burst_size));
                        if (ns) return compute(ns);
                    }
                    if (c.anon_left == 0) {
                        c.ph = phase::output;
                        continue;
                    }
                    c.burst_size = std::min<std::uint32_t>(c.anon_left, c.job_rng.between(BURST_MIN, BURST_MAX));
                    c.burst_left = c.burst_size;
                }
                if (c.anon_faulted % PTRS_PER_PTE == 0 && !c.pte_ready) return issue(c, pending::pte, alloc_kernel(0));
                return issue(c, pending::anon, alloc_user(0));
            case phase::output:
                if (take_touch(c.touch_pending, a)) return a;
                if (c.output_left > 0) return issue(c, pending::output, alloc_user(0));
                c.ph = phase::exit;
                c.free_cursor = 0;
                continue;
            case phase::exit: {
                std::size_t i = c.free_cursor++;
                if (i < c.user.size()) return free_in_order(c.user, i);
                i -= c.user.size();
                if (i < c.kernel.size()) return free_kernel_reversed(c.kernel, i);
                c.user.clear();
                c.kernel.clear();
                ++m_jobs_done;
                m_last_exit = std::max(m_last_exit, now);
                c.ph = phase::between_jobs;
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
        cpu_state& c = m_cpus[p];
        if (!c.gate.complete(pfn)) return;
        switch (c.pend) {
        case pending::kernel:
            c.kernel.push_back({pfn, c.gate.request().order});
            break;
        case pending::pte:
            c.kernel.push_back({pfn, 0});
            c.pte_ready = true;
            c.touch_pending = true; // zeroed
            break;
        case pending::anon:
            c.user.push_back(pfn);
            --c.anon_left;
            ++c.anon_faulted;
            c.pte_ready = c.anon_faulted % PTRS_PER_PTE != 0;
            c.touch_pending = true;
            if (--c.burst_left == 0) c.think_pending = true;
            break;
        case pending::output:
            c.user.push_back(pfn);
            --c.output_left;
            c.touch_pending = true;
            break;
        }
    }

    workload_score score(vtime_ns elapsed) const override
    {
        workload_score s = count_score(m_jobs_done, "jobs");
        s.seed_measure = "elapsed seconds";
        bool all_done = m_jobs_done == m_total_jobs && m_start <= m_last_exit;
        s.seed_measure_value
            = (all_done ? static_cast<double>(m_last_exit - m_start) : static_cast<double>(elapsed)) / 1e9;
        return s;
    }

    bool finished() const override { return m_released || m_jobs_done == m_total_jobs; }

    released_blocks release_all() override
    {
        return release_each(m_cpus, [](auto& c, released_blocks& out) {
            const std::size_t freed = c.ph == phase::exit ? c.free_cursor : 0;
            append_pages(out, c.user, freed);
            // The kernel blocks are freed last to first: those still held are the first ones.
            const std::size_t kernel_freed = freed > c.user.size() ? freed - c.user.size() : 0;
            for (std::size_t k = 0; k + kernel_freed < c.kernel.size(); ++k)
                out.emplace_back(c.kernel[k].pfn, c.kernel[k].order);
            c.user.clear();
            c.kernel.clear();
        });
    }

private:
    enum class phase : std::uint8_t { between_jobs, exec, heap, output, exit, finished };
    enum class pending : std::uint8_t { kernel, pte, anon, output };
    struct cpu_state {
        alloc_gate gate;
        phase ph = phase::between_jobs;
        pending pend = pending::kernel;
        bool active = false;
        bool touch_pending = false; // the page just allocated is still to be written
        bool think_pending = false; // a burst just ended: the compiler works on it
        bool pte_ready = false;
        rng job_rng;
        std::uint32_t anon_left = 0, anon_faulted = 0, burst_left = 0, burst_size = 0, output_left = 0;
        double think_ns_per_page = 0;
        std::size_t free_cursor = 0;
        std::vector<mm::pfn_t> user; // anonymous and page-cache pages, in allocation order
        std::vector<block> kernel; // exec blocks (per process: stack, PGD, upper levels), then cc1's page tables
    };

    // The order of exec block k: each process allocates its stack (dup_task_struct), its PGD (mm_init's
    // pgd_alloc), then its upper page-table levels and slab pages.
    unsigned exec_block_order(std::size_t k) const { return k % BLOCKS_PER_PROC == STACK_PAGES ? m_pgd_order : 0; }

    // Exit frees the kernel blocks last to first: page tables (exit_mmap), then per process the upper levels,
    // the PGD (__mmdrop) and the stack. The next one is named as a prefetch hint.
    static cpu_action free_kernel_reversed(const std::vector<block>& kernel, std::size_t i)
    {
        const block& b = kernel[kernel.size() - 1 - i];
        cpu_action a = free_block(b.pfn, b.order);
        if (i + 1 < kernel.size()) a.next_pfn = kernel[kernel.size() - 2 - i].pfn;
        return a;
    }

    cpu_action issue(cpu_state& c, pending what, const cpu_action& a)
    {
        c.pend = what;
        return c.gate.issue(a);
    }

    void start_job(cpu_state& c, std::uint64_t job)
    {
        c.job_rng = rng(stream_seed(m_env.seed, TAG_KERNBENCH_JOB, job));
        c.anon_left = static_cast<std::uint32_t>(c.job_rng.between(m_anon_min, m_anon_max));
        c.output_left = static_cast<std::uint32_t>(c.job_rng.between(m_out_min, m_out_max));
        // Drawn in microseconds (the range fits the generator's 32 bits for any sensible setting).
        vtime_ns job_us = c.job_rng.between(m_job_ns_min / 1000, m_job_ns_max / 1000);
        c.think_ns_per_page = static_cast<double>(job_us * 1000) / c.anon_left;
        c.anon_faulted = c.burst_left = c.burst_size = 0;
        c.pte_ready = c.touch_pending = c.think_pending = false;
        c.ph = phase::exec;
    }

    void on_intensity() override
    {
        double slots = m_params.get("slots");
        m_slots
            = slots > 0 ? std::min(nr_places(), static_cast<int>(slots)) : scaled_count(m_env.intensity, nr_places());
        for (std::size_t i = 0; i < m_cpus.size(); ++i) m_cpus[i].active = static_cast<int>(i) < m_slots;
    }

    std::uint32_t m_anon_min = 0, m_anon_max = 0, m_out_min = 0, m_out_max = 0;
    unsigned m_pgd_order = 1;
    vtime_ns m_job_ns_min = 0, m_job_ns_max = 0;
    int m_slots = 0;
    std::vector<cpu_state> m_cpus;
    std::uint64_t m_total_jobs = 0, m_next_job = 0, m_jobs_done = 0;
    vtime_ns m_start = 0, m_last_exit = 0;
};

} // namespace

std::unique_ptr<workload> make_kernbench()
{
    return std::make_unique<kernbench>();
}

} // namespace pcplab::sim::workloads
