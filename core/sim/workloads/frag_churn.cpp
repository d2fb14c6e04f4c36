// frag-churn: file pages streamed through memory whose pageblocks long-lived unmovable allocations have
// polluted, the state in which rmqueue_bulk refills the movable PCP lists by falling back (Johannes
// Weiner, "mm: page_alloc: speed up fallbacks in rmqueue_bulk()", v6.15; scenario 007).
//
// A real counterpart: a long-running server whose slab caches once grew over most of memory and were
// shrunk again object by object, so every pageblock keeps some slabs; then a file larger than the free
// memory is read through mmap (vm-scalability lru-file-mmap-read), its pages turned over by reclaim.
//
// Model, per task (one per CPU; intensity x the CPUs run one, placed as workload_base places them), in four
// phases. The setup divides memory among the tasks the intensity gives when the workload is attached; a live
// change then sets how many of them stream (the others keep their slabs and pages and wait), up to that number:
// more would need memory the setup has already handed out, so a higher intensity applies from the next boot.
//   pollute: allocate order-3 UNMOVABLE blocks (SLUB slabs: slub_max_order = PAGE_ALLOC_COSTLY_ORDER) until
//            this task holds its share of pollute_pct of the machine's pages. Each unmovable fallback claims
//            a whole movable block, so the pageblocks turn UNMOVABLE one after the other.
//   punch:   free each slab with probability free_pct / 100 (the shrunk caches). A pageblock keeps about
//            (100 - free_pct)% unmovable pages, more than half for free_pct < 50, so a movable request may
//            take a page from it but never claim it; its free space lies in order-3 chunks and their merges.
//   wait:    until every task has punched (the benchmark starts after its setup);
//   stream:  allocate order-0 MOVABLE pages (the file's), write each, and keep the newest ring_pct share of
//            the machine's pages; beyond it every new page first frees the oldest (reclaim's LRU order).
//            A freed page goes back to the lists of its pageblock's type: one taken from an unmovable block
//            returns there, so the movable lists stay short and the refills keep falling back.
// Parameters:
//   pollute_pct  90 (E: slab once grew over nearly all memory; the rest stays movable)
//   free_pct     45 (E: below half, so the polluted pageblocks stay unclaimable)
//   ring_pct     30 (E: the file's pages in memory; with the unmovable rest, about 80% of memory in use)
// Score: file pages read (stream allocations); its measure, the rate of the stream (file pages per virtual
// second from the moment the last task finished its punch phase: the setup is not timed).
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

constexpr unsigned SLAB_ORDER = 3;
constexpr vtime_ns WAIT_STEP_NS = 100'000; // how often a CPU that has punched looks whether all have

class frag_churn final : public workload_base
{
public:
    frag_churn()
    {
        m_params.add("pollute_pct", 90, "share of memory first filled with order-3 unmovable slabs, %", 1, 95);
        m_params.add("free_pct", 45, "share of those slabs freed again, %", 0, 100);
        m_params.add("ring_pct", 30, "share of memory the streamed file pages keep, %", 0.01, 90);
    }
    std::string_view name() const override { return "frag-churn"; }

