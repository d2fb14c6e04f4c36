// The per-CPU vmstat tick's pageset work (mm/vmstat.c refresh_cpu_vm_stats with do_pagesets): PCP high
// decay (v6.7+) and the NUMA expiry drain of remote zones' pages.
#include "vmstat.hpp"

#include "pcp.hpp"

namespace pcplab::mm
{

// Zone statistics are not kept per CPU here, so "this CPU's vm_stat_diff of a remote zone was folded"
// (which resets expire to 3, "3 seconds idle till flush") is taken to be "this CPU allocated from or freed
// to that zone's pageset since the last tick": the alloc/free paths call this.
void pcp_note_zone_activity(mm_ctx& c, const zone& z, per_cpu_pages& pcp)
{
    if (z.node != c.nid) pcp.expire = 3;
}

// refresh_cpu_vm_stats(do_pagesets) (v5.4 .. v6.19), the pageset part, for the running CPU: in every
// populated zone decay pcp->high (v6.7+ auto-tuning), then count down a remote zone's expiry and, once it
// reaches 0, drain a batch of that zone's pages back to their node. Zones local to the CPU never expire.
void refresh_cpu_vm_stats(mm_ctx& c, bool do_pagesets)
{
    if (!do_pagesets) return;
    c.m.for_each_populated_zone([&](zone& z) {
        per_cpu_pages& pcp = this_cpu_pcp(z, c.cpu);
        decay_pcp_high(c, z, pcp); // a no-op unless pcp-high-autotune runs
        if (!pcp.expire || !pcp.count) return;
        if (z.node == c.nid) {
            pcp.expire = 0;
            return;
        }
        if (--pcp.expire) return;
        if (pcp.count) drain_zone_pages(c, z, pcp);
    });
}

} // namespace pcplab::mm
