// stress-vm: stress-ng --vm N --vm-bytes B, the load of seed 003 (Joshua Hahn, batched free_pcppages_bulk:
// --vm 50 --vm-bytes 5G neutral, --vm 10 --vm-bytes 30G +4.9% bogo ops, on 251 GiB / 176 CPUs).
//
// The real benchmark (ColinIanKing/stress-ng, stress-vm.c, stress_vm_child): each of N workers loops
//   mmap B bytes anonymous; run one method of the "all" rotation over the buffer (write patterns, read them
//   back: each method walks the whole buffer one to several times); munmap.
// The first write to each page faults it in (order 0, MOVABLE, zeroed; a PTE page per 2 MiB). With N x B
// above free memory the zones sink below their watermarks: kswapd and direct reclaim swap out the least
// recently used anonymous pages, and the worker's next sweep faults them in again.
//
// Model, per worker (placed cores first, nodes in turn):
//   pass: sweeps = 1..4 (drawn per pass from the worker's stream, standing in for the method rotation);
//         each sweep walks pages 0..n-1: an absent page is faulted (alloc + clear, env.user_ns_per_page) and
//         written; present pages are written in runs of up to 2 MiB (compute);
//   munmap: free the present pages in address order, then the PTE pages.
// Writing a page in a sweep costs 2 x user_ns_per_page (the method writes it and reads it back; E).
// reclaim(nr): the reclaimer takes pages back, SWAP_CLUSTER_MAX (32) at a time from each worker in turn.
// Within a worker it takes the least recently touched pages: for a cyclic sequential sweep these are the
// present pages that follow the worker's cursor (exact LRU order for this access pattern); a hand remembers
// where the last batch stopped, so taking pages costs O(pages taken) amortised.
//
// Parameters:
//   workers  0 = CPUs x 10 / 176, at least 1 (seed 003's --vm 10 on 176 CPUs)
//   vm_mib   0 = 1.2 x memory / workers (seed 003: 10 x 30 GiB on 251 GiB = 1.2 x memory, so reclaim runs);
//            either way multiplied by the intensity. One worker maps at most the machine's memory: the
//            kernel's heuristic overcommit (__vm_enough_memory, OVERCOMMIT_GUESS) refuses a mapping larger
//            than RAM and swap, and the model sizes no swap. An explicit vm_mib beyond it is refused
//            (settings_problem); the derived size and a live intensity change are capped at it.
//   sweeps   0 = drawn 1..4 per pass; a fixed count otherwise
// Score: bogo ops as stress-ng counts them. Each vm method adds to the worker's counter as it goes through
// the buffer (mostly one per 8-byte word, stress-vm.c), and the stressor reports counter >> VM_BOGO_SHIFT
// (12): about one bogo op per 32 KiB processed, so it grows within a pass rather than once per pass. Here:
// pages written by the sweeps (a faulted page counts when it is written) x 4 KiB / 32 KiB. Counting whole
// passes instead gave 0 -> 0 in seed 003's scaled run, where a pass over 1.2 x memory outlasts the run.
#include "sim/workloads/registry_internal.hpp"
#include "sim/workloads/rng.hpp"
#include "sim/workloads/task_state.hpp"
#include "sim/workloads/workload_base.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pcplab::sim::workloads
{
namespace
{

constexpr unsigned PTRS_PER_PTE = 512;
constexpr std::uint32_t SWEEP_RUN = 512; // present pages written per compute action (2 MiB)
constexpr unsigned SWEEPS_MIN = 1, SWEEPS_MAX = 4;
constexpr std::uint32_t DEFAULT_VM_PAGES = 256 * 256; // stress-ng's DEFAULT_VM_BYTES, 256 MiB
constexpr vtime_ns PARK_NS = 10'000'000;
// One bogo op per 32 KiB a method processes: a counter step per 8-byte word, shifted right by 12.
constexpr unsigned BOGO_BYTES_SHIFT = 15;

class stress_vm final : public workload_base
{
public:
    stress_vm()
    {
        m_params.add("workers", 0, "vm workers (0 = CPUs x 10 / 176, seed 003's --vm 10 on 176 CPUs)", 0, 1e6);
        m_params.add("vm_mib", 0, "MiB per worker, x intensity (0 = 1.2 x memory / workers)", 0, 1 << 24);
        m_params.add("sweeps", 0, "sweeps over the buffer per pass (0 = 1..4 drawn per pass)", 0, 1000);
    }
    std::string_view name() const override { return "stress-vm"; }

    status settings_problem(const workload_env& env) const override
    {
        const auto places = placement_order(env).size();
        const double workers = m_params.get("workers");
        if (workers > static_cast<double>(places))
            return pcplab::error("workers=" + number_text(workers) + ": more than the " + std::to_string(places)
                + " CPUs it runs on (at most one worker per CPU)");
        const double mib = m_params.get("vm_mib");
        const double pages = mib * 256 * env.intensity;
        if (mib > 0 && env.total_pages > 0 && pages > static_cast<double>(env.total_pages)) {
            constexpr double pages_per_gib = 262144;
            char what[160];
            std::snprintf(what, sizeof what, "%.1f GiB per worker, more than the machine's %.1f GiB of memory",
                pages / pages_per_gib, static_cast<double>(env.total_pages) / pages_per_gib);
            return pcplab::error("vm_mib=" + number_text(mib)
                + (env.intensity != 1 ? " x intensity " + number_text(env.intensity) : "") + ": " + what
                + " (the kernel's heuristic overcommit refuses a mapping larger than memory)");
        }
        return {};
    }

    void attach(const workload_env& env) override
    {
        attach_base(env);
        double w = m_params.get("workers");
        int workers = w > 0 ? static_cast<int>(w) : static_cast<int>(std::lround(nr_places() * 10.0 / 176));
        workers = std::clamp(workers, nr_places() > 0 ? 1 : 0, nr_places());
        reset_states(m_workers, static_cast<std::size_t>(workers), TAG_STRESS_VM);
        m_reclaim_next = 0;
        m_passes = 0;
        m_pages_swept = 0;
        on_intensity();
    }

    cpu_action next(int cpu, vtime_ns now) override
    {
        int p = place_of(cpu);
        if (p < 0 || m_released) return done();
        if (static_cast<std::size_t>(p) >= m_workers.size()) return idle(PARK_NS);
        worker& w = m_workers[p];
        cpu_action a;
        if (w.gate.pending(a)) return a;
        if (w.ph == phase::start) start_pass(w);
        if (w.ph == phase::sweep) return sweep_step(w);
        return unmap_step(w);
    }

    void allocated(int cpu, mm::pfn_t pfn, vtime_ns now) override
    {
        int p = place_of(cpu);
        if (p < 0 || static_cast<std::size_t>(p) >= m_workers.size()) return;
        worker& w = m_workers[p];
        if (!w.gate.complete(pfn)) return;
        if (w.pending_pte) {
            w.ptes[w.cursor / PTRS_PER_PTE] = pfn;
            return; // the data page is faulted next
        }
        w.slots[w.cursor] = pfn;
        ++w.present;
        w.touch_pending = true;
        ++m_pages_swept;
        advance(w, 1);
    }

    released_blocks reclaim(std::size_t nr) override
    {
        released_blocks out;
        if (m_workers.empty() || m_released) return out;
        std::size_t idle_rounds = 0;
        while (out.size() < nr && idle_rounds < m_workers.size()) {
            worker& w = m_workers[m_reclaim_next];
            m_reclaim_next = (m_reclaim_next + 1) % m_workers.size();
            std::size_t before = out.size();
            take_oldest(w, std::min<std::size_t>(mm::SWAP_CLUSTER_MAX, nr - out.size()), out);
            idle_rounds = out.size() == before ? idle_rounds + 1 : 0;
        }
        return out;
    }

    workload_score score(vtime_ns elapsed) const override
    {
        return count_score(m_pages_swept * mm::PAGE_SIZE >> BOGO_BYTES_SHIFT, "bogo ops", true);
    }

    released_blocks release_all() override
    {
        return release_each(m_workers, [](auto& w, released_blocks& out) {
            append_present(out, w.slots);
            append_present(out, w.ptes);
            w.slots.clear();
            w.ptes.clear();
            w.present = 0;
        });
    }

private:
    enum class phase : std::uint8_t { start, sweep, unmap };
    struct worker {
        alloc_gate gate;
        rng r;
        phase ph = phase::start;
        bool touch_pending = false; // a page was just faulted: zero it and write it
        bool pending_pte = false;
        std::uint32_t n = 0; // pages in this pass's mapping
        std::uint32_t cursor = 0; // the page the worker touches next
        std::uint32_t hand = 0; // every page in [cursor, hand) (cyclic) is absent
        std::uint32_t present = 0;
        unsigned sweep = 0, sweeps = 0;
        std::vector<mm::pfn_t> slots; // page i of the mapping, NO_PFN when absent
        std::vector<mm::pfn_t> ptes; // PTE page of every 2 MiB, NO_PFN until faulted
    };

    void start_pass(worker& w)
    {
        w.n = m_pages;
        w.slots.assign(w.n, mm::NO_PFN);
        w.ptes.assign(static_cast<std::size_t>(w.n / PTRS_PER_PTE + (w.n % PTRS_PER_PTE != 0)), mm::NO_PFN);
        w.cursor = w.hand = w.present = 0;
        w.sweep = 0;
        double fixed = m_params.get("sweeps");
        w.sweeps
            = fixed > 0 ? static_cast<unsigned>(fixed) : static_cast<unsigned>(w.r.between(SWEEPS_MIN, SWEEPS_MAX));
        w.touch_pending = false;
        w.ph = phase::sweep;
    }

    // Move the cursor k pages on (k pages were touched); the absent interval [cursor, hand) keeps its meaning.
    void advance(worker& w, std::uint32_t k)
    {
        bool hand_at_cursor = w.hand == w.cursor;
        w.cursor += k;
        if (w.cursor >= w.n) {
            w.cursor -= w.n;
            ++w.sweep;
        }
        if (hand_at_cursor || w.present == 0) w.hand = w.cursor;
    }

    cpu_action sweep_step(worker& w)
    {
        const vtime_ns write_ns = pages_ns(2);
        if (w.touch_pending) {
            w.touch_pending = false;
            if (vtime_ns ns = pages_ns(1) + write_ns) return compute(ns);
        }
        for (;;) {
            if (w.sweep >= w.sweeps) {
                w.ph = phase::unmap;
                w.cursor = 0;
                w.hand = 0;
                w.sweep = 0;
                return unmap_step(w);
            }
            if (w.slots[w.cursor] == mm::NO_PFN) {
                w.pending_pte = w.ptes[w.cursor / PTRS_PER_PTE] == mm::NO_PFN;
                return w.gate.issue(w.pending_pte ? alloc_kernel(0) : alloc_user(0));
            }
            std::uint32_t run = 0;
            while (run < SWEEP_RUN && run < w.n - w.cursor && w.slots[w.cursor + run] != mm::NO_PFN) ++run;
            advance(w, run);
            m_pages_swept += run;
            if (write_ns) return compute(write_ns * run);
        }
    }

    cpu_action unmap_step(worker& w)
    {
        // The unmap walks the mapping once: cursor 0..n-1 (sweep counts the wrap), then the PTE pages.
        while (w.sweep == 0) {
            mm::pfn_t pfn = w.slots[w.cursor];
            if (pfn != mm::NO_PFN) {
                w.slots[w.cursor] = mm::NO_PFN;
                --w.present;
            }
            advance(w, 1);
            if (pfn != mm::NO_PFN) return free_block(pfn, 0);
        }
        for (auto& pte : w.ptes) {
            if (pte != mm::NO_PFN) {
                mm::pfn_t pfn = pte;
                pte = mm::NO_PFN;
                return free_block(pfn, 0);
            }
        }
        ++m_passes;
        w.ph = phase::start;
        start_pass(w);
        return sweep_step(w);
    }

    // Take up to k of the worker's least recently touched pages (see the header comment).
    void take_oldest(worker& w, std::size_t k, released_blocks& out)
    {
        if (w.present == 0 || w.n == 0) return;
        std::uint32_t i = w.hand;
        std::uint32_t steps = 0;
        std::size_t taken = 0;
        while (taken < k && w.present > 0 && steps < w.n) {
            if (w.slots[i] != mm::NO_PFN) {
                out.emplace_back(w.slots[i], 0U);
                w.slots[i] = mm::NO_PFN;
                --w.present;
                ++taken;
            }
            i = i + 1 == w.n ? 0 : i + 1;
            ++steps;
        }
        w.hand = (w.present == 0 || steps >= w.n) ? w.cursor : i;
    }

    void on_intensity() override
    {
        double mib = m_params.get("vm_mib");
        double pages = 0;
        if (mib > 0)
            pages = mib * 256 * m_env.intensity;
        else if (m_env.total_pages > 0 && !m_workers.empty())
            pages = 1.2 * static_cast<double>(m_env.total_pages) / m_workers.size() * m_env.intensity;
        else
            pages = DEFAULT_VM_PAGES * m_env.intensity;
        // A worker maps at most the machine's memory (see the header), which also keeps the count in 32 bits.
        const double most = m_env.total_pages > 0 ? static_cast<double>(m_env.total_pages) : 4294967295.0 - 1;
        m_pages = static_cast<std::uint32_t>(std::clamp(pages, 1.0, std::min(most, 4294967295.0 - 1)));
    }

    std::uint32_t m_pages = 0; // per worker, from the next pass on
    std::vector<worker> m_workers; // worker i runs on placement_order()[i]
    std::size_t m_reclaim_next = 0;
    std::uint64_t m_passes = 0;
    std::uint64_t m_pages_swept = 0; // pages written by the sweeps (faulted or present)
};

} // namespace

std::unique_ptr<workload> make_stress_vm()
{
    return std::make_unique<stress_vm>();
}

} // namespace pcplab::sim::workloads
