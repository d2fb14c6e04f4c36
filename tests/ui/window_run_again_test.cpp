// A finished run does not go still: a finite workload (kernbench ends its round at 2.4 s of virtual time on the
// classroom machine) starts a new round on the same machine, and virtual time goes on (engine_config::continuous,
// which the window sets; the run button would read "Run again" only for a run that ended).
#include "window_test_support.hpp"

#include "ui/window/controls_panel.hpp"

#include <QPushButton>

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::ui;

TEST_CASE("a finite workload starts a new round when it finishes and virtual time goes on", "[ui][window]")
{
    test::running_window rw([](window_options& o) { o.workload = "kernbench"; });
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    w.machine()->set_speed(0); // as fast as the machine goes
    const std::uint64_t generation = test::shown_a(w)->run.generation;
    // Past the first round's end (2.4 s after the workload started), still running, on the same machine.
    REQUIRE(test::wait_until([&] { return test::running(w, 3'500'000'000ULL); }, 120000));
    CHECK(test::shown_a(w)->run.generation == generation);
    CHECK(w.controls()->play_button()->text() == QStringLiteral("Pause"));
    CHECK(w.setup().workload == "kernbench");
}
