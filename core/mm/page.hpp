// struct page, reduced to what the page allocator needs: 12 bytes per 4 KiB frame.
#pragma once

#include "mm_types.hpp"

namespace pcplab::mm
{

// Where a frame is. The kernel encodes this in page flags / page_type (PageBuddy) and
// refcounts; one byte is enough here and makes verify() a linear walk.
enum class page_state : std::uint8_t {
    uninit = 0, // struct page not yet initialised (deferred init pending) or a hole
    reserved, // memblock-reserved, never freed to the buddy allocator
    buddy, // head of a free block on zone->free_area[order] (PageBuddy)
    pcp, // head of a block on a per-cpu list (order in `order`)
    allocated, // head of an allocated block
    tail, // inside a block whose head is another frame (merges turn the absorbed buddy into one)
};

// The memmap entry. Links are pfns so that lists need no pointers (and stay 32-bit).
struct page {
    pfn_t next; // list link (NO_PFN ends the list)
    pfn_t prev;
    std::uint8_t order; // buddy_order / pcp order / allocation order of the block this heads
    page_state state;
    std::uint8_t pcp_mt; // migratetype cached when the page entered a PCP list (page->index in v5.x)
    std::uint8_t zone_nid; // node << 3 | zone_type, as page->flags holds them; set by __init_single_page
};
inline constexpr unsigned MAX_NUMNODES = 32;
inline unsigned page_zonenum(const page& p)
{
    return p.zone_nid & 7U;
}
inline int page_to_nid(const page& p)
{
    return p.zone_nid >> 3;
}
inline std::uint8_t make_zone_nid(int nid, unsigned zt)
{
    return static_cast<std::uint8_t>((nid << 3) | zt);
}
static_assert(sizeof(page) == 12, "memmap entry must stay 12 bytes");

} // namespace pcplab::mm
