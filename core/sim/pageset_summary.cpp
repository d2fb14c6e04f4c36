#include "pageset_summary.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

namespace pcplab::sim
{

pageset_summary summarize_pagesets(const mm::machine& m)
{
    pageset_summary s;
    // high_min/high_max only exist as separate limits with auto-tuning (v6.7+; allowed from v5.14).
    s.has_high_min_max = m.patches[mm::patch::pcp_high_autotune] && m.era.version.at_least(5, 14);
    for (const auto& node : m.nodes)
        for (const auto& z : node->node_zones) {
            if (!z->populated()) continue;
            for (const mm::per_cpu_pages& pcp : z->per_cpu_pageset) {
                ++s.batch[pcp.batch];
                ++s.high[pcp.high];
                if (s.has_high_min_max) {
                    ++s.high_min[pcp.high_min];
                    ++s.high_max[pcp.high_max];
                }
                ++s.pagesets;
            }
        }
    return s;
}

namespace
{

// One group of `uniq -c` lines. The label is padded as /proc/zoneinfo pads it ("high:  " lines up with
// "batch: "), and values are ordered as `sort` orders the lines: by their decimal text.
void append_group(std::string& out, const char* label, const std::map<int, int>& counts)
{
    std::vector<std::pair<std::string, int>> rows;
    for (const auto& [value, n] : counts) rows.emplace_back(std::to_string(value), n);
    std::sort(rows.begin(), rows.end());
    if (!out.empty()) out += '\n';
    for (const auto& [value, n] : rows) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%7d               %s%s\n", n, label, value.c_str());
        out += buf;
    }
}

void append_json_object(std::string& out, const char* key, const std::map<int, int>& counts)
{
    out += '"';
    out += key;
    out += "\": {";
    bool first = true;
    for (const auto& [value, n] : counts) {
        if (!first) out += ", ";
        first = false;
        out += '"' + std::to_string(value) + "\": " + std::to_string(n);
    }
    out += '}';
}

} // namespace

std::string pageset_summary_text(const pageset_summary& s)
{
    std::string out;
    append_group(out, "batch: ", s.batch);
    append_group(out, "high:  ", s.high);
    if (s.has_high_min_max) {
        append_group(out, "high_min: ", s.high_min);
        append_group(out, "high_max: ", s.high_max);
    }
    return out;
}

std::string pageset_summary_json(const pageset_summary& s)
{
    std::string out = "{";
    append_json_object(out, "batch", s.batch);
    out += ", ";
    append_json_object(out, "high", s.high);
    if (s.has_high_min_max) {
        out += ", ";
        append_json_object(out, "high_min", s.high_min);
        out += ", ";
        append_json_object(out, "high_max", s.high_max);
    }
    out += "}\n";
    return out;
}

} // namespace pcplab::sim
