// The cost model turned into integers for the hot path: picoseconds per unit of each mm_work counter and
// nanoseconds for the lock and call costs. Integer arithmetic keeps virtual time bit-identical on every
// host (no floating-point contraction or rounding differences between compilers or CPUs).
#pragma once

#include "sim/cost_model.hpp"

#include "mm/mm_work.hpp"

#include <array>
#include <cstdint>

namespace pcplab::sim
{

struct work_prices {
    static constexpr std::size_t NR_FIELDS = 14;
    std::array<std::uint64_t, NR_FIELDS> ps{}; // per unit of each mm_work counter, in mm_work's field order
    std::uint64_t call_ns = 0; // fixed cost of one allocator entry (alloc_pages / free_pages)
    std::uint64_t lock_ns = 0; // uncontended spin_lock + spin_unlock
    std::uint64_t clear_page_ns = 1; // user time per 4 KiB page written (cache traffic of user work)
    // cost_rates::smt_busy_sibling_factor in 1/65536ths (share_q16 below is in the same unit).
    std::uint64_t smt_busy_sibling_q16 = 0;
    // The lock word's cache-line hand-over (cost_model's handover_ns), by
    // [smt_sibling][same_socket][holder_on_home][acquirer_on_home].
    std::uint64_t handover[2][2][2][2] = {};

    // work_ns is linear in the counters (one rate per counter), so pricing one unit of each counter gives
    // the rates; the engine test "engine prices agree with work_ns" checks the assumption.
    static work_prices from(const cost_rates& r);

    // A compute period of `ns` alone on its core, with its SMT sibling busy `sibling_share_q16` / 65536 of
    // the time: each busy thread gets smt.pair_throughput / 2 of the core, so the period grows by the factor
    // times the sibling's busy share.
    std::uint64_t smt_stretched_ns(std::uint64_t ns, std::uint32_t sibling_share_q16) const
    {
        return ns + (((ns * smt_busy_sibling_q16) >> 16) * sibling_share_q16 >> 16);
    }

    std::uint64_t price_ps(const mm::mm_work& w) const
    {
        return w.pcp_list_ops * ps[0] + w.pcp_pages_picked * ps[1] + w.buddy_list_ops * ps[2] + w.merge_steps * ps[3]
            + w.split_steps * ps[4] + w.pages_to_buddy * ps[5] + w.pages_from_buddy * ps[6] + w.page_touch_local * ps[7]
            + w.page_touch_remote * ps[8] + w.page_touch_hit * ps[9] + w.pageblock_moves * ps[10]
            + w.pages_initialised * ps[11] + w.fallback_area_checks * ps[12] + w.claim_searches * ps[13];
    }
};

} // namespace pcplab::sim
