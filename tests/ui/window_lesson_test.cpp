// The lessons dock: a lesson opens in the window's lesson panel (by number, by seed), its step boots the
// machine the step asks for on the window's own live source, the check passes on the snapshots the window
// takes in, and a step's run resumes the machine and pauses it at the step's virtual time.
#include "window_test_support.hpp"

#include "ui/lessons/lesson_panel.hpp"
#include "ui/live/live_source.hpp"
#include "ui/window/screenshot.hpp"
#include "ui/window/view_area.hpp"

#include <QApplication>
#include <QDockWidget>

#include <catch2/catch.hpp>

#include <cstdlib>

using namespace pcplab;
using namespace pcplab::ui;

namespace
{
std::string picture_dir()
{
    const char* d = std::getenv("PCPLAB_TEST_PICTURES");
    return d && *d ? d : "/tmp";
}

const lessons::lesson& current(lesson_panel& p)
{
    return p.lesson_set().lessons.at(static_cast<std::size_t>(p.current_lesson()));
}
} // namespace

TEST_CASE("a lesson opens in the window's lessons dock by number or by seed", "[ui][window][lesson]")
{
    test::running_window rw;
    main_window& w = *rw.w;
    CHECK(w.lessons()->dock() == nullptr); // made on first use
    REQUIRE(w.lessons()->open_lesson_id(QStringLiteral("03")));
    REQUIRE(w.lessons()->dock());
    CHECK(w.lessons()->dock()->isVisible());
    CHECK(current(*w.lessons()->panel()).id.rfind("03-", 0) == 0);
    REQUIRE(w.lessons()->open_lesson_id(QStringLiteral("002"))); // seed 002's lesson
    CHECK(current(*w.lessons()->panel()).seed == "002");
    CHECK_FALSE(w.lessons()->open_lesson_id(QStringLiteral("no-such-lesson")));
    CHECK(current(*w.lessons()->panel()).seed == "002"); // unchanged
}

TEST_CASE("the lessons dock is a tab beside the controls, so the views keep their width", "[ui][window][lesson]")
{
    test::running_window rw;
    main_window& w = *rw.w;
    w.resize(1600, 1000);
    auto* area = w.findChild<view_area*>();
    REQUIRE(area);
    QApplication::processEvents();
    const int before = area->width();
    REQUIRE(w.lessons()->open_lesson_id(QStringLiteral("03")));
    QApplication::processEvents();
    QApplication::processEvents();
    QDockWidget* lessons = w.lessons()->dock();
    REQUIRE(lessons);
    CHECK(w.dockWidgetArea(lessons) == Qt::LeftDockWidgetArea);
    auto* controls = w.findChild<QDockWidget*>(QStringLiteral("controls-dock"));
    REQUIRE(controls);
    CHECK(w.tabifiedDockWidgets(controls).contains(lessons));
    // The left column widens for the prose, to at most a third of the window; the views keep the rest.
    CHECK(area->width() >= before - w.width() / 6);
    CHECK(area->width() >= w.width() * 3 / 5);
}

