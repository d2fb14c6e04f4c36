// The key numbers of a run (contention %, sys time, zone allocations, max hold) and their A/B deltas, as header
// parts (views/header_parts.hpp: the most important first) for the rates and locks views.
#pragma once

#include "sim/snapshot.hpp"

#include <QStringList>

namespace pcplab::ui
{

struct key_numbers {
    double contention_pct = 0; // the worst zone->lock over the whole run (sim::contention_pct)
    double sys_pct = 0; // sys time / CPU time accounted (sys + user + idle), as the rates view plots it
    double zone_allocs = 0; // pages taken from the buddy allocator
    double max_hold_ns = 0; // the longest zone->lock hold
};
key_numbers key_numbers_of(const sim::snapshot& s);

// One machine: "zone->lock contention 12.3 %", "sys 45.0 % of CPU time", "zone allocs 1.2 M", "max hold 2.1 ms";
// with B: "contention A 12.3 % / B 4.1 % (−8.2 pp)", ... (B relative to A).
QStringList key_numbers_parts(const sim::snapshot& a, const sim::snapshot* b);

} // namespace pcplab::ui
