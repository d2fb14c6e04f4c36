// check_report::text(): the per-zone comparison table and the summary lines.
#include "zoneinfo_check.hpp"

#include <iomanip>
#include <map>
#include <sstream>

namespace pcplab::procfs
{

namespace
{

std::string pair(long expected, std::optional<long> found, bool mixed)
{
    std::string s = std::to_string(expected) + "/" + (found ? std::to_string(*found) : std::string("-"));
    return mixed ? s + "*" : s;
}

const char* compared_text(compared_fields c)
{
    switch (c) {
    case compared_fields::batch_high:
        return "batch, high";
    case compared_fields::batch_high_min_max:
        return "batch, high_min, high_max (high is tuned at run time)";
    case compared_fields::batch_high_in_range:
        return "batch; this layout prints no high_min/high_max, so high is only checked to be 0 or within them";
    }
    return "?";
}

} // namespace

std::string check_report::text() const
{
    std::ostringstream o;
    o << "era " << era.str() << ": " << era_note << "\n";
    for (const auto& a : assumptions) o << "assumed: " << a << "\n";
    if (!zones.empty()) o << "compared per pageset: " << compared_text(zones.front().compared) << "\n";
    o << "\n";

    // Columns: the limits compared in this era, each as expected/found.
    bool min_max = !zones.empty() && zones.front().compared != compared_fields::batch_high;
    o << std::left << std::setw(5) << "node" << std::setw(8) << "zone" << std::right << std::setw(11) << "managed"
      << std::setw(9) << "low" << std::setw(6) << "cpus"
      << "  " << std::left << std::setw(10) << "batch";
    if (min_max)
        o << std::setw(14) << "high_min" << std::setw(16) << "high_max" << std::setw(8) << "high";
    else
        o << std::setw(14) << "high";
    o << std::right << std::setw(9) << "pagesets" << std::setw(7) << "match" << std::setw(7) << "stale" << std::setw(10)
      << "mismatch"
      << "\n";
    for (const auto& z : zones) {
        o << std::left << std::setw(5) << z.node << std::setw(8) << z.zone << std::right << std::setw(11) << z.managed
          << std::setw(9) << z.low_wmark << std::setw(6) << z.nr_split_cpus << "  " << std::left << std::setw(10)
          << pair(z.expected_batch, z.found_batch, z.mixed_fields & 1U);
        if (min_max)
            o << std::setw(14) << pair(z.expected_high_min, z.found_high_min, z.mixed_fields & 4U) << std::setw(16)
              << pair(z.expected_high_max, z.found_high_max, z.mixed_fields & 8U) << std::setw(8)
              << (std::to_string(z.found_high) + (z.mixed_fields & 2U ? "*" : ""));
        else
            o << std::setw(14) << pair(z.expected_high, z.found_high, z.mixed_fields & 2U);
        o << std::right << std::setw(9) << z.pagesets << std::setw(7) << z.matched << std::setw(7) << z.stale
          << std::setw(10) << z.mismatched << "\n";
    }
    o << "(expected/found; * = the zone's pagesets differ in this value, the first one is shown)\n";
    for (const auto& z : zones) {
        if (!z.stale_reason.empty())
            o << "node " << z.node << " " << z.zone << ": " << z.stale << " stale: " << z.stale_reason << "\n";
        for (const auto& n : z.notes) o << "node " << z.node << " " << z.zone << ": " << n << "\n";
    }

    o << "\n" << matched << "/" << total << " pagesets match\n";
    std::map<std::string, int> reasons; // the same cause in several zones is one line
    for (const auto& z : zones)
        if (z.stale) reasons[z.stale_reason] += z.stale;
    for (const auto& [reason, n] : reasons) o << n << "/" << total << " stale: " << reason << "\n";
    if (mismatched) o << mismatched << "/" << total << " mismatch\n";
    return o.str();
}

} // namespace pcplab::procfs
