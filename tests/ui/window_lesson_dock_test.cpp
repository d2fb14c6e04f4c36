// The lessons dock as a class meets it: Ctrl+L brings the lessons forward, the step navigation stays in view,
// the hint names the button as it reads, a number is asked without a made-up "0.00", a step's run lasts long
// enough to watch (with the numbers of a run at full speed), its highlighted view stays forward through the
// boot, Reveal brings the answer into view, and leaving the lesson (another machine, or closing the dock) leaves
// its intensity, its pace and its view behind.
#include "window_test_support.hpp"

#include "ui/lessons/lesson_panel.hpp"
#include "ui/window/controls_panel.hpp"
#include "ui/window/view_area.hpp"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QProgressBar>
#include <QPushButton>

#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <vector>

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

const lessons::step& current_step(lesson_panel& p)
{
    return p.lesson_set()
        .lessons.at(static_cast<std::size_t>(p.current_lesson()))
        .steps.at(static_cast<std::size_t>(p.current_step()));
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
    const double own_speed = w.machine()->speed();
    w.lessons()->set_watch_time(std::chrono::milliseconds(4000));
    REQUIRE(w.lessons()->open_lesson_id(QStringLiteral("03")));
    lesson_panel& panel = *w.lessons()->panel();
    panel.go_to_step(1);
    panel.run_step();
    REQUIRE(test::wait_until([&] { return panel.status() == lesson_panel::check_status::passed; }, 180000));
    CHECK(w.views()->current_tab() != QStringLiteral("deferred")); // the step's highlight outlived the boot's tab
    CHECK(w.views()->highlighted() == QStringLiteral("limits"));
    CHECK(w.setup().intensity == Approx(0.25));
    CHECK(w.machine()->speed() == 0); // the lesson boots as fast as the machine goes
    // 20 ms of virtual time over 4 s of wall time.
    emit panel.run_requested(20'000'000);
    CHECK(w.machine()->speed() == Approx(20'000'000 * 1000.0 / 4000));

    w.machine()->choose_preset(QStringLiteral("classroom"));
    CHECK(w.setup().intensity == 1.0); // free play is the user's own, not the lesson's
    CHECK(w.controls()->findChild<QDoubleSpinBox*>(QStringLiteral("intensity"))->value() == 1.0);
    CHECK(w.machine()->speed() == own_speed); // and so is its speed (it kept the lesson's pace)
    CHECK(w.machine()->own_speed() == own_speed);
    CHECK_FALSE(w.lessons()->pacing_run());
    CHECK(w.views()->highlighted().isEmpty()); // the boots of free play bring the deferred-init tab again
}

TEST_CASE("the step navigation is in view at 1280x800, 1600x1000 and 1920x1080, single and A/B", "[ui][window][lesson]")
{
    test::running_window rw;
    main_window& w = *rw.w;
    REQUIRE(w.lessons()->open_lesson_id(QStringLiteral("03")));
    lesson_panel& panel = *w.lessons()->panel();
    panel.go_to_step(2); // a long step, with Previous, Reveal and Next
    QDockWidget* dock = w.lessons()->dock();
    for (const bool ab : {false, true}) {
        if (ab) w.machine()->set_ab(true);
        for (const QSize size : {QSize(1280, 800), QSize(1600, 1000), QSize(1920, 1080)}) {
            w.resize(size);
            w.lessons()->show_dock();
            settle();
            INFO((ab ? "A/B " : "single ") << size.width() << "x" << size.height());
            REQUIRE(w.size() == size);
            REQUIRE(w.setup().ab == ab);
            CHECK(w.lessons()->dock_in_front());
            const QRect dock_in_window(dock->mapTo(&w, QPoint(0, 0)), dock->size());
            CHECK(w.rect().contains(dock_in_window));
            for (const QString& text :
                {QStringLiteral("\u2190 Previous"), QStringLiteral("Reveal"), QStringLiteral("Next \u2192")}) {
                QPushButton* b = nullptr;
                for (QPushButton* c : panel.findChildren<QPushButton*>())
                    if (c->text() == text) b = c;
                INFO(text.toStdString());
                REQUIRE(b);
                CHECK(b->isVisible());
                const QRect in_dock(b->mapTo(dock, QPoint(0, 0)), b->size());
                CHECK(dock->rect().contains(in_dock));
                CHECK(b->visibleRegion().boundingRect() == b->rect()); // whole, not cut by the dock or a scroll
            }
        }
    }
}

