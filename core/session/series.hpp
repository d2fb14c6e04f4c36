// The time series a recording holds (tables `samples` and `zone_samples`), by name: what the plots draw and
// what `pcplab-cli export --format csv --series NAME` writes. A global series is one line; a zone series is
// one line per populated zone ("Node 0 Normal").
#pragma once

#include "session/recording_reader.hpp"

#include <string>
#include <vector>

namespace pcplab::session
{

struct series_info {
    const char* name; // the column name: "high", "contention_pct", "pcp_hits"
    bool per_zone;
    const char* title; // for axis titles: "pcp->high (pages)"
};

// Every series, global ones first, in a stable order.
const std::vector<series_info>& all_series();
const series_info* find_series(const std::string& name); // nullptr for an unknown name
std::string series_names_text(); // "allocs, frees, ..." for error messages and help

struct series_line {
    std::string label; // "Node 0 Normal", or the series name for a global series
    int node = -1, zone = -1; // -1 for a global series
    std::vector<std::uint64_t> seq; // the snapshot of each point
    std::vector<double> t_s; // virtual time, seconds
    std::vector<double> v;
};

// The lines of one series in one run; throws recording_error for a damaged file.
std::vector<series_line> read_series(const recording& rec, std::int64_t run, const series_info& s);

} // namespace pcplab::session
