// What the buddy allocator does differently per era, and the migratetype fallback that runs when a free
// list is empty (__rmqueue_fallback and its v6.10 / v6.15 successors). Shared by buddy.cpp and
// buddy_fallback.cpp; callers outside the buddy allocator use buddy.hpp.
#pragma once

#include "machine.hpp"
#include "struct_page_touch.hpp"

namespace pcplab::mm
{

// v5.18 "avoid merging non-fallbackable pageblocks with others" (Zi Yan): __free_one_page merges up to
// MAX_PAGE_ORDER and checks migratetypes at >= pageblock_order; before, it stopped at pageblock_order and
// only went on after an isolation check.
inline bool buddy_merges_past_pageblock(const kernel_era& e)
{
    return e.version.at_least(5, 18);
}
// v6.10 "freelist migratetype hygiene" (Johannes Weiner): a merge across pageblocks converts the buddy's
// pageblock, only claimed blocks move their free pages, and the fallback returns the page itself.
inline bool buddy_freelist_hygiene(const kernel_era& e)
{
    return e.version.at_least(6, 10);
}
// v5.10 "move pages to tail in move_to_free_list()" (David Hildenbrand); list_move to the head before.
inline bool move_to_free_list_tail(const kernel_era& e)
{
    return e.version.at_least(5, 10);
}
// v6.15 "don't steal single pages from biggest buddy" + "speed up fallbacks in rmqueue_bulk": the fallback
// is split into __rmqueue_claim and __rmqueue_steal. Whether rmqueue_bulk remembers which one worked is the
// rmqueue-bulk-fallback-mode switch (rmqueue_bulk in buddy.cpp).
inline bool rmqueue_claim_then_steal(const kernel_era& e)
{
    return e.version.at_least(6, 15);
}

// enum rmqueue_mode (v6.15+), without RMQUEUE_CMA (CMA is not modelled).
enum class rmqueue_mode { normal, claim, steal };

// __rmqueue with the mode that rmqueue_bulk keeps across its loop (v6.15+ with rmqueue-bulk-fallback-mode;
// ignored by earlier eras).
pfn_t __rmqueue(mm_ctx& c, zone& z, unsigned order, int migratetype, unsigned alloc_flags, rmqueue_mode& mode);

// move_to_free_list (v5.8+ name; list_move in v5.4): move a free block to another migratetype's list of the
// same order, to the tail from v5.10. Counts pageblock_moves.
void move_to_free_list(mm_ctx& c, zone& z, pfn_t pfn, unsigned order, int old_mt, int new_mt);

// The free list a buddy head is on. page::migratetype() holds it while the page is PageBuddy: before v6.10 a free
// block may sit on a list other than its pageblock's type, so the pageblock cannot tell.
inline int free_list_mt(const page& p)
{
    return p.migratetype();
}

} // namespace pcplab::mm
