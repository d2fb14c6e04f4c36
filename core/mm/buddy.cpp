// The buddy allocator of one zone: free-list primitives, merge on free, split on allocation, and the entry
// points that take zone->lock. The migratetype fallback is in buddy_fallback.cpp.
#include "buddy.hpp"
#include "buddy_fallback.hpp"
#include "zone_lock.hpp"

#include <algorithm>
#include <cassert>
#include <vector>

namespace pcplab::mm
{

namespace
{

// migratetype_is_mergeable (v5.18+): only the three PCP types may merge with a buddy of another type.
bool migratetype_is_mergeable(int mt)
{
    return mt < MIGRATE_PCPTYPES;
}

// page_is_buddy (v5.4) / find_buddy_page_pfn (v6.x): is `buddy_pfn` the head of a free block of exactly
// `order` in this zone? The span is checked before the struct page is read: a deferred-init thread may be
// writing frames outside the part of the zone it was given.
bool page_is_buddy(const machine& m, const zone& z, pfn_t buddy_pfn, unsigned order)
{
    if (!z.zone_spans_pfn(buddy_pfn)) return false;
    const page& b = m.pfn_to_page(buddy_pfn);
    return b.state() == page_state::buddy && b.order() == order
        && m.page_zone_id(buddy_pfn) == make_zone_nid(z.node, z.idx);
}

// buddy_merge_likely (v5.4 inline in __free_one_page; a function from v5.5): when the block that this one
// would form with its buddy has a free buddy itself, the block is likely to merge soon, so it goes to the
// tail where allocations will not find it first. Only below MAX_PAGE_ORDER - 1 (MAX_ORDER - 2 in v5.4).
bool buddy_merge_likely(mm_ctx& c, zone& z, pfn_t pfn, unsigned order)
{
    if (order >= MAX_PAGE_ORDER - 1) return false;
    pfn_t combined = pfn & ~(pfn_t{1} << order);
    pfn_t higher_buddy = combined ^ (pfn_t{1} << (order + 1));
    if (z.zone_spans_pfn(higher_buddy)) touch_struct_page(c, z.node, higher_buddy);
    return page_is_buddy(c.m, z, higher_buddy, order + 1);
}

} // namespace

// add_to_free_list / add_to_free_list_tail (v5.8+; add_to_free_area in v5.4): a free block enters the list of
// its order and migratetype. NR_FREE_PAGES is accounted here, as v6.10's account_freepages does, so that
// merges (del + add of a larger block) and splits (del + adds of the halves) leave it right by construction.
void add_to_free_list(mm_ctx& c, zone& z, pfn_t pfn, unsigned order, int migratetype, bool tail)
{
    assert(order < NR_PAGE_ORDERS && migratetype < MIGRATE_TYPES);
    page& p = c.m.pfn_to_page(pfn);
    free_area& area = z.free_area_[order];
    list_ops lo = c.m.lists();
    if (tail)
        lo.add_tail(area.free_list[migratetype], pfn);
    else
        lo.add(area.free_list[migratetype], pfn);
    p.set(page_state::buddy, order, migratetype);
    ++area.nr_free;
    ++area.nr_free_mt[migratetype];
    if (migratetype != MIGRATE_ISOLATE) z.nr_free_pages += 1L << order;
    ++c.work.buddy_list_ops;
    touch_struct_page(c, z.node, pfn);
}

// del_page_from_free_list (v5.8+; del_page_from_free_area in v5.4): the block leaves the buddy allocator
// (allocation, merge into a larger block, or a move). The caller gives the frame its new state.
void del_page_from_free_list(mm_ctx& c, zone& z, pfn_t pfn, unsigned order, int migratetype)
{
    page& p = c.m.pfn_to_page(pfn);
    assert(p.state() == page_state::buddy && p.order() == order && free_list_mt(p) == migratetype);
    free_area& area = z.free_area_[order];
    c.m.lists().del(area.free_list[migratetype], pfn);
    // __ClearPageBuddy: no longer free; "allocated" until the caller says where it went
    p.set_state(page_state::allocated);
    --area.nr_free;
    --area.nr_free_mt[migratetype];
    if (migratetype != MIGRATE_ISOLATE) z.nr_free_pages -= 1L << order;
    ++c.work.buddy_list_ops;
    touch_struct_page(c, z.node, pfn);
}

// __free_one_page (v5.4: merge to pageblock_order, past it only after the isolation check; v5.18+: merge to
// MAX_PAGE_ORDER unless a pageblock of a non-mergeable type is involved; v6.10+: the buddy's pageblock takes
// this block's type). Then head or tail placement: FPI_TO_TAIL, else buddy_merge_likely.
void __free_one_page(mm_ctx& c, zone& z, pfn_t pfn, unsigned order, int migratetype, unsigned fpi)
{
    machine& m = c.m;
    assert(order <= MAX_PAGE_ORDER && (pfn & ((pfn_t{1} << order) - 1)) == 0 && z.zone_spans_pfn(pfn));
    assert(migratetype < MIGRATE_TYPES);
    const bool past_pageblock = buddy_merges_past_pageblock(m.era);
    const bool hygiene = buddy_freelist_hygiene(m.era);
    unsigned max_order = past_pageblock ? MAX_PAGE_ORDER : std::min(MAX_PAGE_ORDER, pageblock_order);

    for (;;) {
        bool stopped = false;
        while (order < max_order) {
            pfn_t buddy_pfn = pfn ^ (pfn_t{1} << order);
            if (!page_is_buddy(m, z, buddy_pfn, order)) {
                if (z.zone_spans_pfn(buddy_pfn))
                    touch_struct_page(
                        c, z.node, buddy_pfn); // the look at a buddy that is not free is the expensive miss
                stopped = true;
                break;
            }
            int buddy_block_mt = m.get_pageblock_migratetype(buddy_pfn);
            if (past_pageblock && order >= pageblock_order && buddy_block_mt != migratetype
                && (!migratetype_is_mergeable(migratetype) || !migratetype_is_mergeable(buddy_block_mt))) {
                touch_struct_page(c, z.node, buddy_pfn);
                stopped = true;
                break;
            }
            del_page_from_free_list(c, z, buddy_pfn, order, free_list_mt(m.pfn_to_page(buddy_pfn)));
            // v6.10: match the buddy's pageblock so a later expand() puts the halves on the right lists
            if (hygiene && order >= pageblock_order && buddy_block_mt != migratetype)
                m.set_pageblock_migratetype(buddy_pfn, migratetype);
            pfn_t combined = pfn & buddy_pfn;
            // the higher of the two heads is inside the merged block from now on
            m.pfn_to_page(combined == pfn ? buddy_pfn : pfn).set_state(page_state::tail);
            pfn = combined;
            ++order;
            ++c.work.merge_steps;
        }
        // v5.4 reached pageblock_order: go on to MAX_ORDER - 1 unless exactly one side is isolated.
        if (!stopped && !past_pageblock && order < MAX_PAGE_ORDER) {
            if (z.nr_isolate_pageblock) {
                pfn_t buddy_pfn = pfn ^ (pfn_t{1} << order);
                int buddy_mt = m.get_pageblock_migratetype(buddy_pfn);
                if (migratetype != buddy_mt && (migratetype == MIGRATE_ISOLATE || buddy_mt == MIGRATE_ISOLATE)) break;
            }
            max_order = order + 1;
            continue;
        }
        break;
    }

    // pcp-buddy (RFC, not merged, April 2026): a pageblock that is whole again in the buddy has no owner.
    if (order >= pageblock_order && m.patches[patch::pcp_buddy])
        for (pfn_t b = pfn; b < pfn + (pfn_t{1} << order); b += pageblock_nr_pages) m.set_pageblock_owner(b, -1);
    bool to_tail = (fpi & FPI_TO_TAIL) ? true : buddy_merge_likely(c, z, pfn, order);
    add_to_free_list(c, z, pfn, order, migratetype, to_tail);
}

// expand (v5.4 / v6.x): split a block of order `high` down to `low`; the upper half of each split goes to
// the head of its order's list, the caller keeps the lowest part, so successive allocations ascend.
void expand(mm_ctx& c, zone& z, pfn_t pfn, unsigned low, unsigned high, int migratetype)
{
    // The halves are far apart in the memmap: let the host fetch all their lines at once, not one by one, and
    // the heads of the lists they join (list_add writes a link of each).
    const list_ops lo = c.m.lists();
    for (unsigned o = low; o < high; ++o) {
        prefetch_struct_page(c, pfn + (pfn_t{1} << o));
        lo.prefetch_head(z.free_area_[o].free_list[migratetype]);
    }
    while (high > low) {
        --high;
        add_to_free_list(c, z, pfn + (pfn_t{1} << high), high, migratetype, false);
        ++c.work.split_steps;
    }
}

// __rmqueue_smallest (v5.4 / v6.x): the first block (list head) of the smallest order that has one of this
// migratetype; split to `order`. The caller marks the head allocated or pcp.
pfn_t __rmqueue_smallest(mm_ctx& c, zone& z, unsigned order, int migratetype)
{
    for (unsigned current_order = order; current_order < NR_PAGE_ORDERS; ++current_order) {
        page_list& list = z.free_area_[current_order].free_list[migratetype];
        if (list.empty()) continue;
        pfn_t pfn = list.first;
        del_page_from_free_list(c, z, pfn, current_order, migratetype);
        // rmqueue_bulk takes the next head right after: let the host fetch the cache model's line for it.
        if (c.cache && !list.empty()) c.cache->prefetch(list.first);
        expand(c, z, pfn, order, current_order, migratetype);
        // set_pcppage_migratetype (v5.4 .. v6.9) with the order: one store
        c.m.pfn_to_page(pfn).set(page_state::allocated, order, migratetype);
        return pfn;
    }
    return NO_PFN;
}

namespace
{

// The merge itself, under zone->lock. With isolated pageblocks in the zone the pageblock's own type wins
// over the caller's.
void free_one_page_locked(mm_ctx& c, zone& z, pfn_t pfn, unsigned order, int migratetype, unsigned fpi)
{
    if (z.nr_isolate_pageblock || migratetype == MIGRATE_ISOLATE) migratetype = c.m.get_pageblock_migratetype(pfn);
    __free_one_page(c, z, pfn, order, migratetype, fpi);
    c.work.pages_to_buddy += 1UL << order;
}

} // namespace

// free_one_page (v5.4 / v6.x): a block straight to the buddy allocator under zone->lock. v6.15+ (8c57b687e833,
// "mm, bpf: Introduce free_pages_nolock()"): with FPI_TRYLOCK a failed trylock parks the block on
// zone->trylock_free_pages (add_page_to_zone_llist) instead of spinning; a caller that takes the lock normally
// merges the parked blocks first, so they wait at most until the zone's next ordinary free_one_page.
void free_one_page(mm_ctx& c, zone& z, pfn_t pfn, unsigned order, int migratetype, unsigned fpi, lock_caller caller)
{
    const bool nolock = fpi & FPI_TRYLOCK;
    zone_lock_guard lock(c, z, caller, /*try_only=*/nolock);
    if (!lock.held()) {
        // The page keeps its allocated state to verify(): it has left its owner and not reached the lists.
        z.trylock_free_pages.push_back({pfn, order});
        return;
    }
    if (!nolock && !z.trylock_free_pages.empty()) {
        for (const auto& d : z.trylock_free_pages)
            free_one_page_locked(c, z, d.pfn, d.order, c.m.get_pageblock_migratetype(d.pfn), FPI_NONE);
        z.trylock_free_pages.clear();
    }
    free_one_page_locked(c, z, pfn, order, migratetype, fpi);
}

namespace
{

// rmqueue_bulk's loop body: a block from the buddy allocator enters the tail of a PCP list.
void add_tail_to_pcp_list(mm_ctx& c, const list_ops& lo, page_list& list, pfn_t pfn, unsigned order, int migratetype)
{
    page& p = c.m.pfn_to_page(pfn);
    lo.add_tail(list, pfn);
    p.set(page_state::pcp, order, migratetype);
    ++c.work.pcp_list_ops;
}

// pcp_buddy_claim_blocks (RFC, not merged, April 2026: phase 1 of the refill in "[RFC 2/2] mm: page_alloc:
// per-cpu pageblock buddy allocator"): take whole free pageblocks of the migratetype off the buddy lists, as many
// as the refill's `count` blocks fill, under one zone->lock hold; tag each with the claiming CPU; split them into
// `order` blocks on the PCP list after the lock is dropped. Returns the blocks added; 0 when the zone has no whole
// free pageblock of that type (the RFC's phase 0 recovery of owned fragments and its phase 2 sub-pageblock chunks
// are not modelled: the caller then refills as before, its phase 3).
int pcp_buddy_claim_blocks(
    mm_ctx& c, zone& z, unsigned order, int count, page_list& list, int migratetype, unsigned alloc_flags)
{
    const auto want = static_cast<unsigned long>(std::max(count, 1)) << order;
    std::vector<pfn_t> blocks;
    {
        zone_lock_guard lock(c, z, lock_caller::rmqueue_bulk, /*try_only=*/(alloc_flags & ALLOC_TRYLOCK) != 0);
        if (!lock.held()) return 0;
        while (blocks.size() * pageblock_nr_pages < want) {
            const pfn_t base = __rmqueue_smallest(c, z, pageblock_order, migratetype);
            if (base == NO_PFN) break;
            c.m.set_pageblock_owner(base, c.cpu);
            c.work.pages_from_buddy += pageblock_nr_pages;
            blocks.push_back(base);
        }
    }
    // Outside zone->lock: the blocks are this CPU's, so splitting them needs only its own pcp->lock.
    list_ops lo = c.m.lists();
    const pfn_t step = pfn_t{1} << order;
    int n = 0;
    for (const pfn_t base : blocks) {
        for (pfn_t pfn = base; pfn < base + pageblock_nr_pages; pfn += step, ++n) {
            add_tail_to_pcp_list(c, lo, list, pfn, order, migratetype);
            touch_struct_page(c, z.node, pfn); // the split writes each new head
        }
        c.work.split_steps += pageblock_order - order;
    }
    return n;
}

} // namespace

// rmqueue_bulk (v5.4 / v6.x): `count` blocks under one zone->lock hold, each appended to the tail of the
// PCP list, so pages split by expand() sit there in ascending pfn order. From v6.15 with
// rmqueue-bulk-fallback-mode ("speed up fallbacks in rmqueue_bulk()") the fallback mode that found the last
// page is kept for the next: nothing else frees into this zone while the lock is held, so a claim search
// that failed would fail again. Without it each page starts from the native list and the claim search.
// With pcp-buddy (RFC, not merged) whole free pageblocks are claimed first (pcp_buddy_claim_blocks).
int rmqueue_bulk(mm_ctx& c, zone& z, unsigned order, int count, page_list& list, int migratetype, unsigned alloc_flags)
{
    if (c.m.patches[patch::pcp_buddy] && order < pageblock_order)
        if (int n = pcp_buddy_claim_blocks(c, z, order, count, list, migratetype, alloc_flags)) return n;
    // v6.15 ALLOC_TRYLOCK (alloc_pages_nolock): a held zone->lock means no refill, not a wait.
    zone_lock_guard lock(c, z, lock_caller::rmqueue_bulk, /*try_only=*/(alloc_flags & ALLOC_TRYLOCK) != 0);
    if (!lock.held()) return 0;
    list_ops lo = c.m.lists();
    const bool keep_mode = c.m.patches[patch::rmqueue_bulk_fallback_mode];
    rmqueue_mode mode = rmqueue_mode::normal;
    int i = 0;
    for (; i < count; ++i) {
        if (!keep_mode) mode = rmqueue_mode::normal;
        pfn_t pfn = __rmqueue(c, z, order, migratetype, alloc_flags, mode);
        if (pfn == NO_PFN) break;
        add_tail_to_pcp_list(c, lo, list, pfn, order, migratetype);
        c.work.pages_from_buddy += 1UL << order;
    }
    return i;
}

// rmqueue_buddy (v5.19+; the non-PCP branch of rmqueue in v5.4): one block under zone->lock. ALLOC_HARDER
// tries the HIGHATOMIC reserve first (v5.4; ALLOC_HIGHATOMIC in v6.3+). The reserve is never filled here
// (reserve_highatomic_pageblock is not modelled), so that list stays empty unless a test puts pages on it.
pfn_t rmqueue_buddy(mm_ctx& c, zone& z, unsigned order, int migratetype, unsigned alloc_flags)
{
    zone_lock_guard lock(c, z, lock_caller::rmqueue_buddy, /*try_only=*/(alloc_flags & ALLOC_TRYLOCK) != 0);
    if (!lock.held()) return NO_PFN; // v6.15 ALLOC_TRYLOCK: give up rather than spin
    pfn_t pfn = NO_PFN;
    if (alloc_flags & ALLOC_HARDER) pfn = __rmqueue_smallest(c, z, order, MIGRATE_HIGHATOMIC);
    if (pfn == NO_PFN) pfn = __rmqueue(c, z, order, migratetype, alloc_flags);
    if (pfn == NO_PFN) return NO_PFN;
    page& p = c.m.pfn_to_page(pfn);
    // Remember what the block was allocated for: a steal counts allocated MOVABLE frames as movable
    // (PageLRU / __PageMovable in move_freepages).
    p.set(page_state::allocated, order, migratetype);
    c.work.pages_from_buddy += 1UL << order;
    return pfn;
}

} // namespace pcplab::mm
