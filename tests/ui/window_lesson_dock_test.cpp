// The lessons dock as a class meets it: Ctrl+L brings the lessons forward, the step navigation stays in view,
// the hint names the button as it reads, a number is asked without a made-up "0.00", a step's run lasts long
// enough to watch, its highlighted view stays forward through the boot, and leaving the lesson leaves its
// workload intensity behind.
#include "window_test_support.hpp"

#include "lessons/lesson_panel.hpp"
#include "window/controls_panel.hpp"
#include "window/view_area.hpp"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QPushButton>

#include <catch2/catch.hpp>

#include <chrono>

using namespace pcplab;
using namespace pcplab::ui;

namespace
{
QAction* action_with_key(main_window& w, const QString& key)
{
    for (QAction* a : w.actions())
        if (a->shortcut() == QKeySequence(key)) return a;
    return nullptr;
}

void settle()
{
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
}
} // namespace

TEST_CASE(
    "Ctrl+L brings the lessons tab forward, and again after the controls were brought forward", "[ui][window][lesson]")
{
    test::running_window rw;
    main_window& w = *rw.w;
    QAction* ctrl_l = action_with_key(w, QStringLiteral("Ctrl+L"));
    REQUIRE(ctrl_l);
    auto* controls = w.findChild<QDockWidget*>(QStringLiteral("controls-dock"));
    REQUIRE(controls);
    ctrl_l->trigger();
    settle();
    REQUIRE(w.lessons()->dock());
    CHECK(w.lessons()->dock_in_front());
    CHECK(controls->visibleRegion().isEmpty()); // a tab behind the lessons (Qt 6 moves it out of sight)
    controls->raise();
    settle();
    CHECK_FALSE(w.lessons()->dock_in_front());
    CHECK_FALSE(controls->visibleRegion().isEmpty());
    ctrl_l->trigger(); // behind the controls: Ctrl+L brings it forward (it hid it)
    settle();
    CHECK(w.lessons()->dock_in_front());
    CHECK(controls->visibleRegion().isEmpty());
    ctrl_l->trigger(); // in front: Ctrl+L hides it
    settle();
    CHECK_FALSE(w.lessons()->dock()->isVisible());
}

TEST_CASE("the step navigation stays in view in a small window, and the hint names the button", "[ui][window][lesson]")
{
    test::running_window rw;
    main_window& w = *rw.w;
    w.resize(1280, 800);
    REQUIRE(w.lessons()->open_lesson_id(QStringLiteral("03")));
    lesson_panel& panel = *w.lessons()->panel();
    panel.go_to_step(2); // a long step
    settle();
    QDockWidget* dock = w.lessons()->dock();
    for (const QString& text : {QStringLiteral("Reveal"), QStringLiteral("Next \u2192")}) {
        QPushButton* b = nullptr;
        for (QPushButton* c : panel.findChildren<QPushButton*>())
            if (c->text() == text) b = c;
        INFO(text.toStdString());
        REQUIRE(b);
        const QRect in_dock(b->mapTo(dock, QPoint(0, 0)), b->size());
        CHECK(dock->rect().contains(in_dock));
        CHECK_FALSE(b->visibleRegion().isEmpty());
    }
    // The hint says the button's own words.
    const QString button = panel.run_button()->text();
    CHECK(panel.check_head().contains(button));
}

TEST_CASE("a number is asked with the answer's decimals and nothing filled in", "[ui][window][lesson]")
{
    test::running_window rw;
    main_window& w = *rw.w;
    REQUIRE(w.lessons()->open_lesson_id(QStringLiteral("02")));
    lesson_panel& panel = *w.lessons()->panel();
    int step = -1;
    const auto& l = panel.lesson_set().lessons.at(static_cast<std::size_t>(panel.current_lesson()));
    for (std::size_t i = 0; i < l.steps.size(); ++i)
        if (l.steps[i].predict && !l.steps[i].predict->is_choice() && l.steps[i].predict->answer == "63")
            step = static_cast<int>(i);
    REQUIRE(step >= 0);
    panel.go_to_step(step);
    QDoubleSpinBox* box = panel.number_box();
    CHECK(box->decimals() == 0);
    CHECK(box->text() == box->specialValueText()); // "your answer", not 0.00
    CHECK_FALSE(box->text().contains(QStringLiteral("0.00")));
    panel.submit_prediction(); // nothing entered: nothing locked in
    CHECK_FALSE(panel.prediction_given());
    panel.enter_number(60);
    panel.submit_prediction();
    CHECK(panel.prediction_given());
}

TEST_CASE("a lesson step's run is paced to be watched, and the lesson's intensity stays with the lesson",
    "[ui][window][lesson]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    w.lessons()->set_watch_time(std::chrono::milliseconds(4000));
    REQUIRE(w.lessons()->open_lesson_id(QStringLiteral("03")));
    lesson_panel& panel = *w.lessons()->panel();
    panel.go_to_step(1);
    panel.run_step();
    REQUIRE(test::wait_until([&] { return panel.status() == lesson_panel::check_status::passed; }, 180000));
    CHECK(w.views()->current_tab() != QStringLiteral("deferred")); // the step's highlight outlived the boot's tab
    CHECK(w.views()->highlighted() == QStringLiteral("limits"));
    CHECK(w.setup().intensity == Approx(0.25));
    // 20 ms of virtual time over 4 s of wall time.
    emit panel.run_requested(20'000'000);
    CHECK(w.machine()->speed() == Approx(20'000'000 * 1000.0 / 4000));

    w.machine()->choose_preset(QStringLiteral("classroom"));
    CHECK(w.setup().intensity == 1.0); // free play is the user's own, not the lesson's
    CHECK(w.controls()->findChild<QDoubleSpinBox*>(QStringLiteral("intensity"))->value() == 1.0);
}
