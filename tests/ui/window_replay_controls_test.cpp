// The controls dock during a replay: it shows how the recording was made (preset, era, seed, workload and the
// switches of the fixture recording, classroom on v5.4) rather than the live machine's setup (a tiny v6.7
// machine on another workload and seed), read-only except for run control, and the live setup again once
// the live machine is back.
#include "window_test_support.hpp"

#include "ui/window/controls_panel.hpp"
#include "ui/window/switch_table.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::ui;

TEST_CASE("during a replay the controls show the recording's setup, read-only, then the live one again",
    "[ui][window][replay]")
{
    test::sandbox presets; // the tiny preset's file must outlive the window's sandbox setup
    const std::string tiny = presets.tiny_preset().toStdString();
    test::running_window rw([&](window_options& o) {
        o.preset = tiny;
        o.workload = "page-fault1";
        o.seed = 7;
    });
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    controls_panel* c = w.controls();
    const QString path = rw.box.dir.filePath(QStringLiteral("classroom-kernbench.db"));
    REQUIRE(QFile::copy(QStringLiteral(PCPLAB_TEST_FIXTURES "/recordings/classroom-kernbench-v1.db"), path));

    auto live_shown = [&] {
        CHECK(c->preset_box()->currentData().toString() == QString::fromStdString(tiny));
        CHECK(c->workload_box()->currentData().toString() == QStringLiteral("page-fault1"));
        CHECK(c->seed_box()->value() == 7);
        CHECK(c->switches()->state(sim::command_target::a, mm::patch::pcp_high_autotune)); // the v6.7 default
        CHECK(c->preset_box()->isEnabled());
        CHECK(c->switches()->isEnabled());
        CHECK_FALSE(c->replay());
    };
    live_shown();

    REQUIRE(w.session()->open_recording(path).isEmpty());
    CHECK(c->replay());
    CHECK(c->preset_box()->currentData().toString() == QStringLiteral("classroom"));
    CHECK(c->era_box()->currentData().toString() == QStringLiteral("v5.4"));
    CHECK(c->workload_box()->currentData().toString() == QStringLiteral("kernbench"));
    CHECK(c->seed_box()->value() == 1);
    CHECK_FALSE(c->ab_box()->isChecked());
    // The recorded switches: v5.4 has seed 000's fix and no auto-tuning.
    CHECK(c->switches()->state(sim::command_target::a, mm::patch::pcp_update_after_deferred_init));
    CHECK_FALSE(c->switches()->state(sim::command_target::a, mm::patch::pcp_high_autotune));
    // Still so once the recorded snapshots are on screen (they move the switch boxes as they were).
    REQUIRE(test::wait_until([&] { return test::shown_a(w) && test::shown_a(w)->preset == "classroom"; }));
    QCoreApplication::processEvents();
    CHECK_FALSE(c->switches()->state(sim::command_target::a, mm::patch::pcp_high_autotune));
    CHECK(c->preset_box()->currentData().toString() == QStringLiteral("classroom"));
    // Nothing that would change how the recording was made can be used; run control acts on the replay.
    CHECK_FALSE(c->preset_box()->isEnabled());
    CHECK_FALSE(c->era_box()->isEnabled());
    CHECK_FALSE(c->ab_box()->isEnabled());
    CHECK_FALSE(c->workload_box()->isEnabled());
    CHECK_FALSE(c->switches()->isEnabled());
    CHECK(c->play_button()->isEnabled());
    CHECK(c->findChild<QLabel*>(QStringLiteral("replay-note"))->isVisibleTo(c));

    w.session()->back_to_live();
    REQUIRE_FALSE(w.source()->is_replay());
    live_shown();
    CHECK_FALSE(c->findChild<QLabel*>(QStringLiteral("replay-note"))->isVisibleTo(c));
    REQUIRE(test::wait_until([&] { return test::running(w) && test::shown_a(w)->preset != "classroom"; }));
    QCoreApplication::processEvents();
    live_shown();
}
