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

// A hint that `pfn`'s struct page will be touched soon (the next page a list operation will take): the host
// starts loading its memmap entry and the cache model's line for it. Never changes a result; it only lets a
// host cache miss overlap other work.
// Always inlined: left out of line, GCC 12 finds the function free of side effects (a prefetch is none to it)
// and deletes every call, which it did until this was added.
[[gnu::always_inline]] inline void prefetch_struct_page(const mm_ctx& c, pfn_t pfn)
{
    if (pfn == NO_PFN) return;
    __builtin_prefetch(&c.m.pfn_to_page(pfn), 1);
    if (c.cache) c.cache->prefetch(pfn);
}

} // namespace pcplab::mm
