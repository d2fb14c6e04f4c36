// Each switch flipped in the UI (its check box, or its key) changes the running engine's switch.
#include "window_test_support.hpp"

#include "ui/window/controls_panel.hpp"
#include "ui/window/switch_table.hpp"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>

#include <catch2/catch.hpp>

#include <algorithm>

using namespace pcplab;
using namespace pcplab::ui;

namespace
{
bool engine_has(const main_window& w, mm::patch p, bool on)
{
    auto a = test::shown_a(w);
    return a && a->patches[p] == on;
}

QAction* action_for_key(const main_window& w, const QKeySequence& key)
{
    for (QAction* a : w.actions())
        if (a->shortcuts().contains(key)) return a;
    return nullptr;
}
} // namespace

TEST_CASE("each switch's check box flips that switch on the running engine", "[ui][window][switches]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    int flipped = 0;
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) {
        const auto p = static_cast<mm::patch>(i);
        INFO("switch " << mm::patch_name(p));
        QCheckBox* b = w.controls()->switches()->box(sim::command_target::a, p);
        REQUIRE(b->isVisible());
        const bool before = test::shown_a(w)->patches[p];
        CHECK(b->isChecked() == before);
        if (!b->isEnabled()) {
            // Greyed: it cannot act on this machine (window_switch_reach_test.cpp); a click changes nothing.
            CHECK_FALSE(b->toolTip().isEmpty());
            b->click();
            CHECK(b->isChecked() == before);
            continue;
        }
        ++flipped;
        b->click();
        CHECK(b->isChecked() == !before);
        REQUIRE(test::wait_until([&] { return engine_has(w, p, !before); }));
        // Only that switch moved.
        for (unsigned j = 0; j < mm::NR_PATCHES; ++j)
            if (j != i)
                CHECK(test::shown_a(w)->patches.on[j]
                    == w.controls()->switches()->state(sim::command_target::a, static_cast<mm::patch>(j)));
        b->click();
        REQUIRE(test::wait_until([&] { return engine_has(w, p, before); }));
        CHECK(w.setup().sw_a[i] == before);
    }
    CHECK(flipped >= 3); // classroom: 000, 001 and 003 can act
}

TEST_CASE("the number keys flip the switches in table order", "[ui][window][switches]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    // Keys 0-9 reach the first ten switches; the rest flip from the Switches menu and the table.
    for (unsigned i = 0; i < std::min(10u, mm::NR_PATCHES); ++i) {
        const auto p = static_cast<mm::patch>(i);
        QAction* a = action_for_key(w, QKeySequence(Qt::Key_0 + static_cast<int>(i)));
        REQUIRE(a != nullptr);
        const bool before = test::shown_a(w)->patches[p];
        const bool greyed = !w.controls()->switches()->box(sim::command_target::a, p)->isEnabled();
        a->trigger();
        if (greyed) { // left alone, and the status bar says why
            CHECK(w.controls()->switches()->state(sim::command_target::a, p) == before);
            CHECK(w.last_message().startsWith(QStringLiteral("Not flipped")));
            continue;
        }
        REQUIRE(test::wait_until([&] { return engine_has(w, p, !before); }));
        CHECK(w.controls()->switches()->state(sim::command_target::a, p) == !before);
    }
    // Space pauses: the run-control keys are wired too.
    QAction* space = action_for_key(w, QKeySequence(Qt::Key_Space));
    REQUIRE(space != nullptr);
    space->trigger();
    REQUIRE(test::wait_until([&] { return test::shown_a(w)->state == sim::run_state::paused; }));
}

TEST_CASE("a switch flipped live survives a reboot with a new seed", "[ui][window][switches]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    const auto p = mm::patch::batched_bulk_free;
    const bool before = test::shown_a(w)->patches[p];
    w.controls()->switches()->box(sim::command_target::a, p)->click();
    REQUIRE(test::wait_until([&] { return engine_has(w, p, !before); }));
    const auto gen = test::shown_a(w)->run.generation;
    w.machine()->choose_seed(7);
    REQUIRE(test::wait_until([&] {
        auto a = test::shown_a(w);
        return a->run.generation > gen && a->seed == 7 && a->state == sim::run_state::running;
    }));
    CHECK(test::shown_a(w)->patches[p] == !before);
    CHECK(w.controls()->switches()->state(sim::command_target::a, p) == !before);
}

TEST_CASE("choosing seed 000's era without the fix shows the switch off and the small batch", "[ui][window][switches]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    w.machine()->choose_era(QStringLiteral("5.4.0-rc3"));
    const auto p = mm::patch::pcp_update_after_deferred_init;
    REQUIRE(test::wait_until([&] {
        auto a = test::shown_a(w);
        return a->era.str() == "v5.4" && !a->patches[p] && a->state == sim::run_state::running;
    }));
    CHECK_FALSE(w.controls()->switches()->state(sim::command_target::a, p));
    // Without the fix each Normal zone keeps the batch computed from its first section (classroom: 7).
    auto a = test::shown_a(w);
    for (const auto& z : a->zones)
        if (z.zone == mm::ZONE_NORMAL) CHECK(z.batch == 7);
    // Turning it on live runs zone_pcp_update now: batch 63.
    w.controls()->switches()->box(sim::command_target::a, p)->click();
    REQUIRE(test::wait_until([&] {
        for (const auto& z : test::shown_a(w)->zones)
            if (z.zone == mm::ZONE_NORMAL && z.batch != 63) return false;
        return true;
    }));
}
