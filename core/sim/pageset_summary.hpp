// How many pagesets have each batch / high value: the breakdown Mel Gorman posted for seed 000
// ("256 batch: 1 / 256 batch: 63 / 512 batch: 7"), over every possible CPU x populated zone.
#pragma once

#include "mm/machine.hpp"

#include <map>
#include <string>

namespace pcplab::sim
{

struct pageset_summary {
    // value -> number of pagesets with it
    std::map<int, int> batch;
    std::map<int, int> high;
    std::map<int, int> high_min; // filled only when has_high_min_max
    std::map<int, int> high_max;
    bool has_high_min_max = false; // pcp-high-autotune (v6.7+): high floats between high_min and high_max
    int pagesets = 0;
    bool operator==(const pageset_summary&) const = default;
};

// Every possible CPU's pageset of every populated zone (unpopulated zones only point at the boot pageset).
pageset_summary summarize_pagesets(const mm::machine& m);

// The text Mel printed (`grep` the zoneinfo fields, `sort | uniq -c`): the count right-aligned in 7
// columns, then the zoneinfo line ("              batch: 7"); one group per field, groups separated by
// a blank line, values in `sort` order within a group so the seed's listing is reproduced line for line.
std::string pageset_summary_text(const pageset_summary& s);

// {"batch": {"7": 512, ...}, "high": {...}} (+ "high_min", "high_max" when has_high_min_max); one line.
std::string pageset_summary_json(const pageset_summary& s);

} // namespace pcplab::sim
