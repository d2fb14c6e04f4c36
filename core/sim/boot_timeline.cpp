#include "sim/boot_timeline.hpp"

#include <algorithm>
#include <cmath>

namespace pcplab::sim
{

vtime_ns early_init_ns(const cost_rates& r, unsigned long early_pages)
{
    return static_cast<vtime_ns>(std::ceil(static_cast<double>(early_pages) * deferred_init_ns_per_page(r, 1)));
}

vtime_ns deferred_init_done_at(vtime_ns start, double modelled_ms)
{
    return start + std::max<vtime_ns>(1, static_cast<vtime_ns>(std::ceil(modelled_ms * 1e6)));
}

unsigned long modelled_pages_done(unsigned long pages, vtime_ns start, vtime_ns done_at, vtime_ns t)
{
    if (t >= done_at || done_at <= start) return t >= start ? pages : 0;
    if (t <= start) return 0;
    return static_cast<unsigned long>(
        static_cast<double>(pages) * static_cast<double>(t - start) / static_cast<double>(done_at - start));
}

} // namespace pcplab::sim
