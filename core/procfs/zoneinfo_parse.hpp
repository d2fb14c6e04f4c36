// Reading a real /proc/zoneinfo (any era, one or several nodes) back into numbers.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace pcplab::procfs
{

struct zoneinfo_pageset {
    int cpu = 0;
    int line = 0; // line of its "cpu: N"
    long count = 0;
    long high = 0;
    long batch = 0;
    std::optional<long> high_min; // v6.13+
    std::optional<long> high_max;
    std::optional<long> stat_threshold;
};

struct zoneinfo_zone {
    int node = 0;
    std::string name; // "DMA", "DMA32", "Normal", "Movable", "Device"
    int line = 0; // line of its "Node N, zone NAME" header
    long pages_free = 0;
    long min = 0, low = 0, high = 0;
    std::optional<long> promo, boost, cma;
    long spanned = 0, present = 0, managed = 0;
    std::vector<long> protection;
    std::map<std::string, long> node_stats; // the "per-node stats" block (first populated zone of a node)
    std::map<std::string, long> stats; // nr_free_pages, numa_hit, ... and any unknown "NAME VALUE" line
    std::vector<zoneinfo_pageset> pagesets;
    std::optional<long> node_unreclaimable;
    std::optional<long> start_pfn;
    std::optional<long> reserved_highatomic, free_highatomic; // v6.19+
    bool populated() const { return present != 0; }
};

struct zoneinfo_doc {
    std::vector<zoneinfo_zone> zones;
    int nr_cpus() const; // CPUs listed in the pagesets of populated zones
    int nr_nodes() const;
};

struct zoneinfo_error {
    std::string file;
    int line = 0;
    std::string message;
    std::string str() const; // "FILE:LINE: MESSAGE"
};

using zoneinfo_result = std::variant<zoneinfo_doc, zoneinfo_error>;
// Tolerates stat lines it does not know (other eras, other configs); refuses text that is not zoneinfo,
// numbers that do not parse and records cut short (a pageset without batch, a zone without managed ...).
zoneinfo_result parse_zoneinfo(const std::string& text, const std::string& file);
zoneinfo_result load_zoneinfo_file(const std::string& path);

} // namespace pcplab::procfs
