// The status bar's messages: one too long for the room left of the permanent labels is elided, not clipped
// mid-word, and its whole text is in the bar's tooltip until the message goes.
#include "window_test_support.hpp"

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
