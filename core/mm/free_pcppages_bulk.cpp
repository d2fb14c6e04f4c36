// free_pcppages_bulk: return pages from a per-CPU pageset to the buddy allocator, in the three shapes the
// kernel has had (kernel-facts.md §7):
//  - before v4.17: round-robin over the lists, everything under zone->lock;
//  - v4.17 .. v5.17 (Aaron Lu, seed 001): the same round-robin picks pages onto a local list first, and
//    zone->lock covers only the buddy merges;
//  - v5.18+ (Mel Gorman's single pass): the requested list first, whole lists, under zone->lock.
// The bulk-free-pick-outside-lock switch selects the two-pass form on any era; off, an era before v5.18 runs
// the pre-4.17 form and v5.18+ the single pass. The pcp-buddy switch (RFC, not merged) picks as the single
// pass does, merges the picked buddies under pcp->lock, then frees the merged chunks under zone->lock.
#include "buddy.hpp"
#include "pcp.hpp"
#include "struct_page_touch.hpp"
#include "zone_lock.hpp"

#include <algorithm>
#include <cassert>
#include <utility>
#include <vector>

namespace pcplab::mm
{

namespace
{

// The migratetype a PCP page goes back to the buddy allocator with: the one cached when it entered the list,
// unless the zone has isolated pageblocks (the block may have been isolated meanwhile).
int bulk_free_migratetype(const machine& m, const zone& z, pfn_t pfn)
{
    if (z.nr_isolate_pageblock) return m.get_pageblock_migratetype(pfn);
    return m.pfn_to_page(pfn).migratetype();
}

// __free_one_page for one picked block; pages_to_buddy is the caller's count, as for every __free_one_page.
void free_picked(mm_ctx& c, zone& z, pfn_t pfn, unsigned order)
{
    __free_one_page(c, z, pfn, order, bulk_free_migratetype(c.m, z, pfn), FPI_NONE);
    c.work.pages_to_buddy += 1UL << order;
}

// Unlink the coldest block (the list tail) of a PCP list: a struct page touch and a list operation.
pfn_t pick_tail(mm_ctx& c, per_cpu_pages& pcp, page_list& list, int nr_pages)
{
    pfn_t pfn = list.last;
    c.m.lists().del(list, pfn);
    prefetch_struct_page(c, list.last); // the next pick, one iteration away
    pcp.count -= nr_pages;
    ++c.work.pcp_list_ops;
    ++c.work.pcp_pages_picked;
    pcp_page_touch(c, pfn);
    return pfn;
}

// The round-robin pick of v2.6 .. v5.17: visit the lists in turn; batch_free grows with every list probed
// (empty or not) so fuller lists give more pages per visit, and when only one list is left it gives all.
// `cursor` is the list before the first one visited (v5.4: 0, so MOVABLE comes first).
template <typename Visit> void pick_round_robin(mm_ctx& c, per_cpu_pages& pcp, int count, int cursor, Visit&& visit)
{
    const auto nr_lists = static_cast<int>(c.m.era.nr_pcp_lists());
    int batch_free = 0;
    while (count > 0) {
        if (pcp.count <= 0) { // lists and count disagree: stop rather than spin on empty lists
            assert(false && "pcp->count is positive but the lists are empty");
            return;
        }
        page_list* list;
        do {
            ++batch_free;
            if (++cursor >= nr_lists) cursor = 0;
            list = &pcp.lists[static_cast<unsigned>(cursor)];
        } while (list->empty());
        if (batch_free == nr_lists) batch_free = count;

        const unsigned order = pindex_to_order(c.m.era, static_cast<unsigned>(cursor));
        const int nr_pages = 1 << order;
        do {
            pfn_t pfn = pick_tail(c, pcp, *list, nr_pages);
            count -= nr_pages;
            visit(pfn, order);
        } while (count > 0 && --batch_free && !list->empty());
    }
}

// v5.18+ single pass, called with zone->lock held: starting with the requested list, free whole lists
// (coldest first) until `count` base pages are gone; count may overshoot with high-order blocks. `visit`
// frees each picked block (or collects it, for pcp-buddy's merge pass).
template <typename Visit>
void pick_single_pass(mm_ctx& c, per_cpu_pages& pcp, int count, unsigned pindex, Visit&& visit)
{
    const auto nr_lists = static_cast<int>(c.m.era.nr_pcp_lists());
    int cursor = static_cast<int>(pindex) - 1;
    while (count > 0) {
        if (pcp.count <= 0) {
            assert(false && "pcp->count is positive but the lists are empty");
            return;
        }
        page_list* list;
        do {
            if (++cursor >= nr_lists) cursor = 0;
            list = &pcp.lists[static_cast<unsigned>(cursor)];
        } while (list->empty());

        const unsigned order = pindex_to_order(c.m.era, static_cast<unsigned>(cursor));
        const int nr_pages = 1 << order;
        do {
            pfn_t pfn = pick_tail(c, pcp, *list, nr_pages);
            count -= nr_pages;
            visit(pfn, order);
        } while (count > 0 && !list->empty());
    }
}

// pcp_buddy_merge_picked (RFC, not merged, April 2026: the drain of "[RFC 2/2] mm: page_alloc: per-cpu
// pageblock buddy allocator"): a bottom-up merge of the picked blocks under pcp->lock only, buddies joining up
// to pageblock_order, so zone->lock then frees fewer, larger chunks. Sorted by pfn, two buddies of one order
// are neighbours, so one pass with a stack finds every merge (the sort itself is not charged).
std::vector<std::pair<pfn_t, unsigned>> pcp_buddy_merge_picked(
    mm_ctx& c, std::vector<std::pair<pfn_t, unsigned>> blocks)
{
    std::sort(blocks.begin(), blocks.end());
    std::vector<std::pair<pfn_t, unsigned>> out;
    for (const auto& b : blocks) {
        out.push_back(b);
        while (out.size() >= 2) {
            auto& lo = out[out.size() - 2];
            const auto& hi = out.back();
            const unsigned o = lo.second;
            if (hi.second != o || o >= pageblock_order || (lo.first & ((pfn_t{2} << o) - 1)) != 0
                || hi.first != lo.first + (pfn_t{1} << o))
                break;
            c.m.pfn_to_page(hi.first).set_state(page_state::tail); // the upper head is inside the merged block
            ++lo.second;
            ++c.work.merge_steps;
            out.pop_back();
        }
    }
    return out;
}

} // namespace

// free_pcppages_bulk (pre-v4.17 / v4.17 .. v5.17 / v5.18+, see the top of the file). `caller` names the
// kernel path the zone->lock hold is charged to. pcp->count drops per page (v4.17 "update pcp->count inside").
void free_pcppages_bulk(mm_ctx& c, zone& z, int count, per_cpu_pages& pcp, unsigned pindex, lock_caller caller)
{
    // Never more than the lists hold, or the list search below would not end.
    count = std::min(count, pcp.count);
    if (count <= 0) return;

    if (c.m.patches[patch::bulk_free_pick_outside_lock]) {
        // Only this CPU touches its pageset (IRQs off / pcp->lock), so the picking, and its struct-page cache
        // misses, need not hold zone->lock. From v5.18 on, start at the requested list as that era does.
        int cursor = c.m.era.bulk_free_single_pass_base() ? static_cast<int>(pindex) - 1 : 0;
        page_list picked = page_list::like(z.free_area_[0].free_list[0]);
        const list_ops lists = c.m.lists();
        pick_round_robin(c, pcp, count, cursor, [&](pfn_t pfn, unsigned) { lists.add_tail(picked, pfn); });

        zone_lock_guard guard(c, z, caller);
        for (pfn_t pfn = picked.first; pfn != NO_PFN;) {
            pfn_t next = lists.next(picked, pfn); // __free_one_page reuses the links
            free_picked(c, z, pfn, c.m.pfn_to_page(pfn).order());
            pfn = next;
        }
        return;
    }

    if (c.m.patches[patch::pcp_buddy]) {
        std::vector<std::pair<pfn_t, unsigned>> picked;
        pick_single_pass(c, pcp, count, pindex, [&](pfn_t pfn, unsigned order) { picked.emplace_back(pfn, order); });
        picked = pcp_buddy_merge_picked(c, std::move(picked));
        zone_lock_guard guard(c, z, caller);
        for (const auto& [pfn, order] : picked) free_picked(c, z, pfn, order);
        return;
    }

    zone_lock_guard guard(c, z, caller);
    if (c.m.era.bulk_free_single_pass_base())
        pick_single_pass(c, pcp, count, pindex, [&](pfn_t pfn, unsigned order) { free_picked(c, z, pfn, order); });
    else
        pick_round_robin(c, pcp, count, 0, [&](pfn_t pfn, unsigned order) { free_picked(c, z, pfn, order); });
}

} // namespace pcplab::mm
