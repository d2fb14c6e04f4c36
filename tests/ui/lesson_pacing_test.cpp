// A lesson step's pace on screen (ui/window/lesson_pacing): a timed run is spread over the watch time, a run
// to the workload's end is watched for its first part and then speeds up, and a watch time of 0 paces
// nothing. The wall time a run takes is integrated from the pace, as the engine's pacing follows it.
#include "ui/window/lesson_pacing.hpp"

#include "lessons/lesson.hpp"

#include <catch2/catch.hpp>

#include <chrono>

using namespace pcplab;
using namespace pcplab::ui;
using namespace std::chrono_literals;

namespace
{
// The wall time a run of `virtual_ns` takes at the pace `p` sets as it goes (10 ms steps), given a machine
// that keeps up with any pace.
std::chrono::milliseconds wall_time(const lesson_pacing& p, std::optional<sim::vtime_ns> span, double virtual_ns)
{
    double done = 0;
    std::chrono::milliseconds t{0};
    while (done < virtual_ns) {
        done += p.speed_at(span, t) * 0.010;
        t += 10ms;
        if (t > 600s) break; // never, unless the pace stalls
    }
    return t;
}
} // namespace

TEST_CASE("a timed lesson run lasts the watch time, whatever its virtual span", "[ui][lesson]")
{
    lesson_pacing p;
    p.watch = 4000ms;
    for (sim::vtime_ns span : {50'000'000ULL, 100'000'000ULL, 2'000'000'000ULL}) {
        INFO(span);
        CHECK(p.speed_at(span, 0ms) == Approx(static_cast<double>(span) / 4.0));
        CHECK(p.speed_at(span, 3000ms) == p.speed_at(span, 0ms)); // one pace throughout
        CHECK_FALSE(p.speeds_up(span));
        const auto t = wall_time(p, span, static_cast<double>(span));
        CHECK(t >= 3990ms);
        CHECK(t <= 4010ms);
    }
}

TEST_CASE("a lesson run to the workload's end is watched first, then doubles its pace every second", "[ui][lesson]")
{
    lesson_pacing p;
    p.watch = 4000ms;
    p.finish_shown_ns = 100'000'000;
    CHECK(p.speeds_up(std::nullopt));
    // The first 100 ms of virtual time take the watch time.
    CHECK(p.speed_at(std::nullopt, 0ms) == Approx(25'000'000.0));
    CHECK(p.speed_at(std::nullopt, 4000ms) == Approx(25'000'000.0));
    CHECK(p.speed_at(std::nullopt, 5000ms) == Approx(50'000'000.0));
    CHECK(p.speed_at(std::nullopt, 7000ms) == Approx(200'000'000.0));
    double last = 0;
    for (auto t = 0ms; t <= 20000ms; t += 250ms) {
        CHECK(p.speed_at(std::nullopt, t) >= last);
        last = p.speed_at(std::nullopt, t);
    }
    // A build of 105 ms of virtual time is watched for a little over the watch time ...
    const auto build = wall_time(p, std::nullopt, 105e6);
    CHECK(build >= 4000ms);
    CHECK(build <= 4500ms);
    // ... and the longest run to the end (RUN_FINISH_CAP_NS, 20 s virtual) is still over within seconds.
    const auto longest = wall_time(p, std::nullopt, static_cast<double>(lessons::RUN_FINISH_CAP_NS));
    CHECK(longest > 4000ms);
    CHECK(longest < 15000ms);
}

TEST_CASE("a watch time of 0 runs a lesson step as fast as the machine goes", "[ui][lesson]")
{
    lesson_pacing p;
    p.watch = 0ms;
    CHECK(p.speed_at(20'000'000, 0ms) == 0);
    CHECK(p.speed_at(std::nullopt, 0ms) == 0);
    CHECK(p.speed_at(std::nullopt, 9000ms) == 0);
    CHECK_FALSE(p.speeds_up(std::nullopt));
}
