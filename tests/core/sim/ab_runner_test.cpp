#include "core/sim/engine_test_support.hpp"
#include "support/ab_runner.hpp"

#include <catch2/catch.hpp>

#include <thread>

using namespace pcplab;
using namespace std::chrono_literals;

namespace
{

constexpr sim::vtime_ns quantum = 50'000;

sim::loop_options ab_opts(bool paused = false)
{
    sim::loop_options o;
    o.publish_hz = 100;
    o.quantum_ns = quantum;
    o.start_paused = paused;
    test::loop_params p;
    p.gap_ns = 20'000;
    o.make_load = test::loop_factory(p);
    return o;
}

// A and B differ in one switch only.
std::pair<sim::engine_config, sim::engine_config> pair_configs()
{
    auto a = test::small_config(1, 2, 1, "v6.7");
    auto b = a;
    b.patches.set(mm::patch::batched_bulk_free, !a.patches[mm::patch::batched_bulk_free]);
    return {a, b};
}

bool both(const test::ab_snapshot& p, sim::run_state st)
{
    return p.a && p.b && p.a->state == st && p.b->state == st;
}

} // namespace

TEST_CASE("the A/B runner keeps both engines at the same virtual time", "[ab_runner]")
{
    auto [a, b] = pair_configs();
    test::ab_runner ab(a, b, ab_opts());
    auto first = ab.wait_for([](const test::ab_snapshot& p) { return both(p, sim::run_state::running); }, 20s);
    REQUIRE(first);
    std::uint64_t checked = 0;
    sim::vtime_ns last = 0;
    const auto end = std::chrono::steady_clock::now() + 500ms;
    while (std::chrono::steady_clock::now() < end) {
        auto p = ab.latest();
        if (both(*p, sim::run_state::running)) {
            CHECK(p->a->boundary_ns == p->b->boundary_ns);
            CHECK(p->a->sim_time_ns >= p->a->boundary_ns);
            CHECK(p->b->sim_time_ns >= p->b->boundary_ns);
            CHECK(p->a->boundary_ns >= last);
            last = p->a->boundary_ns;
            ++checked;
        }
        std::this_thread::sleep_for(5ms);
    }
    CHECK(checked > 10);
    CHECK(last > first->a->boundary_ns);
    // They really are two configurations.
    auto p = ab.latest();
    CHECK(p->a->patches[mm::patch::batched_bulk_free] != p->b->patches[mm::patch::batched_bulk_free]);
    CHECK(p->a->side == 0);
    CHECK(p->b->side == 1);
}

TEST_CASE("A/B stepping advances both engines by exactly one quantum", "[ab_runner]")
{
    auto [a, b] = pair_configs();
    test::ab_runner ab(a, b, ab_opts(true));
    auto s0 = ab.wait_for([](const test::ab_snapshot& p) { return both(p, sim::run_state::paused); }, 20s);
    REQUIRE(s0);
    const auto id = ab.step_quantum();
    auto s1 = ab.wait_for(
        [&](const test::ab_snapshot& p) { return p.a && p.b && p.a->run.commands_done_through >= id; }, 20s);
    REQUIRE(s1);
    CHECK(s1->a->boundary_ns == s0->a->boundary_ns + quantum);
    CHECK(s1->b->boundary_ns == s0->b->boundary_ns + quantum);
    CHECK(s1->a->events_processed > s0->a->events_processed);
    CHECK(s1->b->events_processed > s0->b->events_processed);
}

TEST_CASE("a command for one side of an A/B pair changes only that side", "[ab_runner]")
{
    auto [a, b] = pair_configs();
    test::ab_runner ab(a, b, ab_opts());
    REQUIRE(ab.wait_for([](const test::ab_snapshot& p) { return both(p, sim::run_state::running); }, 20s));
    const bool a_was = a.patches[mm::patch::bulk_free_pick_outside_lock];
    const auto id = ab.set_patch(sim::command_target::b, mm::patch::bulk_free_pick_outside_lock, !a_was);
    auto s = ab.wait_for([&](const test::ab_snapshot& p) { return p.b && p.b->run.commands_done_through >= id; }, 20s);
    REQUIRE(s);
    CHECK(s->b->patches[mm::patch::bulk_free_pick_outside_lock] == !a_was);
    CHECK(s->a->patches[mm::patch::bulk_free_pick_outside_lock] == a_was);
    CHECK(s->a->boundary_ns == s->b->boundary_ns);
}
