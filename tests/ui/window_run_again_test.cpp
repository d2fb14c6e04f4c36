// A finished run does not go still: the run button says it will run again, and Play (Space) boots the same
// machine and runs the workload again.
#include "window_test_support.hpp"

#include "window/controls_panel.hpp"

#include <QPushButton>

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::ui;

TEST_CASE("after the workload finishes the button reads Run again and Play starts it again", "[ui][window]")
{
    test::running_window rw([](window_options& o) { o.workload = "boot"; }); // finishes as the boot ends
    main_window& w = *rw.w;
    REQUIRE(test::wait_until([&] {
        const auto a = test::shown_a(w);
        return a && a->state == sim::run_state::finished;
    }));
    CHECK(w.controls()->play_button()->text() == QStringLiteral("Run again"));
    const std::uint64_t generation = test::shown_a(w)->run.generation;
    w.machine()->play_pause();
    REQUIRE(test::wait_until([&] {
        const auto a = test::shown_a(w);
        return a && a->run.generation > generation;
    }));
    CHECK(w.setup().workload == "boot");
}
