// Falling back to another migratetype when the requested free lists are empty, in the three shapes the
// modelled eras have: v4.13 .. v6.9 (__rmqueue_fallback moves pages, __rmqueue retries), v6.10 .. v6.14
// (steal_suitable_fallback returns the page) and v6.15+ (__rmqueue_claim, then __rmqueue_steal).
// CMA is not modelled. Watermark boosting on fallback (boost_watermark, v5.0+) is a documented no-op: the
// boost is only ever cleared by kswapd after it reclaimed, which the model has not got, so a boost would
// stay forever and inflate every watermark (and v5.14+ pcp->high with them).
#include "buddy_fallback.hpp"
#include "buddy.hpp"

#include <algorithm>
#include <cassert>

namespace pcplab::mm
{

namespace
{

// fallbacks[] (v5.4 / v6.x): the other PCP types to try, in order. HIGHATOMIC and ISOLATE have none.
constexpr int fallbacks[MIGRATE_PCPTYPES][2] = {
    {MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE}, // UNMOVABLE
    {MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE}, // MOVABLE
    {MIGRATE_UNMOVABLE, MIGRATE_MOVABLE}, // RECLAIMABLE
};

// can_steal_fallback (v4.13 .. v6.14) / should_try_claim_block (v6.15+): whether taking a block of this
// order should try to take over its whole pageblock. Large blocks always; unmovable and reclaimable
// requests always, because their pollution of a movable block is the worse kind of fragmentation.
bool can_steal_fallback(unsigned order, int start_mt)
{
    if (order >= pageblock_order) return true;
    return order >= pageblock_order / 2 || start_mt == MIGRATE_RECLAIMABLE || start_mt == MIGRATE_UNMOVABLE;
}

// find_suitable_fallback without the claim test (v6.15's find_suitable_fallback(..., false)): the first
// fallback type with a free block of this order, or -1. Each call is one look at an order's free lists.
int find_fallback_mt(mm_ctx& c, const zone& z, unsigned order, int start_mt)
{
    ++c.work.fallback_area_checks;
    const free_area& area = z.free_area_[order];
    if (area.nr_free == 0) return -1;
    for (int fallback_mt : fallbacks[start_mt])
        if (!area.free_list[fallback_mt].empty()) return fallback_mt;
    return -1;
}

// boost_watermark (v5.0+): not modelled, see the file comment. Returns whether the zone was boosted.
bool boost_watermark(zone&)
{
    return false;
}

// change_pageblock_range (v5.4 / v6.x): every pageblock of a block of >= pageblock_order changes type.
void change_pageblock_range(machine& m, pfn_t pfn, unsigned order, int mt)
{
    for (unsigned long i = 0; i < (1UL << (order - pageblock_order)); ++i)
        m.set_pageblock_migratetype(pfn + static_cast<pfn_t>(i * pageblock_nr_pages), mt);
}

// del_page_from_free_list + expand, leaving the head with the requested order (page_del_and_expand, v6.10+).
pfn_t page_del_and_expand(mm_ctx& c, zone& z, pfn_t pfn, unsigned low, unsigned high, int expand_mt)
{
    page& p = c.m.pfn_to_page(pfn);
    const int list_mt = free_list_mt(p);
    del_page_from_free_list(c, z, pfn, high, list_mt);
    expand(c, z, pfn, low, high, expand_mt);
    p.set(page_state::allocated, low, list_mt);
    return pfn;
}

struct block_count {
    int free_pages = 0;
    int movable_pages = 0;
};

// The walk of move_freepages (v4.13 .. v6.9) and prep_move_freepages_block (v6.10+) over [start, end):
// free blocks are counted (and, with move_to >= 0, moved to that list); other frames count as movable
// when allocated for a MOVABLE request (the model's PageLRU / __PageMovable). Every frame looked at is a
// struct page read.
block_count scan_pageblock(mm_ctx& c, zone& z, pfn_t start, pfn_t end, int move_to)
{
    block_count n;
    for (pfn_t pfn = start; pfn < end;) {
        const page& p = c.m.pfn_to_page(pfn);
        if (p.state() == page_state::buddy) {
            touch_struct_page(c, z.node, pfn);
            unsigned order = p.order();
            n.free_pages += 1 << order;
            if (move_to >= 0) move_to_free_list(c, z, pfn, order, free_list_mt(p), move_to);
            pfn += pfn_t{1} << order;
            continue;
        }
        // An allocated head stands for its whole block (a THP's tails answer PageLRU from the head).
        pfn_t frames = 1;
        if (p.state() == page_state::allocated || p.state() == page_state::pcp)
            frames = std::min<pfn_t>(pfn_t{1} << p.order(), end - pfn);
        if (p.state() == page_state::allocated && p.migratetype() == MIGRATE_MOVABLE)
            n.movable_pages += static_cast<int>(frames);
        for (pfn_t i = 0; i < frames; ++i) touch_struct_page(c, z.node, pfn + i);
        pfn += frames;
    }
    return n;
}

// The pages of a pageblock that are "alike" a start_type allocation (steal_suitable_fallback /
// try_to_claim_block): for movable requests the movable ones; unmovable or reclaimable requests falling
// back into a movable block count everything that is not movable; between those two, nothing.
int alike_pages(int start_type, int block_type, const block_count& n)
{
    if (start_type == MIGRATE_MOVABLE) return n.movable_pages;
    if (block_type == MIGRATE_MOVABLE) return static_cast<int>(pageblock_nr_pages) - (n.free_pages + n.movable_pages);
    return 0;
}

bool enough_to_claim(int start_type, int block_type, const block_count& n)
{
    return n.free_pages + alike_pages(start_type, block_type, n) >= (1 << (pageblock_order - 1));
}

// --- v4.13 .. v6.9 ---

// move_freepages_block (v4.13 .. v6.9): move every free block of the pageblock to new_mt's lists. A block
// whose start lies outside the zone is walked from the page on; one whose end does is not moved (0).
int move_freepages_block_v4(mm_ctx& c, zone& z, pfn_t pfn, int new_mt, int& movable)
{
    pfn_t start = pfn & ~static_cast<pfn_t>(pageblock_nr_pages - 1);
    pfn_t end = start + static_cast<pfn_t>(pageblock_nr_pages);
    movable = 0;
    if (!z.zone_spans_pfn(start)) start = pfn;
    if (!z.zone_spans_pfn(end - 1)) return 0;
    block_count n = scan_pageblock(c, z, start, end, new_mt);
    movable = n.movable_pages;
    return n.free_pages;
}

// steal_suitable_fallback (v4.13 .. v6.9): take over the pageblock(s) of a large block; for smaller ones
// move all the block's free pages to start_type and change the pageblock type if at least half of it is
// free or alike. The found page always ends on start_type's list, where __rmqueue's retry finds it.
void steal_suitable_fallback_v4(
    mm_ctx& c, zone& z, pfn_t pfn, unsigned current_order, unsigned alloc_flags, int start_type, bool whole_block)
{
    machine& m = c.m;
    int old_block_type = m.get_pageblock_migratetype(pfn);
    bool single_page = old_block_type == MIGRATE_HIGHATOMIC || !whole_block;
    if (!single_page && current_order >= pageblock_order) {
        change_pageblock_range(m, pfn, current_order, start_type);
        single_page = true;
    }
    if (!single_page) {
        boost_watermark(z);
        int movable = 0;
        int free_pages = move_freepages_block_v4(c, z, pfn, start_type, movable);
        block_count n{free_pages, movable};
        if (free_pages == 0) {
            single_page = true; // the block straddles the zone's end
        } else {
            if (enough_to_claim(start_type, old_block_type, n)) m.set_pageblock_migratetype(pfn, start_type);
            return;
        }
    }
    move_to_free_list(c, z, pfn, current_order, free_list_mt(m.pfn_to_page(pfn)), start_type);
}

struct fallback_pick {
    unsigned order = 0;
    int mt = -1;
    bool can_steal = false;
};

// The search of __rmqueue_fallback (v4.13 .. v6.14): the largest fallback block, from MAX_PAGE_ORDER down
// to the request (pageblock_order with ALLOC_NOFRAGMENT), as a cheap stand-in for the pageblock with the
// most free pages. A movable request that may not steal the whole block splits the smallest one instead.
fallback_pick find_fallback_v4(mm_ctx& c, const zone& z, unsigned order, int start_mt, unsigned alloc_flags)
{
    int min_order = (alloc_flags & ALLOC_NOFRAGMENT) ? static_cast<int>(pageblock_order) : static_cast<int>(order);
    for (int current = MAX_PAGE_ORDER; current >= min_order; --current) {
        int mt = find_fallback_mt(c, z, static_cast<unsigned>(current), start_mt);
        if (mt < 0) continue;
        bool can_steal = can_steal_fallback(static_cast<unsigned>(current), start_mt);
        if (!can_steal && start_mt == MIGRATE_MOVABLE && static_cast<unsigned>(current) > order) {
            for (unsigned smallest = order; smallest < NR_PAGE_ORDERS; ++smallest) {
                int smt = find_fallback_mt(c, z, smallest, start_mt);
                if (smt >= 0) return {smallest, smt, can_steal_fallback(smallest, start_mt)};
            }
        }
        return {static_cast<unsigned>(current), mt, can_steal};
    }
    return {};
}

// __rmqueue_fallback (v4.13 .. v6.9): true when a block was put on start_mt's list for the retry.
bool rmqueue_fallback_v4(mm_ctx& c, zone& z, unsigned order, int start_mt, unsigned alloc_flags)
{
    fallback_pick f = find_fallback_v4(c, z, order, start_mt, alloc_flags);
    if (f.mt < 0) return false;
    pfn_t pfn = z.free_area_[f.order].free_list[f.mt].first;
    steal_suitable_fallback_v4(c, z, pfn, f.order, alloc_flags, start_mt, f.can_steal);
    return true;
}

// --- v6.10+ ---

// prep_move_freepages_block (v6.10+): count free and movable pages of the pageblock, unless it straddles
// the zone's boundary (then false: the caller only holds this zone's lock).
bool prep_move_freepages_block(mm_ctx& c, zone& z, pfn_t pfn, pfn_t& start, block_count& n)
{
    start = pfn & ~static_cast<pfn_t>(pageblock_nr_pages - 1);
    pfn_t end = start + static_cast<pfn_t>(pageblock_nr_pages);
    if (!z.zone_spans_pfn(start) || !z.zone_spans_pfn(end - 1)) return false;
    n = scan_pageblock(c, z, start, end, -1);
    return true;
}

// __move_freepages_block (v6.10+): move the pageblock's free blocks to new_mt and retype the pageblock.
void move_freepages_block_v610(mm_ctx& c, zone& z, pfn_t start, int new_mt)
{
    scan_pageblock(c, z, start, start + static_cast<pfn_t>(pageblock_nr_pages), new_mt);
    c.m.set_pageblock_migratetype(start, new_mt);
}

// try_to_claim_block (v6.15; the claiming half of v6.10's steal_suitable_fallback): take over the whole
// block, or the pageblock when half of it is free or alike, and allocate from it; NO_PFN otherwise.
pfn_t try_to_claim_block(mm_ctx& c, zone& z, pfn_t pfn, unsigned current_order, unsigned order, int start_type,
    int block_type, unsigned alloc_flags)
{
    if (current_order >= pageblock_order) {
        page& p = c.m.pfn_to_page(pfn);
        const int list_mt = free_list_mt(p);
        del_page_from_free_list(c, z, pfn, current_order, list_mt);
        change_pageblock_range(c.m, pfn, current_order, start_type);
        expand(c, z, pfn, order, current_order, start_type);
        p.set(page_state::allocated, order, list_mt);
        return pfn;
    }
    boost_watermark(z);
    pfn_t start = 0;
    block_count n;
    if (!prep_move_freepages_block(c, z, pfn, start, n)) return NO_PFN;
    if (!enough_to_claim(start_type, block_type, n)) return NO_PFN;
    move_freepages_block_v610(c, z, start, start_type);
    return __rmqueue_smallest(c, z, order, start_type);
}

// __rmqueue_fallback (v6.10 .. v6.14): claim the block if it qualifies, else take just the found page
// (from the largest fallback block) and leave the rest of it on the fallback type's lists.
pfn_t rmqueue_fallback_v610(mm_ctx& c, zone& z, unsigned order, int start_mt, unsigned alloc_flags)
{
    fallback_pick f = find_fallback_v4(c, z, order, start_mt, alloc_flags);
    if (f.mt < 0) return NO_PFN;
    pfn_t pfn = z.free_area_[f.order].free_list[f.mt].first;
    int block_type = c.m.get_pageblock_migratetype(pfn);
    if (block_type != MIGRATE_HIGHATOMIC && (f.can_steal || f.order >= pageblock_order)) {
        pfn_t got = try_to_claim_block(c, z, pfn, f.order, order, start_mt, block_type, alloc_flags);
        if (got != NO_PFN) return got;
    }
    return page_del_and_expand(c, z, pfn, order, f.order, block_type);
}

// __rmqueue_claim (v6.15+): from the largest order down, claim a fallback block; stop at orders too small
// to claim.
pfn_t rmqueue_claim(mm_ctx& c, zone& z, unsigned order, int start_mt, unsigned alloc_flags)
{
    ++c.work.claim_searches;
    int min_order = (alloc_flags & ALLOC_NOFRAGMENT) ? static_cast<int>(pageblock_order) : static_cast<int>(order);
    for (int current = MAX_PAGE_ORDER; current >= min_order; --current) {
        unsigned co = static_cast<unsigned>(current);
        if (!can_steal_fallback(co, start_mt)) break;
        int mt = find_fallback_mt(c, z, co, start_mt);
        if (mt < 0) continue;
        pfn_t pfn = z.free_area_[co].free_list[mt].first;
        pfn_t got = try_to_claim_block(c, z, pfn, co, order, start_mt, mt, alloc_flags);
        if (got != NO_PFN) return got;
    }
    return NO_PFN;
}

// __rmqueue_steal (v6.15+): one page from the smallest fallback block; its remainder keeps its type.
pfn_t rmqueue_steal(mm_ctx& c, zone& z, unsigned order, int start_mt)
{
    for (unsigned current = order; current < NR_PAGE_ORDERS; ++current) {
        int mt = find_fallback_mt(c, z, current, start_mt);
        if (mt < 0) continue;
        return page_del_and_expand(c, z, z.free_area_[current].free_list[mt].first, order, current, mt);
    }
    return NO_PFN;
}

} // namespace

// move_to_free_list (v5.8+; list_move in v5.4): same order, another migratetype's list.
void move_to_free_list(mm_ctx& c, zone& z, pfn_t pfn, unsigned order, int old_mt, int new_mt)
{
    free_area& area = z.free_area_[order];
    list_ops lo = c.m.lists();
    lo.del(area.free_list[old_mt], pfn);
    if (move_to_free_list_tail(c.m.era))
        lo.add_tail(area.free_list[new_mt], pfn);
    else
        lo.add(area.free_list[new_mt], pfn);
    c.m.pfn_to_page(pfn).set_migratetype(new_mt);
    --area.nr_free_mt[old_mt];
    ++area.nr_free_mt[new_mt];
    // NR_FREE_PAGES leaves out isolated pages
    if (old_mt == MIGRATE_ISOLATE && new_mt != MIGRATE_ISOLATE)
        z.nr_free_pages += 1L << order;
    else if (new_mt == MIGRATE_ISOLATE && old_mt != MIGRATE_ISOLATE)
        z.nr_free_pages -= 1L << order;
    c.work.buddy_list_ops += 2; // a del and an add
    c.work.pageblock_moves += 1UL << order;
}

// __rmqueue (v4.13 .. v6.9: smallest, else fallback and retry; v6.10 .. v6.14: smallest, else the page the
// fallback returns; v6.15+: smallest, claim, steal, starting where the previous call of this rmqueue_bulk
// succeeded). ALLOC_NOFRAGMENT forbids stealing below pageblock_order in v6.15+.
pfn_t __rmqueue(mm_ctx& c, zone& z, unsigned order, int migratetype, unsigned alloc_flags, rmqueue_mode& mode)
{
    const kernel_era& era = c.m.era;
    assert(migratetype < MIGRATE_TYPES);
    if (migratetype >= MIGRATE_PCPTYPES) // HIGHATOMIC / ISOLATE have no fallbacks
        return __rmqueue_smallest(c, z, order, migratetype);

    if (rmqueue_claim_then_steal(era)) {
        pfn_t pfn = NO_PFN;
        if (mode == rmqueue_mode::normal) {
            pfn = __rmqueue_smallest(c, z, order, migratetype);
            if (pfn != NO_PFN) return pfn;
        }
        if (mode != rmqueue_mode::steal) {
            pfn = rmqueue_claim(c, z, order, migratetype, alloc_flags);
            if (pfn != NO_PFN) {
                mode = rmqueue_mode::normal; // the native list was refilled
                return pfn;
            }
        }
        if (!(alloc_flags & ALLOC_NOFRAGMENT)) {
            pfn = rmqueue_steal(c, z, order, migratetype);
            if (pfn != NO_PFN) {
                mode = rmqueue_mode::steal;
                return pfn;
            }
        }
        return NO_PFN;
    }

    if (buddy_freelist_hygiene(era)) {
        pfn_t pfn = __rmqueue_smallest(c, z, order, migratetype);
        return pfn != NO_PFN ? pfn : rmqueue_fallback_v610(c, z, order, migratetype, alloc_flags);
    }

    for (;;) {
        pfn_t pfn = __rmqueue_smallest(c, z, order, migratetype);
        if (pfn != NO_PFN || !rmqueue_fallback_v4(c, z, order, migratetype, alloc_flags)) return pfn;
    }
}

pfn_t __rmqueue(mm_ctx& c, zone& z, unsigned order, int migratetype, unsigned alloc_flags)
{
    rmqueue_mode mode = rmqueue_mode::normal;
    return __rmqueue(c, z, order, migratetype, alloc_flags, mode);
}

} // namespace pcplab::mm
