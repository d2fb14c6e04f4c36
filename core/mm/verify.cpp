#include "verify.hpp"

#include "pcp.hpp"

#include <string>
#include <vector>

namespace pcplab::mm
{

namespace
{

struct checker {
    const machine& m;
    verify_result r;
    void fail(std::string s)
    {
        if (r.errors.size() < 50) r.errors.push_back(std::move(s));
    }
};

std::string where(const zone& z)
{
    return "node " + std::to_string(z.node) + " " + zone_name(z.idx);
}

// Free lists: heads are buddy frames of the list's order, inside the zone; links are consistent.
void check_free_lists(checker& ck, const zone& z, unsigned long& listed_pages)
{
    long free_pages = 0;
    for (unsigned o = 0; o < NR_PAGE_ORDERS; ++o) {
        unsigned long blocks = 0;
        for (unsigned mt = 0; mt < MIGRATE_TYPES; ++mt) {
            pfn_t prev = NO_PFN;
            const unsigned long blocks_before = blocks;
            const page_list& l = z.free_area_[o].free_list[mt];
            if (l.base != z.zone_start_pfn)
                ck.fail(where(z) + ": free_area[" + std::to_string(o) + "] list " + migratetype_name(mt)
                    + " links from pfn " + std::to_string(l.base) + ", not the zone's start");
            const list_ops lo = ck.m.lists();
            for (pfn_t pfn = l.first; pfn != NO_PFN; pfn = lo.next(l, pfn)) {
                const page& p = ck.m.pfn_to_page(pfn);
                if (!z.zone_spans_pfn(pfn) || p.state() != page_state::buddy || p.order() != o
                    || lo.prev(l, pfn) != prev) {
                    ck.fail(where(z) + ": free_area[" + std::to_string(o) + "] list " + migratetype_name(mt)
                        + " holds pfn " + std::to_string(pfn) + " which is not a buddy head of that order");
                    break;
                }
                if (pfn & ((1U << o) - 1))
                    ck.fail(where(z) + ": free block pfn " + std::to_string(pfn) + " not aligned to order "
                        + std::to_string(o));
                ++blocks;
                prev = pfn;
                if (mt != MIGRATE_ISOLATE) free_pages += 1L << o;
                listed_pages += 1UL << o;
            }
            if (prev != z.free_area_[o].free_list[mt].last)
                ck.fail(where(z) + ": free list tail pointer is stale at order " + std::to_string(o));
            if (blocks - blocks_before != z.free_area_[o].nr_free_mt[mt])
                ck.fail(where(z) + ": nr_free_mt[" + std::to_string(o) + "][" + migratetype_name(mt)
                    + "] = " + std::to_string(z.free_area_[o].nr_free_mt[mt]) + " but the list holds "
                    + std::to_string(blocks - blocks_before));
        }
        if (blocks != z.free_area_[o].nr_free)
            ck.fail(where(z) + ": nr_free[" + std::to_string(o) + "] = " + std::to_string(z.free_area_[o].nr_free)
                + " but the lists hold " + std::to_string(blocks));
    }
    if (free_pages != z.nr_free_pages)
        ck.fail(where(z) + ": NR_FREE_PAGES = " + std::to_string(z.nr_free_pages) + " but the lists hold "
            + std::to_string(free_pages));
    ck.r.free_pages += static_cast<unsigned long>(free_pages);
}

void check_pcp_lists(checker& ck, const zone& z, unsigned long& listed_pages)
{
    unsigned nr_lists = ck.m.era.nr_pcp_lists();
    for (int cpu = 0; cpu < z.per_cpu_pageset.nr_cpus(); ++cpu) {
        const per_cpu_pages& pcp = z.per_cpu_pageset[cpu];
        long count = 0;
        for (unsigned i = 0; i < NR_PCP_LISTS_MAX; ++i) {
            if (i >= nr_lists && !pcp.lists[i].empty())
                ck.fail(where(z) + ": cpu " + std::to_string(cpu) + " uses PCP list " + std::to_string(i)
                    + " beyond the era's layout");
            const page_list& l = pcp.lists[i];
            if (l.base != z.zone_start_pfn)
                ck.fail(where(z) + ": cpu " + std::to_string(cpu) + " PCP list " + std::to_string(i)
                    + " links from pfn " + std::to_string(l.base) + ", not the zone's start");
            const list_ops lo = ck.m.lists();
            for (pfn_t pfn = l.first; pfn != NO_PFN; pfn = lo.next(l, pfn)) {
                const page& p = ck.m.pfn_to_page(pfn);
                if (!z.zone_spans_pfn(pfn) || p.state() != page_state::pcp
                    || (i < nr_lists && pindex_to_order(ck.m.era, i) != p.order())) {
                    ck.fail(where(z) + ": cpu " + std::to_string(cpu) + " PCP list " + std::to_string(i) + " holds pfn "
                        + std::to_string(pfn) + " which is not a PCP page of its order");
                    break;
                }
                count += 1L << p.order();
                listed_pages += 1UL << p.order();
            }
        }
        if (count != pcp.count)
            ck.fail(where(z) + ": cpu " + std::to_string(cpu) + " pcp->count = " + std::to_string(pcp.count)
                + " but its lists hold " + std::to_string(count));
        ck.r.pcp_pages += static_cast<unsigned long>(count);
    }
}

// Walk the zone's frames: every block head is followed by tails; free buddies that the era would merge
// are not left side by side; managed = free + pcp + allocated.
void check_frames(checker& ck, const zone& z, unsigned long listed_pages)
{
    unsigned long heads_free = 0, allocated = 0;
    const unsigned top = MAX_PAGE_ORDER; // every era merges to the top order unless a pageblock is isolated
    // Where nodes interleave, this zone's span also holds another node's frames: those are checked with
    // their own zone. page_zone_id is only asked then (elsewhere every frame of the span is the zone's).
    const bool shared_span = ck.m.zone_spans_overlap();
    const std::uint8_t own_id = make_zone_nid(z.node, z.idx);
    for (unsigned long pfn = z.zone_start_pfn; pfn < z.zone_end_pfn();) {
        if (shared_span && ck.m.page_zone_id(static_cast<pfn_t>(pfn)) != own_id) {
            ++pfn;
            continue;
        }
        const page& p = ck.m.pfn_to_page(static_cast<pfn_t>(pfn));
        unsigned long n = 1;
        switch (p.state()) {
        case page_state::buddy:
        case page_state::pcp:
        case page_state::allocated: {
            n = 1UL << p.order();
            if (p.state() == page_state::buddy)
                heads_free += n;
            else if (p.state() == page_state::pcp)
                heads_free += n;
            else
                allocated += n;
            for (unsigned long i = 1; i < n && pfn + i < z.zone_end_pfn(); ++i)
                if (!ck.m.pfn_to_page(static_cast<pfn_t>(pfn + i)).inside_block()) {
                    ck.fail(where(z) + ": pfn " + std::to_string(pfn + i) + " inside the order-"
                        + std::to_string(p.order()) + " block at " + std::to_string(pfn) + " is not a tail");
                    break;
                }
            if (p.state() == page_state::buddy && p.order() < top) {
                unsigned long buddy = pfn ^ n;
                if (z.zone_spans_pfn(buddy)) {
                    const page& b = ck.m.pfn_to_page(static_cast<pfn_t>(buddy));
                    if (b.state() == page_state::buddy && b.order() == p.order() && buddy > pfn
                        && ck.m.get_pageblock_migratetype(static_cast<pfn_t>(pfn)) != MIGRATE_ISOLATE
                        && ck.m.get_pageblock_migratetype(static_cast<pfn_t>(buddy)) != MIGRATE_ISOLATE)
                        ck.fail(where(z) + ": free buddies at " + std::to_string(pfn) + " and " + std::to_string(buddy)
                            + " (order " + std::to_string(p.order()) + ") were not merged");
                }
            }
            break;
        }
        case page_state::tail:
            ck.fail(where(z) + ": pfn " + std::to_string(pfn) + " is a tail without a head");
            break;
        default:
            break;
        }
        pfn += n;
    }
    if (heads_free != listed_pages)
        ck.fail(where(z) + ": " + std::to_string(heads_free) + " frames are marked free or PCP but the lists hold "
            + std::to_string(listed_pages));
    ck.r.allocated_pages += allocated;
    unsigned long accounted = heads_free + allocated;
    if (ck.m.stage == boot_stage::booted && accounted != z.managed())
        ck.fail(where(z) + ": managed_pages = " + std::to_string(z.managed())
            + " but free + PCP + allocated = " + std::to_string(accounted));
}

} // namespace

verify_result verify(const machine& m)
{
    checker ck{m, {}};
    for (const auto& n : m.nodes)
        for (const auto& zp : n->node_zones) {
            const zone& z = *zp;
            if (!z.spanned_pages) continue;
            unsigned long listed = 0;
            check_free_lists(ck, z, listed);
            check_pcp_lists(ck, z, listed);
            check_frames(ck, z, listed);
        }
    return ck.r;
}

} // namespace pcplab::mm