    void attach(const workload_env& env) override
    {
        attach_base(env);
        m_tasks = static_cast<std::size_t>(scaled_count(env.intensity, nr_places()));
        m_live_tasks = m_tasks;
        const double per_cpu = static_cast<double>(env.total_pages) / static_cast<double>(m_tasks);
        m_slabs = static_cast<std::uint32_t>(per_cpu * m_params.get("pollute_pct") / 100.0 / (1U << SLAB_ORDER));
        m_free_per_mille = static_cast<std::uint32_t>(std::lround(m_params.get("free_pct") * 10));
        m_ring = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(per_cpu * m_params.get("ring_pct") / 100.0));
        reset_states(m_cpus, m_order.size(), TAG_FRAG_CHURN);
        m_read = 0;
        m_origin = std::numeric_limits<vtime_ns>::max();
        m_streaming = 0;
        m_all_streaming_at = 0;
        for (auto& c : m_cpus) {
            c.slabs.reserve(m_slabs);
            c.ring.assign(m_ring, mm::NO_PFN);
        }
    }

    cpu_action next(int cpu, vtime_ns now) override
    {
        int p = place_of(cpu);
        if (p < 0 || static_cast<std::size_t>(p) >= m_tasks || m_released) return done();
        cpu_state& c = m_cpus[p];
        m_origin = std::min(m_origin, now);
        cpu_action a;
        if (c.gate.pending(a)) return a;
        for (;;) {
            switch (c.ph) {
            case phase::pollute:
                if (c.slabs.size() < m_slabs) return c.gate.issue(alloc_kernel(SLAB_ORDER));
                c.ph = phase::punch;
                c.cursor = 0;
                continue;
            case phase::punch:
                while (c.cursor < c.slabs.size()) {
                    mm::pfn_t& s = c.slabs[c.cursor++];
                    if (!c.r.chance(m_free_per_mille, 1000)) continue;
                    const mm::pfn_t pfn = s;
                    s = mm::NO_PFN;
                    return free_block(pfn, SLAB_ORDER);
                }
                c.ph = phase::wait;
                if (++m_streaming == m_tasks) m_all_streaming_at = now;
                continue;
            case phase::wait:
                // The stream starts when every CPU has placed and punched its slabs: otherwise the first
                // streams would slow down the others' setup, and with it their own measure.
                if (m_streaming < m_tasks) return idle(WAIT_STEP_NS);
                c.ph = phase::stream;
                continue;
            case phase::stream:
                if (take_touch(c.touch_pending, a)) return a;
                if (static_cast<std::size_t>(p) >= m_live_tasks) return idle(WAIT_STEP_NS); // parked by the intensity
                if (mm::pfn_t& oldest = c.ring[c.head]; oldest != mm::NO_PFN) {
                    const mm::pfn_t pfn = oldest;
                    oldest = mm::NO_PFN;
                    return free_block(pfn, 0);
                }
                return c.gate.issue(alloc_user(0));
            }
        }
    }

    void allocated(int cpu, mm::pfn_t pfn, vtime_ns now) override
    {
        int p = place_of(cpu);
        if (p < 0) return;
        cpu_state& c = m_cpus[p];
        if (!c.gate.complete(pfn)) return;
        if (c.ph == phase::pollute) {
            c.slabs.push_back(pfn);
            return;
        }
        c.ring[c.head] = pfn;
        c.head = (c.head + 1) % m_ring;
        c.touch_pending = true;
        ++m_read;
    }

    workload_score score(vtime_ns elapsed) const override
    {
        workload_score s = count_score(m_read, "file pages");
        s.seed_measure = "file pages a second, streaming";
        const vtime_ns setup = m_all_streaming_at - std::min(m_origin, m_all_streaming_at);
        if (m_streaming == m_tasks && elapsed > setup)
            s.seed_measure_value = static_cast<double>(m_read) / (static_cast<double>(elapsed - setup) / 1e9);
        return s;
    }

    void on_intensity() override
    {
        m_live_tasks = std::min(m_tasks, static_cast<std::size_t>(scaled_count(m_env.intensity, nr_places())));
    }

    released_blocks release_all() override
    {
        return release_each(m_cpus, [](auto& c, released_blocks& out) {
            for (mm::pfn_t s : c.slabs)
                if (s != mm::NO_PFN) out.emplace_back(s, SLAB_ORDER);
            append_present(out, c.ring);
            c.slabs.clear();
            c.ring.clear();
        });
    }

private:
    enum class phase : std::uint8_t { pollute, punch, wait, stream };
    struct cpu_state {
        alloc_gate gate;
        rng r;
        phase ph = phase::pollute;
        bool touch_pending = false;
        std::size_t cursor = 0; // punch: the next slab to decide on
        std::size_t head = 0; // stream: the ring slot of the next page (holding the oldest)
        std::vector<mm::pfn_t> slabs; // NO_PFN once freed
        std::vector<mm::pfn_t> ring;
    };

    std::uint32_t m_slabs = 0; // per CPU
    std::uint32_t m_free_per_mille = 0;
    std::uint32_t m_ring = 1; // per CPU
    std::vector<cpu_state> m_cpus;
    std::size_t m_tasks = 1; // the first m_tasks places run a task
    std::size_t m_live_tasks = 1; // of those, the first m_live_tasks stream (a live intensity change)
    std::uint64_t m_read = 0;
    vtime_ns m_origin = 0; // the earliest time a CPU asked for work (the round's start)
    std::size_t m_streaming = 0; // CPUs done with their punch phase (waiting or streaming)
    vtime_ns m_all_streaming_at = 0; // when the last CPU finished its punch phase
};

} // namespace

std::unique_ptr<workload> make_frag_churn()
{
    return std::make_unique<frag_churn>();
}

} // namespace pcplab::sim::workloads
