// What the allocator did, counted per kind of step: the engine turns these into virtual time, and
// lock holds report the part done inside the critical section.
#pragma once

#include <cstdint>

namespace pcplab::mm
{

struct mm_work {
    std::uint64_t pcp_list_ops = 0; // page added to / removed from a per-cpu list
    std::uint64_t pcp_pages_picked = 0; // pages taken off PCP lists to be freed to the buddy allocator
    std::uint64_t buddy_list_ops = 0; // free_area list add / del
    std::uint64_t merge_steps = 0; // __free_one_page buddy merges
    std::uint64_t split_steps = 0; // expand() halvings
    std::uint64_t pages_to_buddy = 0; // base pages freed into the buddy allocator
    std::uint64_t pages_from_buddy = 0; // base pages taken from the buddy allocator
    std::uint64_t page_touch_local = 0; // struct page cache lines touched on the CPU's own node
    std::uint64_t page_touch_remote = 0; // ... on another node
    std::uint64_t page_touch_hit = 0; // touches that hit the CPU cache model (engine)
    std::uint64_t pageblock_moves = 0; // pages moved by steal / pageblock type changes
    std::uint64_t pages_initialised = 0; // __init_single_page calls (boot, deferred init)
    std::uint64_t fallback_area_checks = 0; // free_area orders a fallback search looked at (find_suitable_fallback)
    std::uint64_t claim_searches = 0; // v6.15+ __rmqueue_claim calls (the top-down search for a block to claim)

    mm_work& operator+=(const mm_work& o);
    friend mm_work operator-(mm_work a, const mm_work& b);
    bool operator==(const mm_work&) const = default;
};

inline mm_work& mm_work::operator+=(const mm_work& o)
{
    pcp_list_ops += o.pcp_list_ops;
    pcp_pages_picked += o.pcp_pages_picked;
    buddy_list_ops += o.buddy_list_ops;
    merge_steps += o.merge_steps;
    split_steps += o.split_steps;
    pages_to_buddy += o.pages_to_buddy;
    pages_from_buddy += o.pages_from_buddy;
    page_touch_local += o.page_touch_local;
    page_touch_remote += o.page_touch_remote;
    page_touch_hit += o.page_touch_hit;
    pageblock_moves += o.pageblock_moves;
    pages_initialised += o.pages_initialised;
    fallback_area_checks += o.fallback_area_checks;
    claim_searches += o.claim_searches;
    return *this;
}

inline mm_work operator-(mm_work a, const mm_work& b)
{
    a.pcp_list_ops -= b.pcp_list_ops;
    a.pcp_pages_picked -= b.pcp_pages_picked;
    a.buddy_list_ops -= b.buddy_list_ops;
    a.merge_steps -= b.merge_steps;
    a.split_steps -= b.split_steps;
    a.pages_to_buddy -= b.pages_to_buddy;
    a.pages_from_buddy -= b.pages_from_buddy;
    a.page_touch_local -= b.page_touch_local;
    a.page_touch_remote -= b.page_touch_remote;
    a.page_touch_hit -= b.page_touch_hit;
    a.pageblock_moves -= b.pageblock_moves;
    a.pages_initialised -= b.pages_initialised;
    a.fallback_area_checks -= b.fallback_area_checks;
    a.claim_searches -= b.claim_searches;
    return a;
}

} // namespace pcplab::mm
