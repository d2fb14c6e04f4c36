// How long a lesson step's run lasts on screen. The virtual time is the lesson's: a run pauses exactly where
// the step says (a timed command, machine_control::run_for) and pacing never splits a quantum, so what the
// lesson checks does not depend on it. Only the wall time the run takes is chosen here, so that a class sees
// it happen instead of a result 100 ms after the click:
//   - a run of a given virtual span is spread over the watch time;
//   - a run until the workload finishes, whose span nobody knows beforehand, shows its first `finish_shown_ns`
//     over the watch time, then doubles its pace every second, so that a long one still ends soon.
// A lesson that sets its own speed is not paced here (lesson_control).
#pragma once

#include "sim/workload.hpp"

#include <chrono>
#include <optional>

namespace pcplab::ui
{

struct lesson_pacing {
    std::chrono::milliseconds watch{4000}; // 0: as fast as the machine goes
    sim::vtime_ns finish_shown_ns = 70'000'000; // a lesson's build is about this long (lesson 3: about 74 ms)

    // The pace (virtual ns per wall second; 0 = as fast as possible) `elapsed` after the run began, for a run
    // of `span_ns` of virtual time (nullopt: until the workload finishes).
    double speed_at(std::optional<sim::vtime_ns> span_ns, std::chrono::milliseconds elapsed) const;
    // Whether that pace changes while the run goes on (it has to be set again as time passes).
    bool speeds_up(std::optional<sim::vtime_ns> span_ns) const;
};

} // namespace pcplab::ui
