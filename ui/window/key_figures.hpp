// The run's key figures and how B compares with A: one definition for the key-figures dock and presenter
// mode's large overlay. The two machines run the same virtual time but need not do the same work, so what
// costs time is compared per unit of work, and a change counts as better or worse only where that is defined:
// lower contention, less sys time and fewer zone allocations per unit of work, more work done. User time (it
// grows with the work done) and the longest hold (a shorter one can come with many more holds) are neither.
#pragma once

#include "sim/snapshot.hpp"

#include <QString>

#include <optional>
#include <vector>

namespace pcplab::ui
{

// The figures compared, computed from one snapshot.
struct key_figures {
    double sim_time_ns = 0;
    double contention_pct = 0; // the worst zone->lock over the whole run (key_numbers_of)
    double sys_ns = 0, user_ns = 0;
    double zone_allocs = 0; // pages taken from the buddy allocator
    double sys_ns_per_work = 0, zone_allocs_per_work = 0; // 0 until some work is done
    double max_hold_ns = 0; // the longest zone->lock hold so far
    double score = 0; // work units so far
    double deferred_init_ns = 0; // modelled deferred struct-page init of the slowest node; 0 without one
};
key_figures key_figures_of(const sim::snapshot& s);

// (b - a) / a in percent; nullopt when a is 0.
std::optional<double> change_pct(double a, double b);

// One figure of one or two machines, as shown.
struct figure_change {
    QString label, tip;
    QString a, b; // the values ("-" where there is none yet)
    QString change; // B vs A: "+12.5 %", "-3.10 pp", "=", "new", "-"
    int verdict = 0; // 1 better, -1 worse, 0 neither (or too small to tell, or not defined)
    bool headline = false; // one of the few presenter mode shows
    bool telling = false; // a value to show: A's (alone) or a change of B vs A other than "-" and "0 = 0"
};
// Every key figure of `a`, with B's and the change where `b` is given.
std::vector<figure_change> compare_figures(const sim::snapshot& a, const sim::snapshot* b);

} // namespace pcplab::ui
