// "Bring your own machine": a preset built from a real /proc/zoneinfo that boots to the same zones, pageset
// limits and watermarks, and the comparison of a booted machine with the capture it came from.
#pragma once

#include "mm/machine.hpp"
#include "procfs/zoneinfo_check.hpp"
#include "procfs/zoneinfo_parse.hpp"

#include <string>
#include <vector>

namespace pcplab::sim
{

struct zoneinfo_preset {
    std::string json; // the preset file's text (resources/presets/README.md)
    std::vector<int> capture_node; // the capture's node id of each preset node, in order
    std::string era; // the era it runs, and why, in words
    std::vector<std::string> notes; // what it cannot reproduce and why (also in its description)
};

// `rep` is check_zoneinfo's report on `doc` (its family, page size and explanations); `cpus_per_node` by
// the capture's node id (procfs::cpus_per_node_of); `source` names the capture in the description.
zoneinfo_preset preset_from_zoneinfo(const procfs::zoneinfo_doc& doc, const procfs::check_report& rep,
    const std::vector<int>& cpus_per_node, const std::string& source);

// The booted machine against the capture: every populated zone's managed pages, min/low/high watermarks and
// pageset limits. What the model does not have (the cold lists of v2.6.24 and earlier, a vendor's
// extra_free_kbytes, a high_max computed before memory arrived) is listed apart, not counted as a difference.
struct round_trip {
    int zones = 0, values = 0; // zones and values compared
    std::vector<std::string> differences;
    std::vector<std::string> not_modelled;
    bool ok() const { return differences.empty(); }
    std::string text() const;
};
round_trip compare_with_capture(const procfs::zoneinfo_doc& doc, const procfs::check_report& rep,
    const zoneinfo_preset& preset, const mm::machine& booted);

} // namespace pcplab::sim
