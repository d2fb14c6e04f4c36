// A run that ends at t covers the workload's time up to t: engine::end_at cuts the compute and idle periods that run_until left
// reaching past t (a CPU's period is one step, so run_until(1 ms) of a bursty load stood at 4.65 ms).
#include "core/sim/engine_test_support.hpp"

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::test;

namespace
{

std::uint64_t user_and_idle_ns(const sim::engine& e)
{
    std::uint64_t ns = 0;
    for (const auto& c : e.cpus()) ns += c.user_ns + c.idle_ns;
    return ns;
}

} // namespace

TEST_CASE("end_at cuts the periods that reach past the end, so the run stops at its end")
{
    loop_params p;
    p.burst = 4;
    p.gap_ns = 3'000'000; // 3 ms of compute between bursts: every CPU's clock jumps far past 1 ms
    sim::engine e(small_config(1, 2, 1, "v6.7"), loop_factory(p));
    e.boot();
    // Virtual time counts from power-on: the run's end is 1 ms after the workload's start.
    const sim::vtime_ns end = e.workload_start() + 1'000'000;
    e.run_until(end);
    REQUIRE(e.now() > end); // run_until alone overshoots
    const auto before = user_and_idle_ns(e);
    const auto events = e.events_processed();
    e.end_at(end);
    CHECK(e.now() == end);
    CHECK(e.elapsed() == 1'000'000);
    CHECK(e.events_processed() == events);
    // What was cut comes off the CPUs' user and idle time: each CPU's periods now end at `end`.
    CHECK(user_and_idle_ns(e) < before);
    for (const auto& c : e.cpus()) CHECK(c.user_ns + c.idle_ns + c.sys_ns <= e.elapsed());

    // Stepping on continues the cut periods: the machine reaches the same state as a run never cut.
    sim::engine whole(small_config(1, 2, 1, "v6.7"), loop_factory(p));
    whole.boot();
    const sim::vtime_ns later = e.workload_start() + 5'000'000;
    REQUIRE(whole.workload_start() == e.workload_start());
    e.run_until(later);
    whole.run_until(later);
    CHECK(loop_of(e).allocations == loop_of(whole).allocations);
}
