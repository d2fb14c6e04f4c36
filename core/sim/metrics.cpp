#include "metrics.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace pcplab::sim
{

void log_histogram::add(std::uint64_t v)
{
    // bucket i holds [2^i, 2^(i+1)); 0 and 1 share bucket 0; everything beyond the last bucket lands in it
    const unsigned b = v > 1 ? static_cast<unsigned>(std::bit_width(v)) - 1 : 0;
    buckets[std::min<std::size_t>(b, buckets.size() - 1)] += 1;
}

std::uint64_t log_histogram::count() const
{
    std::uint64_t n = 0;
    for (auto b : buckets) n += b;
    return n;
}

std::uint64_t log_histogram::percentile(double p) const
{
    if (p > 1) p /= 100;
    const std::uint64_t n = count();
    if (n == 0) return 0;
    // The rank of the p-th percentile (nearest-rank method), at least the first value.
    const auto rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(p * static_cast<double>(n))));
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < buckets.size(); ++i) {
        seen += buckets[i];
        if (seen >= rank) return std::uint64_t{1} << (i + 1);
    }
    return std::uint64_t{1} << buckets.size();
}

vtime_ns waiting_ns_before(const lock_metrics& l, vtime_ns t)
{
    // A wait is credited when the hold that ends it is released, on a CPU whose clock can run ahead of the slowest
    // one: the merged interval still open may reach past t, and that part has not happened by t.
    const vtime_ns beyond = l.waiting_until > t ? l.waiting_until - std::max(l.waiting_from, t) : 0;
    const vtime_ns waited = l.waiting_ns > beyond ? l.waiting_ns - beyond : 0;
    return std::min(waited, t);
}

double contention_pct(const lock_metrics& l, vtime_ns from, vtime_ns to)
{
    if (to <= from) return 0;
    const vtime_ns span = to - from;
    return 100.0 * static_cast<double>(std::min(waiting_ns_before(l, to), span)) / static_cast<double>(span);
}

std::uint64_t hold_ns_p99(const lock_metrics& l)
{
    return l.hold_hist.count() ? std::min(l.hold_hist.percentile(0.99), l.hold_ns_max) : 0;
}

double mean_hold_ns(const lock_metrics& l, mm::lock_caller c)
{
    const auto i = static_cast<unsigned>(c);
    if (!l.holds_by_caller[i]) return 0;
    return static_cast<double>(l.hold_ns_by_caller[i]) / static_cast<double>(l.holds_by_caller[i]);
}

} // namespace pcplab::sim
