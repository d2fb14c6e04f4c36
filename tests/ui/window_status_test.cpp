// The status bar's messages: one too long for the room left of the permanent labels is elided, not clipped
// mid-word, and its whole text is in the bar's tooltip until the message goes.
#include "window_test_support.hpp"

#include "ui/window/command_sentence.hpp"
#include "ui/window/frame_pump.hpp"
#include "ui/window/window_status.hpp"

#include <QApplication>
#include <QMainWindow>
#include <QStatusBar>

#include <catch2/catch.hpp>

using namespace pcplab::ui;

TEST_CASE("a status message too long for the bar is elided, whole in the tooltip", "[ui][window]")
{
    // The note of a preset switch left out on a later era, as the status bar showed it at 1280x800.
    const QString text = QStringLiteral(
        "preset epyc2-256's pcp-update-after-deferred-init=off is left out on era v6.7: pcp-update-after-deferred-"
        "init: from v5.14 the call at the end of deferred init is gone; setup_per_zone_wmarks() recomputes every "
        "pageset after deferred init in every case, so the switch has nothing to change on era v6.7");
    QStatusBar bar;
    frame_pump pump;
    window_status status(&bar, &pump);
    bar.resize(900, 30);
    bar.show();
    QApplication::processEvents();
    status.show_message(text, 0);
    CHECK(status.last_message() == text);
    const QString shown = bar.currentMessage();
    CHECK(shown.endsWith(QChar(0x2026)));
    CHECK(bar.fontMetrics().horizontalAdvance(shown) < 900);
    CHECK(bar.toolTip() == text);
    status.show_message(QStringLiteral("short"), 0);
    CHECK(bar.currentMessage() == QStringLiteral("short"));
    CHECK(bar.toolTip().isEmpty());
}

// The boot message goes once the machine runs, also when the bar had to elide it ("Booting classroo...").
TEST_CASE("the boot message leaves the status bar when the machine runs, elided or not", "[ui][window]")
{
    test::sandbox box;
    main_window w(box.options());
    w.resize(560, 480); // narrow: the permanent labels leave the message too little room
    w.show();
    REQUIRE(test::wait_until([&] { return test::running(w); }));
    CHECK(
        test::wait_until([&] { return !w.statusBar()->currentMessage().startsWith(QStringLiteral("Booting")); }, 5000));
}

TEST_CASE("a command's result reads as a sentence with human units, not the engine's log line", "[ui][window]")
{
    // The --screenshot pause, posted while the engine ran flat out: it took effect after its time.
    pcplab::sim::command_result late;
    late.kind = pcplab::sim::command_kind::pause;
    late.what = "pause at 2000000000 ns";
    late.message = "late: its time had passed when it arrived";
    late.applied_at_ns = 2'000'000'000; // the boundary it was applied at
    const QString s = command_sentence(late, false);
    CHECK(s.toStdString()
        == "The pause asked for at 2.000 s virtual reached the machine after it had run past that time: it took "
           "effect at once.");
    CHECK_FALSE(s.contains(QStringLiteral("2000000000")));
    CHECK_FALSE(s.contains(QStringLiteral(" ns")));

    pcplab::sim::command_result refused;
    refused.kind = pcplab::sim::command_kind::set_sysctl;
    refused.ok = false;
    refused.what = "set_sysctl percpu_pagelist_high_fraction=3 [B] at 316400000 ns";
    refused.message = "below the minimum of 8";
    CHECK(command_sentence(refused, true).toStdString()
        == std::string("Sysctl percpu_pagelist_high_fraction = 3 for machine B at 316.40 ms virtual was refused: "
                       "below the minimum of 8."));
    // A single machine's commands go to A: naming it would only puzzle.
    CHECK_FALSE(command_sentence(refused, false).contains(QStringLiteral("machine B")));
}
