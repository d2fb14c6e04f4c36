// Early boot: memmap_init (with the deferral point of update_defer_init / defer_init) and memblock_free_all.
#include "boot.hpp"
#include "boot_internal.hpp"
#include "buddy.hpp"
#include "pcp.hpp"

#include <algorithm>
#include <vector>

namespace pcplab::mm
{

// The zone a node's pfn belongs to (the node's zones do not overlap).
zone* node_zone_of(pglist_data& pg, pfn_t pfn)
{
    for (auto& z : pg.node_zones)
        if (z->spanned_pages && z->zone_spans_pfn(pfn)) return z.get();
    return nullptr;
}

// __init_single_page (v5.4 / v6.x): a fresh struct page of this zone and node, reserved until freed.
// The node and zone are not written: machine::page_zone reads them from the pfn's pageblock.
void init_single_page(page& p)
{
    p.init(page_state::reserved);
}

namespace
{

// The highest populated zone of a node: the only one whose init is deferred ("always populate low zones").
zone* highest_zone(pglist_data& pg)
{
    for (int t = ZONE_MOVABLE; t >= 0; --t)
        if (pg.node_zones[static_cast<unsigned>(t)]->populated()) return pg.node_zones[static_cast<unsigned>(t)].get();
    return nullptr;
}

// update_defer_init (v4.15, v4.17) / defer_init (v5.4 .. v6.x): memmap_init counts the valid frames of the
// node's highest zone; once the count passes static_init_pgcnt, the first section-aligned pfn is where deferred
// init starts (NO_PFN: the whole zone is initialised early).
pfn_t update_defer_init(const node_spec& ns, const zone& hz, unsigned long static_init_pgcnt, unsigned long section)
{
    unsigned long nr_initialised = 0;
    for (const auto& r : ns.memory) {
        pfn_t s = std::max<pfn_t>(r.start, hz.zone_start_pfn);
        pfn_t e = std::min<pfn_t>(r.end, static_cast<pfn_t>(hz.zone_end_pfn()));
        for (pfn_t pfn = s; pfn < e; ++pfn) {
            ++nr_initialised;
            if (nr_initialised > static_init_pgcnt && (pfn & (section - 1)) == 0) return pfn;
            // Skip ahead: nothing can defer before the count passes static_init_pgcnt.
            if (nr_initialised < static_init_pgcnt) {
                unsigned long skip = std::min<unsigned long>(static_init_pgcnt - nr_initialised, e - pfn - 1);
                pfn += static_cast<pfn_t>(skip);
                nr_initialised += skip;
            }
        }
    }
    return NO_PFN;
}

} // namespace

// reset_deferred_meminit (as read in v4.15; c9e97a1997fb removed it in v4.17): a node keeps at least 2 GiB, or 1/256 of
// its span where that is more (room for the large system hashes), initialised early, plus the full size of every
// memblock reservation that touches the first that many frames of the node (a crash kernel must not eat the early
// part), and never more than its span.
unsigned long reset_deferred_meminit(const pglist_data& pg, const node_spec& ns, unsigned page_shift)
{
    unsigned long max_pgcnt = std::max(2UL << (30 - page_shift), pg.node_spanned_pages >> 8);
    // memblock_reserved_memory_within: a region counts whole when it reaches into [start, end], ends included.
    const unsigned long start = pg.node_start_pfn, end = pg.node_start_pfn + max_pgcnt;
    unsigned long reserved = 0;
    for (const auto& r : ns.reserved)
        if (r.end >= start && r.start <= end) reserved += r.pages();
    return std::min(max_pgcnt + reserved, pg.node_spanned_pages);
}

// The early count of free_area_init_node (v4.17, Pavel Tatashin's "mm: initialize pages on demand during boot",
// c9e97a1997fb): one section, at most the node's span; the rest grows on demand (deferred_grow_zone, not
// modelled) or waits for the pgdatinit threads. v5.x/v6.x defer_init compares with PAGES_PER_SECTION directly,
// the same count. Before v4.17: reset_deferred_meminit.
unsigned long static_init_pgcnt(
    const kernel_era& era, const pglist_data& pg, const node_spec& ns, unsigned page_shift, unsigned long section)
{
    if (era.early_init() == early_init_rule::two_gib_per_node) return reset_deferred_meminit(pg, ns, page_shift);
    return std::min(section, pg.node_spanned_pages);
}

// __free_pages_core at boot (v5.4: through __free_pages, i.e. the boot pageset for order 0, which flushes at
// once since its high is 0; v5.10+: __free_pages_ok(FPI_TO_TAIL), bypassing the PCP).
// The kernel clears PG_reserved on every frame here (__free_pages_core); the model marks the frames inside the
// block tails where memmap_init wrote them, and leaves them alone where nothing ever did (deferred init).
void free_boot_block(mm_ctx& c, zone& z, pfn_t pfn, unsigned order, inner_frames inner)
{
    if (inner == inner_frames::mark_tail)
        for (unsigned long i = 1; i < (1UL << order); ++i)
            c.m.pfn_to_page(pfn + static_cast<pfn_t>(i)).init(page_state::tail); // fresh from init: unlinked
    z.managed_pages.fetch_add(1UL << order, std::memory_order_relaxed);
    unsigned fpi = c.m.era.boot_free_to_tail_bypassing_pcp() ? FPI_TO_TAIL : FPI_NONE;
    __free_one_page(c, z, pfn, order, c.m.get_pageblock_migratetype(pfn), fpi);
    c.work.pages_to_buddy += 1UL << order;
}

// __free_pages_memory (v5.4 / v6.x): free [start, end) in the largest naturally aligned blocks.
void free_pages_memory(mm_ctx& c, zone& z, pfn_t start, pfn_t end)
{
    while (start < end) {
        unsigned order = std::min<unsigned>(MAX_PAGE_ORDER, start ? static_cast<unsigned>(__builtin_ctz(start)) : 31U);
        while (start + (1UL << order) > end) --order;
        free_boot_block(c, z, start, order);
        start += static_cast<pfn_t>(1UL << order);
    }
}

// Free (non-reserved) parts of [s, e) in this node, split at zone boundaries: for_each_free_mem_range.
std::vector<pfn_range> free_ranges(pglist_data& pg, const node_spec& ns, pfn_t s, pfn_t e)
{
    std::vector<pfn_range> out;
    for (const auto& r : ns.memory) {
        pfn_t a = std::max(r.start, s), b = std::min(r.end, e);
        if (a >= b) continue;
        std::vector<pfn_range> pieces{{a, b}};
        for (const auto& res : ns.reserved) {
            std::vector<pfn_range> next;
            for (const auto& p : pieces) {
                if (res.end <= p.start || res.start >= p.end) {
                    next.push_back(p);
                    continue;
                }
                if (p.start < res.start) next.push_back({p.start, res.start});
                if (res.end < p.end) next.push_back({res.end, p.end});
            }
            pieces.swap(next);
        }
        std::sort(
            pieces.begin(), pieces.end(), [](const pfn_range& x, const pfn_range& y) { return x.start < y.start; });
        for (const auto& p : pieces)
            for (auto& z : pg.node_zones) {
                if (!z->spanned_pages) continue;
                pfn_t zs = std::max<pfn_t>(p.start, z->zone_start_pfn);
                pfn_t ze = std::min<pfn_t>(p.end, static_cast<pfn_t>(z->zone_end_pfn()));
                if (zs < ze) out.push_back({zs, ze});
            }
    }
    return out;
}

// mem_init: memmap_init for every node (all frames of the lower zones, the early part of the highest zone
// (static_init_pgcnt), every reserved frame: reserve_bootmem_region), then memblock_free_all over the free
// ranges below first_deferred_pfn.
void mem_init(machine& m)
{
    mm_ctx c = m.ctx(0);
    for (std::size_t nid = 0; nid < m.nodes.size(); ++nid) {
        pglist_data& pg = *m.nodes[nid];
        const node_spec& ns = m.spec().nodes[nid];
        zone* hz = highest_zone(pg);
        pg.first_deferred_pfn = hz
            ? update_defer_init(
                ns, *hz, static_init_pgcnt(m.era, pg, ns, m.page_shift, m.pages_per_section), m.pages_per_section)
            : NO_PFN;

        auto init_range = [&](pfn_t s, pfn_t e) {
            for (const auto& r : ns.memory)
                for (pfn_t pfn = std::max(r.start, s); pfn < std::min(r.end, e); ++pfn) {
                    init_single_page(m.pfn_to_page(pfn));
                    ++c.work.pages_initialised;
                    ++m.early_init_pages;
                }
        };
        init_range(0, pg.first_deferred_pfn);
        for (const auto& r : ns.reserved)
            if (r.end > pg.first_deferred_pfn) init_range(std::max(r.start, pg.first_deferred_pfn), r.end);

        for (const auto& r : free_ranges(pg, ns, 0, pg.first_deferred_pfn))
            free_pages_memory(c, *node_zone_of(pg, r.start), r.start, r.end);
    }
    m.stage = boot_stage::early_init;
}

} // namespace pcplab::mm
