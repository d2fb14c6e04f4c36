// Touching a struct page: the allocator's cache misses. Counted as a miss on the local or a remote node,
// unless the CPU's cache model (installed by the engine) says the line is still cached.
#pragma once

#include "machine.hpp"

namespace pcplab::mm
{

inline void touch_struct_page(mm_ctx& c, int page_nid, pfn_t pfn)
{
    if (c.cache && c.cache->touch(pfn)) {
        ++c.work.page_touch_hit;
        return;
    }
    if (page_nid == c.nid)
        ++c.work.page_touch_local;
    else
        ++c.work.page_touch_remote;
}

} // namespace pcplab::mm