TEST_CASE("the open lessons have the left column's height: the key figures step aside as a tab, and come back",
    "[ui][window][lesson]")
{
    test::running_window rw;
    main_window& w = *rw.w;
    w.resize(1280, 800);
    settle();
    auto* figures = w.findChild<QDockWidget*>(QStringLiteral("figures-dock"));
    REQUIRE(figures);
    auto* controls = w.findChild<QDockWidget*>(QStringLiteral("controls-dock"));
    REQUIRE(controls);
    const int controls_height = controls->height();
    REQUIRE(w.lessons()->open_lesson_id(QStringLiteral("03")));
    settle();
    QDockWidget* dock = w.lessons()->dock();
    CHECK(w.lessons()->dock_in_front());
    CHECK(w.tabifiedDockWidgets(dock).contains(figures)); // a tab beside, not a third of the column below
    CHECK(dock->height() > controls_height + 150); // it had some 450 px of 800
    dock->close();
    settle();
    CHECK_FALSE(w.tabifiedDockWidgets(controls).contains(figures));
    CHECK(figures->isVisible());
    CHECK_FALSE(figures->visibleRegion().isEmpty());
    CHECK(figures->mapTo(&w, QPoint(0, 0)).y() > controls->mapTo(&w, QPoint(0, 0)).y()); // below the controls
    CHECK_FALSE(controls->visibleRegion().isEmpty()); // the controls' tab in front, not the stories'
}

TEST_CASE("Reveal brings the answer into view in a short dock", "[ui][window][lesson]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    w.resize(1280, 800);
    REQUIRE(w.lessons()->open_lesson_id(QStringLiteral("01")));
    lesson_panel& panel = *w.lessons()->panel();
    panel.go_to_step(0); // a long question, then a check on the booted machine
    panel.choose(3);
    panel.submit_prediction();
    panel.run_step();
    REQUIRE(test::wait_until([&] { return panel.status() == lesson_panel::check_status::passed; }, 120000));
    settle();
    REQUIRE(panel.can_reveal());
    panel.reveal();
    settle();
    QWidget* answer = panel.answer_box();
    REQUIRE(answer->isVisible());
    const QRect seen = answer->visibleRegion().boundingRect();
    CHECK_FALSE(seen.isEmpty());
    CHECK(seen.top() == 0); // its top, with the first lines of the answer, is in view
}

TEST_CASE("closing the lessons dock leaves the lesson: the user's speed and intensity again, on the same machine",
    "[ui][window][lesson]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    w.machine()->set_speed(2e8); // the user's own
    REQUIRE(w.lessons()->open_lesson_id(QStringLiteral("03")));
    lesson_panel& panel = *w.lessons()->panel();
    panel.go_to_step(1);
    panel.run_step();
    REQUIRE(test::wait_until([&] { return panel.status() == lesson_panel::check_status::passed; }, 180000));
    emit panel.run_requested(20'000'000); // a step's run: the lesson's pace
    CHECK(w.machine()->speed() == Approx(5e6));
    CHECK(w.setup().intensity == Approx(0.25));
    const frame_source* lessons_machine = w.source();

    w.lessons()->dock()->close();
    settle();
    CHECK(w.source() == lessons_machine); // it keeps running, in free play
    CHECK(w.machine()->speed() == 2e8);
    CHECK(w.setup().intensity == 1.0);
    CHECK(w.controls()->findChild<QDoubleSpinBox*>(QStringLiteral("intensity"))->value() == 1.0);
    CHECK(w.views()->highlighted().isEmpty());
    CHECK_FALSE(w.lessons()->pacing_run());
    // Back in the lesson, the step's machine is set up again before its next run: the lesson's numbers are
    // never taken on a machine in free play.
    w.lessons()->show_dock();
    settle();
    panel.go_to_step(3);
    CHECK(panel.run_button()->text() == QStringLiteral("Set up and run"));
}

