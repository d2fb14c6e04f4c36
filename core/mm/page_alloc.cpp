// The allocation fast path: zonelist walk, watermark checks, rmqueue, zone statistics.
#include "page_alloc.hpp"
#include "buddy.hpp"
#include "pcp.hpp"
#include "verify.hpp"
#include "watermark_check.hpp"

#include <algorithm>
#include <cassert>
#include <stdexcept>
#include <vector>

namespace pcplab::mm
{

namespace
{

// zone_statistics (v5.4 / v6.x): numa_hit/miss/foreign, local/other.
void zone_statistics(mm_ctx& c, zone& preferred, zone& z)
{
    if (z.node == preferred.node) {
        ++z.numa_hit;
    } else {
        ++z.numa_miss;
        ++preferred.numa_foreign;
    }
    if (z.node == c.nid)
        ++z.numa_local;
    else
        ++z.numa_other;
}

// rmqueue (v5.4: order 0 only from the PCP; v5.14+: PCP-cacheable orders from the PCP, falling back to the
// buddy when the pcp trylock fails or the list stays empty).
pfn_t rmqueue(mm_ctx& c, zone& z, unsigned order, int mt, unsigned alloc_flags)
{
    if (pcp_allowed_order(c.m.era, order)) {
        pfn_t pfn = rmqueue_pcplist(c, z, order, mt, alloc_flags);
        if (pfn != NO_PFN || !c.m.era.has_pcp_lock()) return pfn;
    }
    return rmqueue_buddy(c, z, order, mt, alloc_flags);
}

// get_page_from_freelist (v5.4 / v6.7+ with ZONE_BELOW_HIGH), no node_reclaim and no deferred_grow_zone.
pfn_t get_page_from_freelist(mm_ctx& c, const alloc_request& req, unsigned alloc_flags, int preferred_nid)
{
    zone* preferred = nullptr;
    bool autotune = c.m.patches[patch::pcp_high_autotune] && c.m.era.high_rule() == pcp_high_rule::low_watermark;
    for (int nid : c.m.node_zonelist(preferred_nid)) {
        pglist_data& pg = c.m.node_data(nid);
        for (int t = req.highest_zoneidx; t >= 0; --t) {
            zone& z = pg.z(static_cast<zone_type>(t));
            if (!z.populated() || z.managed() == 0) continue;
            if (!preferred) preferred = &z;
            if (!(alloc_flags & ALLOC_NO_WATERMARKS)) {
                bool ok = false;
                // v6.7: a zone below its high watermark is flagged, which stops PCP high from growing.
                if (autotune && !(z.flags & ZONE_BELOW_HIGH)) {
                    if (zone_watermark_ok(z, req.order, z.high_wmark_pages(), req.highest_zoneidx, alloc_flags))
                        ok = true;
                    else
                        z.flags |= ZONE_BELOW_HIGH;
                }
                unsigned long mark = z.wmark_pages(static_cast<zone_watermarks>(alloc_flags & ALLOC_WMARK_MASK));
                if (!ok && !zone_watermark_ok(z, req.order, mark, req.highest_zoneidx, alloc_flags)) continue;
            }
            pfn_t pfn = rmqueue(c, z, req.order, req.migratetype, alloc_flags);
            if (pfn != NO_PFN) {
                zone_statistics(c, *preferred, z);
                return pfn;
            }
        }
    }
    return NO_PFN;
}

void maybe_verify(machine& m)
{
    if (!m.verify_every_op) return;
    verify_result r = verify(m);
    if (!r.ok()) throw std::logic_error("verify() failed: " + r.errors.front());
}

} // namespace

// __alloc_pages (v5.4 / v6.x) without reclaim: the fast path at the low watermark, then the first slow-path
// attempt at the min watermark (where kswapd would be woken).
pfn_t alloc_pages(mm_ctx& c, const alloc_request& req)
{
    int nid = req.preferred_nid >= 0 ? req.preferred_nid : c.nid;
    pfn_t pfn = get_page_from_freelist(c, req, req.alloc_flags, nid);
    if (pfn == NO_PFN && (req.alloc_flags & ALLOC_WMARK_MASK) != ALLOC_WMARK_MIN)
        pfn = get_page_from_freelist(c, req, (req.alloc_flags & ~ALLOC_WMARK_MASK) | ALLOC_WMARK_MIN, nid);
    if (pfn != NO_PFN) {
        page& p = c.m.pfn_to_page(pfn);
        p.set(page_state::allocated, req.order, p.migratetype());
    }
    maybe_verify(c.m);
    return pfn;
}

// __free_pages (v5.4 / v6.x): free_unref_page decides between the PCP and the buddy allocator.
void free_pages(mm_ctx& c, pfn_t pfn, unsigned order)
{
    assert(c.m.pfn_to_page(pfn).state() == page_state::allocated);
    assert(c.m.pfn_to_page(pfn).order() == order);
    free_unref_page(c, pfn, order);
    maybe_verify(c.m);
}

// The static key stays on from boot until page_alloc_init_late has waited for every pgdatinit thread.
bool deferred_pages_enabled(const machine& m)
{
    return m.stage != boot_stage::booted;
}

bool has_alloc_pages_nolock(const machine& m)
{
    return m.patches[patch::alloc_pages_nolock];
}

// alloc_pages_nolock (v6.15 try_alloc_pages_noprof .. v6.18): gfp without __GFP_RECLAIM, so an unmovable
// request for the lowmem zones; alloc_flags is ALLOC_TRYLOCK alone, whose watermark bits read as
// ALLOC_WMARK_MIN. One get_page_from_freelist and no __alloc_pages_slowpath: a failure is final.
pfn_t alloc_pages_nolock(mm_ctx& c, int nid, unsigned order)
{
    // Costly orders never come from the PCP, and the buddy path for them could need more than a trylock.
    if (!pcp_allowed_order(c.m.era, order)) return NO_PFN;
    // _deferred_grow_zone would take the zone's locks; the kernel gives up until deferred init has ended.
    if (deferred_pages_enabled(c.m)) return NO_PFN;
    alloc_request req;
    req.order = order;
    req.migratetype = MIGRATE_UNMOVABLE;
    req.highest_zoneidx = ZONE_NORMAL;
    const unsigned alloc_flags = ALLOC_TRYLOCK | ALLOC_WMARK_MIN;
    pfn_t pfn = get_page_from_freelist(c, req, alloc_flags, nid >= 0 ? nid : c.nid);
    if (pfn != NO_PFN) {
        page& p = c.m.pfn_to_page(pfn);
        p.set(page_state::allocated, order, p.migratetype());
    }
    maybe_verify(c.m);
    return pfn;
}

// free_pages_nolock (v6.15+): the page's last reference gone, __free_unref_page / __free_frozen_pages with
// FPI_TRYLOCK: pcp->lock tried (as every free is since v6.0), no flush above high, zone->lock tried or the
// block parked on zone->trylock_free_pages.
void free_pages_nolock(mm_ctx& c, pfn_t pfn, unsigned order)
{
    assert(c.m.pfn_to_page(pfn).state() == page_state::allocated);
    assert(c.m.pfn_to_page(pfn).order() == order);
    free_unref_page(c, pfn, order, FPI_TRYLOCK);
    maybe_verify(c.m);
}

} // namespace pcplab::mm
