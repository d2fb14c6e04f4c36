// check_report::text(): the window and family, the per-zone comparison table and the summary lines.
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

const char* compared_text(compared_fields c, bool hot_cold)
{
    switch (c) {
    case compared_fields::batch_high:
        return hot_cold ? "batch, high (and low where printed) of each CPU's hot and cold list" : "batch, high";
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
    o << "layout: " << window.str();
    if (!window.reasons.empty()) {
        o << " (";
        for (std::size_t i = 0; i < window.reasons.size(); ++i) o << (i ? "; " : "") << window.reasons[i];
        o << ")";
    }
    o << "\n";
    if (family) {
        o << "formulas: " << family->name << " (" << family->versions() << ")";
        // The family narrows the window: say what is left of it.
        version_window w = window;
        if (!w.conflict) {
            if (family->from.compare(w.from) > 0) w.from = family->from;
            if (family->to.compare(w.to) < 0) w.to = family->to;
            if (w.from.compare(w.to) <= 0) o << ", so the kernel is " << w.str();
        }
        o << "\n  why: " << choice_note << "\n";
    }
    for (const auto& e : equally_good) o << "  fits as well: " << e << "\n";
    for (const auto& a : assumptions) o << "assumed: " << a << "\n";
    for (const auto& n : reader_notes) o << "reader: " << n << "\n";
    const bool hot_cold = family && family->high == high_form::hot_cold;
    if (!zones.empty()) o << "compared per pageset: " << compared_text(zones.front().compared, hot_cold) << "\n";
    o << "\n";

    // Columns: the limits compared in this family, each as expected/found.
    bool min_max = !zones.empty() && zones.front().compared != compared_fields::batch_high;
    o << std::left << std::setw(5) << "node" << std::setw(8) << "zone" << std::right << std::setw(11)
      << (zones.empty() || zones.front().managed_line ? "managed" : "present") << std::setw(9) << "low" << std::setw(6)
      << "cpus"
      << "  " << std::left << std::setw(10) << "batch";
    if (min_max)
        o << std::setw(14) << "high_min" << std::setw(16) << "high_max" << std::setw(8) << "high";
    else
        o << std::setw(14) << "high";
    if (hot_cold) o << std::setw(16) << "cold batch/high";
    o << std::right << std::setw(9) << "pagesets" << std::setw(7) << "match" << std::setw(10) << "explained"
      << std::setw(10) << "mismatch"
      << "\n";
    for (const auto& z : zones) {
        o << std::left << std::setw(5) << z.node << std::setw(8) << z.zone << std::right << std::setw(11)
          << (z.managed_line ? z.managed : z.present) << std::setw(9) << z.low_wmark << std::setw(6) << z.nr_split_cpus
          << "  " << std::left << std::setw(10) << pair(z.expected.batch, z.found_batch, z.mixed_fields & 1U);
        if (min_max)
            o << std::setw(14) << pair(z.expected.high_min, z.found_high_min, z.mixed_fields & 4U) << std::setw(16)
              << pair(z.expected.high_max, z.found_high_max, z.mixed_fields & 8U) << std::setw(8)
              << (std::to_string(z.found_high) + (z.mixed_fields & 2U ? "*" : ""));
        else
            o << std::setw(14) << pair(z.expected.high, z.found_high, z.mixed_fields & 2U);
        if (hot_cold)
            o << std::setw(16)
              << (z.expected_cold ? std::to_string(z.expected_cold->batch) + "/" + std::to_string(z.expected_cold->high)
                                  : std::string("-"));
        o << std::right << std::setw(9) << z.pagesets << std::setw(7) << z.matched << std::setw(10) << z.explained
          << std::setw(10) << z.mismatched << "\n";
    }
    o << "(expected/found; * = the zone's pagesets differ in this value, the first one is shown)\n";
    for (const auto& z : zones) {
        if (!z.explained_reason.empty())
            o << "node " << z.node << " " << z.zone << ": " << z.explained << " explained: " << z.explained_reason
              << "\n";
        for (const auto& n : z.notes) o << "node " << z.node << " " << z.zone << ": " << n << "\n";
    }
    if (!explanation.empty()) {
        o << "\n";
        for (const auto& l : explanation) o << l << "\n";
    }

    o << "\n" << matched << "/" << total << " pagesets match\n";
    std::map<std::string, int> reasons; // the same cause in several zones is one line
    for (const auto& z : zones)
        if (z.explained) reasons[z.explained_reason] += z.explained;
    for (const auto& [reason, n] : reasons) o << n << "/" << total << " explained: " << reason << "\n";
    if (mismatched) o << mismatched << "/" << total << " mismatch\n";
    return o.str();
}

} // namespace pcplab::procfs
