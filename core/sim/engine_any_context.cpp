// Calls from any context (cpu_action::any_context): what the v6.15 alloc-pages-nolock switch makes visible.
// With it a caller never waits for a lock; it fails instead (always while deferred init runs), and its frees
// may leave a pageset above pcp->high. Without it the same calls take the ordinary paths and spin like any
// other; in a real NMI that spin could be on a lock the interrupted code holds on the same CPU.
//
// The overshoot is timed per CPU: from the free_pages_nolock that left the pageset of its zone above high to
// the end of the first later action of that CPU after which the pageset is back at or under high (an
// ordinary free that flushed, or allocations that took the extra pages).
#include "engine_impl.hpp"

#include "mm/page_alloc.hpp"

#include <algorithm>

namespace pcplab::sim
{

void engine::impl::note_any_context_alloc(int cpu, mm::pfn_t pfn, std::uint64_t spin_before)
{
    any_context_metrics& ac = tot.any_context;
    ac.allocs += 1;
    ac.spin_ns += cpu_m[cpu].spin_ns - spin_before;
    if (pfn != mm::NO_PFN) return;
    ac.failures += 1;
    if (mm::deferred_pages_enabled(*m)) ac.failures_deferred_init += 1;
}

void engine::impl::note_any_context_free(int cpu, mm::zone& z, std::size_t parked_before, std::uint64_t spin_before)
{
    any_context_metrics& ac = tot.any_context;
    ac.frees += 1;
    ac.spin_ns += cpu_m[cpu].spin_ns - spin_before;
    if (z.trylock_free_pages.size() > parked_before) ac.parked += 1;
    const mm::per_cpu_pages& pcp = z.per_cpu_pageset[cpu];
    if (pcp.count <= pcp.high) return;
    ac.frees_over_high += 1;
    ac.over_high_pages_max = std::max<std::uint64_t>(ac.over_high_pages_max, pcp.count - pcp.high);
    cpu_state& s = st[cpu];
    if (!s.over_high_zone) {
        s.over_high_zone = &z;
        s.over_high_since = clock[cpu];
    }
}

void engine::impl::check_over_high(int cpu)
{
    cpu_state& s = st[cpu];
    if (!s.over_high_zone) return;
    const mm::per_cpu_pages& pcp = s.over_high_zone->per_cpu_pageset[cpu];
    if (pcp.count > pcp.high) return;
    tot.any_context.over_high_ns_max = std::max(tot.any_context.over_high_ns_max, clock[cpu] - s.over_high_since);
    s.over_high_zone = nullptr;
}

} // namespace pcplab::sim
