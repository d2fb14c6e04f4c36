// check-zoneinfo --explain: each zone's batch, high (or high_min/high_max) and watermarks derived step by
// step from the capture's own numbers, so that a student can redo them by hand.
#pragma once

#include "procfs/zoneinfo_parse.hpp"

#include <string>
#include <vector>

namespace pcplab::procfs
{

struct check_report;

// The lines of the explanation for the family and page size the report chose.
std::vector<std::string> explain_zoneinfo(
    const zoneinfo_doc& doc, const check_report& rep, const std::vector<int>& cpus_per_node);

} // namespace pcplab::procfs
