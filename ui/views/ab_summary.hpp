// The key numbers of a run (contention %, sys time, zone allocations, max hold) and their A/B deltas, as one
// line of text for the headers of the rates and locks views.
#pragma once

#include "sim/snapshot.hpp"

#include <QString>

namespace pcplab::ui
{

struct key_numbers {
    double contention_pct = 0; // the worst zone->lock, whole run
    double sys_pct = 0; // sys time / (CPUs x elapsed)
    double sys_s = 0; // sys time summed over CPUs, seconds
    double zone_allocs = 0; // pages taken from the buddy allocator
    double max_hold_ns = 0; // the longest zone->lock hold
};
key_numbers key_numbers_of(const sim::snapshot& s);

// "contention 12.3 %, sys 45 %, zone allocs 1.2 M, max hold 2.1 ms" for one machine, or with B
// "contention A 12.3 % / B 4.1 % (−8.2 pp) · ..." (B relative to A).
QString key_numbers_text(const sim::snapshot& a, const sim::snapshot* b);

} // namespace pcplab::ui
