// high-order: order 1-3 and THP-order allocations and frees, the load behind the free_high heuristic
// (Mel Gorman, "Limit number of high-order pages on PCP during bulk free", v5.19; Huang Ying's v6.7 rework
// with free_count and PCPF_PREV_FREE_HIGH_ORDER) and the THP PCP lists (v5.13+).
//
// What allocates these orders in a real kernel:
//   order 1-3, UNMOVABLE, up to ZONE_NORMAL: SLUB slabs of large objects (slub_max_order defaults to
//     PAGE_ALLOC_COSTLY_ORDER = 3: kmalloc-2k..8k, task_struct, signal/files caches), skb page_frag refills
//     (SKB_FRAG_PAGE_ORDER = order 3), non-vmapped kernel stacks (order 2).
//   order 9 (HPAGE_PMD_ORDER), MOVABLE: anonymous THP faults (do_huge_pmd_anonymous_page), zeroed whole
//     (clear_huge_page) and freed whole at munmap.
// The pattern free_high detects: one CPU frees many high-order pages in a row without allocating in between
// (a process exits, a socket drains its queue), so they pile up on its PCP lists.
//
// Model, per CPU (every CPU of the workload): a cycle of
//   allocate `blocks` blocks, orders drawn 1:2:3:9 with weights 3:2:3:1 (E: slab and network orders
//   dominate by count, THP by volume), each followed by writing it ((1 << order) x env.user_ns_per_page);
//   hold them for hold_us of compute; free them all in allocation order (the run of high-order frees).
// A failed high-order allocation falls back to 2^order order-0 pages of the same migratetype, as THP faults
// fall back to base pages and page_frag/SLUB to smaller orders; a failed order-0 allocation backs off and
// retries.
//
// Parameters:
//   blocks   32 x intensity per cycle (at least 1)
//   hold_us  20 (E: an object's or a packet's lifetime on the CPU)
// Score: blocks allocated (fallback pages count one each).
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

struct order_weight {
    unsigned order;
    std::uint32_t weight;
};
constexpr order_weight ORDER_MIX[] = {{1, 3}, {2, 2}, {3, 3}, {mm::HPAGE_PMD_ORDER, 1}};
constexpr std::uint32_t ORDER_MIX_TOTAL = 9;
static_assert(ORDER_MIX[0].weight + ORDER_MIX[1].weight + ORDER_MIX[2].weight + ORDER_MIX[3].weight == ORDER_MIX_TOTAL);

class high_order final : public workload_base
{
public:
    high_order()
    {
        m_params.add("blocks", 32, "blocks allocated, held and freed per cycle (x intensity)", 1, 1e6);
        m_params.add("hold_us", 20, "compute between the allocations and the frees of a cycle, us", 0, 1e9);
    }
    std::string_view name() const override { return "high-order"; }

    void attach(const workload_env& env) override
    {
        attach_base(env);
        m_hold_ns = static_cast<vtime_ns>(m_params.get("hold_us") * 1000);
        reset_states(m_cpus, m_order.size(), TAG_HIGH_ORDER);
        m_allocated = 0;
        on_intensity();
        for (auto& c : m_cpus) c.held.reserve(m_blocks + (1U << mm::HPAGE_PMD_ORDER));
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
                c.left = m_blocks;
                c.ph = phase::allocate;
                continue;
            case phase::allocate:
                if (c.touch_pages) {
                    vtime_ns ns = pages_ns(c.touch_pages);
                    c.touch_pages = 0;
                    if (ns) return compute(ns);
                }
                if (c.fallback_left > 0) {
                    cpu_action f = c.fallback_mt == mm::MIGRATE_MOVABLE ? alloc_user(0) : alloc_kernel(0);
                    return c.gate.issue(f);
                }
                if (c.left == 0) {
                    c.ph = phase::free;
                    c.free_cursor = 0;
                    if (m_hold_ns) return compute(m_hold_ns);
                    continue;
                }
                return c.gate.issue(draw(c));
            case phase::free:
                if (c.free_cursor < c.held.size()) {
                    const block& b = c.held[c.free_cursor++];
                    return free_block(b.pfn, b.order);
                }
                c.held.clear();
                c.ph = phase::start;
                continue;
            }
        }
    }

    void allocated(int cpu, mm::pfn_t pfn, vtime_ns now) override
    {
        int p = place_of(cpu);
        if (p < 0) return;
        cpu_state& c = m_cpus[p];
        const cpu_action req = c.gate.request();
        if (!c.gate.complete(pfn, req.order == 0)) {
            if (req.order > 0) { // fall back to base pages; this block is done
                c.fallback_left = 1U << req.order;
                c.fallback_mt = req.mt;
                --c.left;
            }
            return;
        }
        c.held.push_back({pfn, req.order});
        c.touch_pages = 1U << req.order;
        ++m_allocated;
        if (c.fallback_left > 0)
            --c.fallback_left;
        else
            --c.left;
    }

    workload_score score(vtime_ns elapsed) const override { return count_score(m_allocated, "blocks"); }

    released_blocks release_all() override
    {
        return release_each(m_cpus, [](auto& c, released_blocks& out) {
            append_blocks(out, c.held, c.ph == phase::free ? c.free_cursor : 0);
            c.held.clear();
        });
    }

private:
    enum class phase : std::uint8_t { start, allocate, free };
    struct cpu_state {
        alloc_gate gate;
        rng r;
        phase ph = phase::start;
        std::uint32_t left = 0; // blocks of this cycle still to allocate
        std::uint32_t fallback_left = 0; // base pages still to allocate for a failed high-order block
        std::uint8_t fallback_mt = mm::MIGRATE_UNMOVABLE;
        std::uint32_t touch_pages = 0; // the block just allocated is still to be written
        std::size_t free_cursor = 0;
        std::vector<block> held;
    };

    static cpu_action draw(cpu_state& c)
    {
        std::uint32_t x = c.r.below(ORDER_MIX_TOTAL);
        for (const auto& w : ORDER_MIX) {
            if (x < w.weight) return w.order == mm::HPAGE_PMD_ORDER ? alloc_user(w.order) : alloc_kernel(w.order);
            x -= w.weight;
        }
        return alloc_kernel(1);
    }

    void on_intensity() override { m_blocks = scaled_amount(m_params.get("blocks"), 1e6); }

    std::uint32_t m_blocks = 1;
    vtime_ns m_hold_ns = 0;
    std::vector<cpu_state> m_cpus;
    std::uint64_t m_allocated = 0;
};

} // namespace

std::unique_ptr<workload> make_high_order()
{
    return std::make_unique<high_order>();
}

} // namespace pcplab::sim::workloads
