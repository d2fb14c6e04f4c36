#include "engine_prices.hpp"

#include <algorithm>
#include <cmath>

namespace pcplab::sim
{

namespace
{
std::uint64_t to_int(double v, double scale)
{
    // One IEEE multiply and a round: the same integer on every host for the same cost model.
    return v > 0 ? static_cast<std::uint64_t>(std::llround(v * scale)) : 0;
}
} // namespace

work_prices work_prices::from(const cost_rates& r)
{
    using W = mm::mm_work;
    static constexpr std::array<std::uint64_t W::*, NR_FIELDS> fields
        = {&W::pcp_list_ops, &W::pcp_pages_picked, &W::buddy_list_ops, &W::merge_steps, &W::split_steps,
            &W::pages_to_buddy, &W::pages_from_buddy, &W::page_touch_local, &W::page_touch_remote, &W::page_touch_hit,
            &W::pageblock_moves, &W::pages_initialised, &W::fallback_area_checks, &W::claim_searches};
    work_prices p;
    const double base = work_ns(r, W{});
    for (std::size_t i = 0; i < NR_FIELDS; ++i) {
        W unit{};
        unit.*fields[i] = 1;
        p.ps[i] = to_int(work_ns(r, unit) - base, 1000.0);
    }
    p.call_ns = to_int(r.call_ns, 1.0);
    p.lock_ns = to_int(r.lock_ns, 1.0);
    p.clear_page_ns = std::max<std::uint64_t>(to_int(r.clear_page_ns, 1.0), 1);
    p.smt_busy_sibling_q16 = to_int(r.smt_busy_sibling_factor, 65536.0);
    for (int smt = 0; smt < 2; ++smt)
        for (int sock = 0; sock < 2; ++sock)
            for (int holder = 0; holder < 2; ++holder)
                for (int acq = 0; acq < 2; ++acq)
                    p.handover[smt][sock][holder][acq] = to_int(handover_ns(r, smt, sock, holder, acq), 1.0);
    return p;
}

} // namespace pcplab::sim
