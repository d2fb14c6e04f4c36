// A/B: two machines with the same preset, workload and seed run in lockstep, B differing in the switches picked
// in its column, and the figures panel shows both with B's change.
#include "window_test_support.hpp"

#include "ui/window/controls_panel.hpp"
#include "ui/window/delta_panel.hpp"
#include "ui/window/switch_table.hpp"

#include <QCheckBox>

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::ui;

TEST_CASE("A/B runs two machines in lockstep that differ only in B's switches", "[ui][window][ab]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    w.machine()->set_ab(true);
    REQUIRE(w.source()->is_ab());
    CHECK(
        w.controls()->switches()->box(sim::command_target::b, mm::patch::pcp_update_after_deferred_init)->isVisible());
    REQUIRE(test::wait_until([&] {
        auto a = test::shown_a(w), b = test::shown_b(w);
        return a && b && a->state == sim::run_state::running && b->state == sim::run_state::running
            && a->sim_time_ns > 2'000'000;
    }));
    auto a = test::shown_a(w), b = test::shown_b(w);
    CHECK(a->side == 0);
    CHECK(b->side == 1);
    CHECK(a->preset == b->preset);
    CHECK(a->workload == b->workload);
    CHECK(a->seed == b->seed);
    // On classroom (v5.4) B starts with seed 000's switch flipped, everything else as A.
    const auto p0 = mm::patch::pcp_update_after_deferred_init;
    CHECK(a->patches[p0] != b->patches[p0]);
    for (unsigned i = 1; i < mm::NR_PATCHES; ++i) CHECK(a->patches.on[i] == b->patches.on[i]);

    // Lockstep: every pair published while running has both engines at the same quantum boundary.
    int pairs = 0;
    REQUIRE(test::wait_until([&] {
        for (const auto& pr : w.source()->take_published()) {
            if (!pr.a || !pr.b || pr.a->state != sim::run_state::running) continue;
            CHECK(pr.a->boundary_ns == pr.b->boundary_ns);
            CHECK(pr.a->run.generation == pr.b->run.generation);
            ++pairs;
        }
        return pairs >= 5;
    }));

    // B's column acts on B alone.
    const auto p3 = mm::patch::batched_bulk_free;
    const bool a3 = test::shown_a(w)->patches[p3];
    w.controls()->switches()->box(sim::command_target::b, p3)->click();
    REQUIRE(test::wait_until([&] { return test::shown_b(w)->patches[p3] == !a3; }));
    CHECK(test::shown_a(w)->patches[p3] == a3);

    // The figures panel shows both machines and B's change. Row 2 is per unit of work: "-" until that machine
    // has done some, and B may get there a frame before A (the clean-clone CI caught A's still "-" once).
    REQUIRE(test::wait_until([&] {
        return w.deltas()->cell_text(2, 0) != QStringLiteral("-") && w.deltas()->cell_text(2, 1) != QStringLiteral("-");
    }));
    CHECK(w.deltas()->cell_text(2, 2).contains(QLatin1Char('%')));

    // Back to one machine.
    w.machine()->set_ab(false);
    CHECK_FALSE(w.source()->is_ab());
    REQUIRE(test::wait_until([&] { return test::running(w) && !test::shown_b(w); }));
}

TEST_CASE("the A/B options (--ab, --patch-b) start the pair with B's switches as given", "[ui][window][ab]")
{
    test::sandbox box;
    window_options o = box.options();
    o.ab = true;
    o.patches_b.push_back({mm::patch::bulk_free_pick_outside_lock, false});
    main_window w(o);
    REQUIRE(w.source()->is_ab());
    REQUIRE(test::wait_until([&] {
        auto b = test::shown_b(w);
        return b && b->state == sim::run_state::running;
    }));
    const auto p = mm::patch::bulk_free_pick_outside_lock;
    CHECK(test::shown_a(w)->patches[p]); // v5.4 has Aaron Lu's patch
    CHECK_FALSE(test::shown_b(w)->patches[p]);
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i)
        if (i != static_cast<unsigned>(p)) CHECK(test::shown_a(w)->patches.on[i] == test::shown_b(w)->patches.on[i]);
}
