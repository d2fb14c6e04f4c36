#include "sim/pacing.hpp"

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace std::chrono_literals;
using clk = sim::pacing::clock;

TEST_CASE("quanta_until counts whole quanta to the first boundary at or after a time", "[pacing]")
{
    CHECK(sim::quanta_until(1000, 100, 1000) == 0);
    CHECK(sim::quanta_until(1000, 100, 900) == 0);
    CHECK(sim::quanta_until(1000, 100, 1001) == 1);
    CHECK(sim::quanta_until(1000, 100, 1100) == 1);
    CHECK(sim::quanta_until(1000, 100, 1101) == 2);
    CHECK(sim::quanta_until(1050, 100, 1100) == 1); // an unaligned boundary (after a quantum change)
    CHECK(sim::quanta_until(1050, 100, 1250) == 3);
    CHECK(sim::next_boundary(1050, 100) == 1100);
    CHECK(sim::next_boundary(1100, 100) == 1200);
}

TEST_CASE("as fast as possible, a tick runs as many quanta as fit in half a publish interval", "[pacing]")
{
    sim::pacing p(50); // 20 ms interval: aim at 10 ms per tick
    const auto t0 = clk::time_point{} + 1s;
    p.anchor(t0, 0);
    CHECK(p.quanta_due(t0, 0, 1000) == 1);
    p.record(1, 1ms); // 1 ms per quantum: 10 fit, but growth is limited to doubling
    CHECK(p.chunk() == 2);
    p.record(2, 2ms);
    p.record(4, 4ms);
    p.record(8, 8ms);
    CHECK(p.chunk() == 10);
    CHECK(p.quanta_due(t0 + 5s, 12345, 1000) == 10);
    p.record(10, 50ms); // the work got heavier: shrink at once
    CHECK(p.chunk() == 2);
}

TEST_CASE("paced, the wall clock decides how many whole quanta are due", "[pacing]")
{
    sim::pacing p(30);
    p.set_speed(1'000'000); // 1 ms of virtual time per wall second
    REQUIRE(p.paced());
    for (int i = 0; i < 20; ++i) p.record(1, 1us); // plenty of capacity
    const auto t0 = clk::time_point{} + 10s;
    p.anchor(t0, 0);
    CHECK(p.quanta_due(t0, 0, 100'000) == 0);
    CHECK(p.quanta_due(t0 + 99ms, 0, 100'000) == 0); // 99 us due: not one whole quantum yet
    CHECK(p.quanta_due(t0 + 100ms, 0, 100'000) == 1);
    CHECK(p.quanta_due(t0 + 250ms, 0, 100'000) == 2);
    CHECK(p.quanta_due(t0 + 250ms, 200'000, 100'000) == 0); // those two have run
    CHECK_FALSE(p.behind());
    // The next quantum (to 300 us) is due 300 ms after the anchor.
    CHECK(p.next_due(200'000, 100'000) == t0 + 300ms);
}

TEST_CASE("paced beyond what the host can do, the schedule moves instead of bursting later", "[pacing]")
{
    sim::pacing p(30);
    p.set_speed(1e9); // one virtual second per wall second
    p.record(1, 10ms); // but a 1 ms quantum takes 10 ms: one quantum per tick fits (16 ms budget)
    REQUIRE(p.chunk() == 1);
    const auto t0 = clk::time_point{} + 10s;
    p.anchor(t0, 0);
    CHECK(p.quanta_due(t0 + 1s, 0, 1'000'000) == 1); // 1000 quanta due, one runs
    CHECK(p.behind());
    // The loop re-anchors after such a tick; from there, only what the wall clock allows since then is due.
    p.anchor(t0 + 1s, 1'000'000);
    CHECK_FALSE(p.behind());
    CHECK(p.quanta_due(t0 + 1s + 1ms, 1'000'000, 1'000'000) == 1);
    CHECK_FALSE(p.behind()); // one quantum late is within an interval
}
