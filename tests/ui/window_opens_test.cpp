// The window opens on the default preset, already booting, and snapshots reach the views and the controls.
#include "window_test_support.hpp"

#include "ui/window/controls_panel.hpp"
#include "ui/window/delta_panel.hpp"
#include "ui/window/view_area.hpp"

#include <QComboBox>
#include <QPushButton>
#include <QScreen>
#include <QSettings>

#include <catch2/catch.hpp>

#include <set>

using namespace pcplab;
using namespace pcplab::ui;

TEST_CASE("the window opens on the classroom preset and its snapshots arrive", "[ui][window]")
{
    test::sandbox box;
    main_window w(box.options());
    w.show();
    REQUIRE(w.source() != nullptr);
    CHECK(w.setup().preset == "classroom");
    CHECK(w.controls()->preset_box()->currentData().toString() == QStringLiteral("classroom"));

    // It boots by itself (no dialog, no click): deferred init progresses visibly, with the deferred-init view
    // brought forward, and then the default workload runs.
    std::set<unsigned long> progress; // frames done, as shown while booting
    bool deferred_tab_forward = false;
    REQUIRE(test::wait_until([&] {
        auto s = test::shown_a(w);
        if (s && s->state == sim::run_state::booting) {
            unsigned long done = 0, total = 0;
            for (const auto& d : s->deferred_init) {
                done += d.done;
                total += d.total;
            }
            if (total > 0 && done < total) progress.insert(done);
            deferred_tab_forward = deferred_tab_forward || w.views()->current_tab() == QStringLiteral("deferred");
        }
        return test::running(w, 1'000'000);
    }));
    CHECK(progress.size() >= 3);
    CHECK(deferred_tab_forward);
    const auto a = test::shown_a(w);
    CHECK(a->preset == "classroom");
    CHECK(a->workload == "kernbench");
    CHECK(a->nr_cpus == 8);
    CHECK(!a->deferred_init.empty());
    for (const auto& d : a->deferred_init) CHECK(d.finished);

    // Every snapshot went into the history, and the views and figures were given frames.
    CHECK(w.pump()->snapshots_taken() >= 2);
    CHECK(w.pump()->history_a().samples().size() >= 2);
    CHECK(w.pump()->frames_shown() >= 1);
    CHECK(!w.views()->views().empty());
    CHECK(w.deltas()->cell_text(0, 0) != QStringLiteral("-"));
    CHECK(w.controls()->play_button()->text() == QStringLiteral("Pause"));
}

TEST_CASE("the event log receives seed 000's batch change of the classroom boot", "[ui][window]")
{
    // Classroom runs v5.4 with pcp-update-after-deferred-init on: each Normal zone's batch is recomputed when its
    // node's deferred init completes. The history must hold that event although the UI polls.
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    bool batch_rose = false;
    for (const auto& e : w.pump()->history_a().events())
        if (e.kind == sim::event_kind::limits_change && e.field == sim::event_field::batch && e.zone == mm::ZONE_NORMAL
            && e.new_value > e.old_value)
            batch_rose = true;
    CHECK(batch_rose);
}

TEST_CASE("pause, step and resume act on the running machine", "[ui][window]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    w.machine()->play_pause();
    REQUIRE(test::wait_until([&] { return test::shown_a(w)->state == sim::run_state::paused; }));
    CHECK(w.controls()->play_button()->text() == QStringLiteral("Play"));
    const auto t0 = test::shown_a(w)->boundary_ns;
    w.source()->step();
    REQUIRE(test::wait_until([&] { return test::shown_a(w)->boundary_ns > t0; }));
    CHECK(test::shown_a(w)->state == sim::run_state::paused);
    w.machine()->play_pause();
    REQUIRE(test::wait_until([&] { return test::running(w, t0 + 10'000'000); }));
}

TEST_CASE("the last preset and theme are remembered in the settings file", "[ui][window]")
{
    test::sandbox box;
    const QString tiny = box.tiny_preset();
    {
        main_window w(box.options());
        w.machine()->choose_preset(tiny);
        w.look()->set_theme(theme_kind::dark);
        REQUIRE(test::wait_until([&] {
            auto a = test::shown_a(w);
            return a && a->nr_cpus == 4 && a->state == sim::run_state::running;
        }));
        w.close();
    }
    QSettings saved(box.settings_file(), QSettings::IniFormat);
    CHECK(saved.value(QStringLiteral("run/preset")).toString() == tiny);
    CHECK(saved.value(QStringLiteral("ui/theme")).toString() == QStringLiteral("dark"));
    main_window again(box.options());
    CHECK(again.setup().preset == tiny.toStdString());
    CHECK(again.look()->theme() == theme_kind::dark);
    again.look()->set_theme(theme_kind::light);
}

TEST_CASE("the first start fills the screen, and a later start opens as the window was left", "[ui][window]")
{
    test::sandbox box;
    window_options o = box.options();
    o.first_start_fills_screen = true; // as the application starts, with the test's own settings file
    QSize left;
    {
        main_window w(o);
        w.show();
        REQUIRE(test::wait_layout_settled(w));
        CHECK(w.isMaximized());
        const QRect avail = w.screen()->availableGeometry();
        CHECK(w.frameGeometry().width() >= avail.width() - 2);
        CHECK(w.frameGeometry().height() >= avail.height() - 2);
        w.showNormal();
        REQUIRE(test::wait_layout_settled(w));
        CHECK_FALSE(w.isMaximized());
        left = w.size();
        w.close(); // saves the geometry
    }
    main_window again(o);
    again.show();
    REQUIRE(test::wait_layout_settled(again));
    CHECK_FALSE(again.isMaximized());
    CHECK(again.size() == left);
}