TEST_CASE("lesson 3 in the window: step 1 boots the machine it asks for and its check passes", "[ui][window][lesson]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    REQUIRE(w.lessons()->open_lesson_id(QStringLiteral("03")));
    lesson_panel& panel = *w.lessons()->panel();
    panel.go_to_step(1);
    const auto& step = current(panel).steps.at(1);
    REQUIRE(step.boots);
    REQUIRE(step.setup.preset == "epyc2-256");

    panel.run_step();
    // The step's machine, on the window's live source: started paused, its check judged on what the window shows.
    REQUIRE(test::wait_until([&] { return panel.status() == lesson_panel::check_status::passed; }, 180000));
    const auto a = test::shown_a(w);
    REQUIRE(a);
    CHECK(a->preset == "epyc2-256");
    CHECK(a->nr_cpus == 256);
    CHECK(a->era.str() == "v5.4");
    CHECK_FALSE(a->patches[mm::patch::pcp_update_after_deferred_init]);
    CHECK(a->workload == "kernbench");
    CHECK(w.setup().preset == "epyc2-256");
    CHECK(panel.check_text().contains("512 of 512"));
    CHECK(w.views()->find(QStringLiteral("limits"))->isVisible()); // highlight: limits
    REQUIRE(test::wait_until([&] { return test::shown_a(w)->state == sim::run_state::paused; }));

    // A step's run: resume, and pause exactly at the virtual time asked for.
    const std::uint64_t t0 = test::shown_a(w)->sim_time_ns;
    w.machine()->run_for(20'000'000);
    REQUIRE(test::wait_until(
        [&] {
            auto s = test::shown_a(w);
            return s->state == sim::run_state::paused && s->sim_time_ns >= t0 + 20'000'000;
        },
        120000));
    const std::uint64_t t1 = test::shown_a(w)->sim_time_ns;
    CHECK(t1 < t0 + 20'000'000 + 1'000'000); // within a quantum or so of the target
    CHECK(qobject_cast<live_source*>(w.source()));

    // Step 2 continues on the same machine (no new boot): its check passes on it too.
    const frame_source* src = w.source();
    panel.next_step();
    panel.run_step();
    REQUIRE(test::wait_until([&] { return panel.status() == lesson_panel::check_status::passed; }, 60000));
    CHECK(w.source() == src);
    CHECK(w.views()->current_tab() == "deferred"); // the step's highlight, kept after the boot
    CHECK(test::wait_until([] { return false; }, 1700) == false); // past the boot's tab hand-back (1.5 s)
    CHECK(w.views()->current_tab() == "deferred");

    screenshot_request r;
    r.file = QString::fromStdString(picture_dir() + "/pcplab-window-lesson.png");
    r.run_for_ns = t1;
    CHECK(take_screenshot(w, r).isEmpty());

    // Choosing a preset afterwards leaves the lesson's machine: a new source (the lesson's workload factory
    // stays with the old one), the classroom preset again, running at the lesson's speed (as fast as it goes).
    w.machine()->choose_preset(QStringLiteral("classroom"));
    CHECK(w.source() != src);
    REQUIRE(test::wait_until(
        [&] {
            auto s = test::shown_a(w);
            return s && s->nr_cpus == 8 && s->preset == "classroom" && s->sim_time_ns > 0
                && s->state != sim::run_state::booting;
        },
        60000));
}

// What the lessons issue asks of lesson 3: a newcomer follows it in the window from the first step to the last.
// Every step is taken as a student would: predict (the first choice, or the answer's number), run, wait for the
// check, reveal. The steps that use a machine must pass on the window's own engine.
TEST_CASE("lesson 3 in the window from the first step to the last: every check passes, every answer is revealed",
    "[ui][window][lesson]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    REQUIRE(w.lessons()->open_lesson_id(QStringLiteral("03")));
    lesson_panel& panel = *w.lessons()->panel();
    const lessons::lesson& l = current(panel);
    REQUIRE(l.steps.size() >= 5);
    int machine_steps = 0;
    for (std::size_t i = 0; i < l.steps.size(); ++i) {
        const lessons::step& s = l.steps[i];
        INFO("step " << i + 1 << ": " << s.title);
        panel.go_to_step(static_cast<int>(i));
        REQUIRE(panel.current_step() == static_cast<int>(i));
        if (s.predict) {
            if (s.predict->is_choice())
                panel.choose(0);
            else
                panel.enter_number(s.predict->answer_number);
            panel.submit_prediction();
            CHECK(panel.prediction_given());
        }
        if (s.needs_machine()) {
            ++machine_steps;
            panel.run_step();
            REQUIRE(test::wait_until(
                [&] {
                    const auto st = panel.status();
                    return st == lesson_panel::check_status::passed || st == lesson_panel::check_status::failed;
                },
                240000));
            INFO(panel.check_text().toStdString());
            CHECK(panel.status() == lesson_panel::check_status::passed);
        }
        REQUIRE(panel.can_reveal());
        panel.reveal();
        CHECK(panel.revealed());
        if (!s.reveal.empty()) CHECK_FALSE(panel.reveal_text().isEmpty()); // reading steps have none
    }
    CHECK(machine_steps >= 4);
    CHECK(panel.steps_done(panel.current_lesson()) == static_cast<int>(l.steps.size()));
}