// What the class sees of lesson 3's build (`run: finish`, about 74 ms of virtual time): it used to be over 145 ms
// after the click. Paced, it lasts at least the watch time, and the figures are those of an unpaced run.
TEST_CASE(
    "a lesson's build lasts at least the watch time, with the figures of a run at full speed", "[ui][window][lesson]")
{
    using namespace std::chrono_literals;
    struct build {
        std::vector<std::array<QString, 3>> figures;
        QString checks;
        qint64 wall_ms = 0;
        bool running_after_1s = false;
        bool busy_bar_after_1s = false; // a `run: finish` has no known end: a busy bar, not 0%
    };
    const auto run_build = [](std::chrono::milliseconds watch) {
        build b;
        test::running_window rw;
        REQUIRE(rw.started);
        main_window& w = *rw.w;
        w.lessons()->set_watch_time(watch);
        REQUIRE(w.lessons()->open_lesson_id(QStringLiteral("03")));
        lesson_panel& panel = *w.lessons()->panel();
        panel.go_to_step(1); // boot without the fix
        panel.run_step();
        REQUIRE(test::wait_until([&] { return panel.status() == lesson_panel::check_status::passed; }, 180000));
        panel.go_to_step(3); // build a kernel without the fix: run: finish
        REQUIRE(current_step(panel).run_to_finish);
        QElapsedTimer clock;
        clock.start();
        panel.run_step();
        test::wait_until([] { return false; }, 1000);
        b.running_after_1s = panel.status() == lesson_panel::check_status::running && w.lessons()->pacing_run();
        b.busy_bar_after_1s = !panel.run_progress()->isHidden() && panel.run_progress()->maximum() == 0;
        REQUIRE(test::wait_until([&] { return panel.status() == lesson_panel::check_status::passed; }, 180000));
        b.wall_ms = clock.elapsed();
        test::wait_until([] { return false; }, 200);
        CHECK_FALSE(w.lessons()->pacing_run());
        panel.reveal();
        b.figures = panel.figure_rows();
        b.checks = panel.check_text();
        return b;
    };
    const build paced = run_build(4000ms);
    INFO("paced build: " << paced.wall_ms << " ms");
    CHECK(paced.running_after_1s);
    CHECK(paced.busy_bar_after_1s);
    CHECK(paced.wall_ms >= 4000);
    CHECK(paced.wall_ms < 60000);
    const build fast = run_build(0ms);
    INFO("unpaced build: " << fast.wall_ms << " ms");
    CHECK(fast.wall_ms < paced.wall_ms);
    REQUIRE(paced.figures.size() == 2);
    CHECK(paced.figures == fast.figures); // the lesson's numbers do not depend on the pace
    CHECK(paced.checks == fast.checks);
}

TEST_CASE(
    "a layout saved while a lesson is open comes back with the key figures below the controls", "[ui][window][lesson]")
{
    test::sandbox box;
    {
        main_window w(box.options());
        w.show();
        w.resize(1280, 800);
        settle();
        REQUIRE(w.lessons()->open_lesson_id(QStringLiteral("03")));
        settle();
        auto* figures = w.findChild<QDockWidget*>(QStringLiteral("figures-dock"));
        REQUIRE(figures);
        REQUIRE(w.tabifiedDockWidgets(w.lessons()->dock()).contains(figures)); // saved as a tab
        w.close(); // saves the layout
    }
    main_window again(box.options());
    again.show();
    settle();
    auto* figures = again.findChild<QDockWidget*>(QStringLiteral("figures-dock"));
    auto* controls = again.findChild<QDockWidget*>(QStringLiteral("controls-dock"));
    REQUIRE(figures);
    REQUIRE(controls);
    CHECK_FALSE(again.tabifiedDockWidgets(controls).contains(figures));
    CHECK(figures->isVisible());
    CHECK(figures->mapTo(&again, QPoint(0, 0)).y() > controls->mapTo(&again, QPoint(0, 0)).y());
}
