// Rounds of a finite workload: continuous mode starts the next round when one finishes; a finished engine
// starts one when asked (the window's Play after `finished`).
#include "core/sim/engine_test_support.hpp"
#include "support/engine_thread.hpp"

#include "mm/state_digest.hpp"
#include "mm/verify.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace pcplab;
using namespace std::chrono_literals;

namespace
{

test::loop_params three_rounds()
{
    test::loop_params p;
    p.burst = 40;
    p.gap_ns = 100'000;
    p.rounds = 3; // each CPU: three bursts, then done
    return p;
}

std::vector<sim::sim_event> rounds_of(const sim::engine& e)
{
    std::vector<sim::sim_event> v;
    for (const auto& ev : e.events())
        if (ev.kind == sim::event_kind::workload_round) v.push_back(ev);
    return v;
}

} // namespace

TEST_CASE("in continuous mode a finite workload starts a new round when it finishes, virtual time going on", "[rounds]")
{
    auto cfg = test::small_config(1, 2, 1, "v6.7");
    cfg.keep_events = true;
    sim::engine once(cfg, test::loop_factory(three_rounds()));
    while (once.step()) { }
    REQUIRE(once.finished());
    const sim::vtime_ns one_round = once.elapsed();
    const double one_round_work = once.score().work_units;
    REQUIRE(one_round > 0);

    cfg.continuous = true;
    sim::engine e(cfg, test::loop_factory(three_rounds()));
    test::run_to(e, 5 * one_round);
    CHECK_FALSE(e.finished());
    CHECK(e.rounds_done() >= 3);
    CHECK(e.elapsed() >= 5 * one_round);
    // Each round is an event at the instant the previous one finished, numbered from 2, in time order.
    const auto marks = rounds_of(e);
    REQUIRE(marks.size() == e.rounds_done());
    for (std::size_t i = 0; i < marks.size(); ++i) {
        CHECK(marks[i].new_value == static_cast<long>(i + 2));
        if (i > 0) CHECK(marks[i].t > marks[i - 1].t);
    }
    // The first round ends exactly as a run without rounds does; the work adds up over the rounds.
    CHECK(marks.front().t == once.workload_start() + one_round);
    CHECK(e.score().work_units >= static_cast<double>(e.rounds_done()) * one_round_work);
    // Every CPU of the workload takes part in every round (each does the first round's work again), and
    // nothing leaks between them.
    CHECK(e.totals().allocs >= e.rounds_done() * once.totals().allocs);
    CHECK(mm::verify(e.machine()).ok());

    // Deterministic.
    sim::engine again(cfg, test::loop_factory(three_rounds()));
    test::run_to(again, 5 * one_round);
    CHECK(mm::state_digest(again.machine()) == mm::state_digest(e.machine()));
    CHECK(again.events_processed() == e.events_processed());
}

TEST_CASE("a finished workload starts a new round when asked, and only then", "[rounds]")
{
    auto cfg = test::small_config(1, 2, 1, "v5.4");
    cfg.keep_events = true;
    sim::engine e(cfg, test::loop_factory(three_rounds()));
    test::run_to(e, 50'000); // inside the first burst's gap: three bursts and gaps take over 200 us
    REQUIRE_FALSE(e.finished());
    CHECK_FALSE(e.start_round()); // still running: nothing to start
    while (e.step()) { }
    REQUIRE(e.finished());
    const sim::vtime_ns finished_at = e.elapsed();
    const std::uint64_t steps = e.events_processed();
    REQUIRE(e.start_round());
    CHECK_FALSE(e.finished());
    CHECK(e.rounds_done() == 1);
    REQUIRE(rounds_of(e).size() == 1);
    CHECK(rounds_of(e).front().t == e.workload_start() + finished_at);
    while (e.step()) { }
    CHECK(e.finished());
    CHECK(e.events_processed() > steps);
    CHECK(e.elapsed() > finished_at);
    // Turning continuous mode on for a finished run goes on at once.
    e.set_continuous(true);
    CHECK_FALSE(e.finished());
    CHECK(e.rounds_done() == 2);
}

TEST_CASE("Play after a finished workload starts a new round in the engine thread", "[rounds][engine_thread]")
{
    test::engine_thread_options o;
    o.speed = 0;
    o.publish_hz = 200;
    o.make_load = test::loop_factory(three_rounds());
    auto cfg = test::small_config(1, 2, 1, "v5.4");
    cfg.keep_events = true;
    test::engine_thread t(cfg, o);
    auto done = t.wait_for([](const sim::snapshot& s) { return s.state == sim::run_state::finished; }, 30s);
    REQUIRE(done);
    auto again = t.wait_for_command(t.resume(), 20s);
    REQUIRE(again);
    auto second = t.wait_for(
        [&](const sim::snapshot& s) {
            return s.state == sim::run_state::finished && s.sim_time_ns > done->sim_time_ns;
        },
        30s);
    REQUIRE(second);
    // The continuous switch makes it go on by itself.
    auto on = t.wait_for_command(t.post(sim::make_set_continuous(true)), 20s);
    REQUIRE(on);
    auto moving = t.wait_for(
        [&](const sim::snapshot& s) {
            return s.state == sim::run_state::running && s.sim_time_ns > second->sim_time_ns + 1'000'000;
        },
        30s);
    REQUIRE(moving);
}
