// Changing the preset mid-run and closing mid-run (even mid-boot) neither crash nor leave threads behind.
#include "window_test_support.hpp"

#include "ui/window/controls_panel.hpp"

#include <QComboBox>

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::ui;

namespace
{
bool runs_preset(const main_window& w, int nr_cpus)
{
    auto a = test::shown_a(w);
    return a && a->nr_cpus == nr_cpus && a->state == sim::run_state::running && a->sim_time_ns > 0;
}

// Qt starts a few helper threads of its own the first time a window is shown; let them exist before counting.
void warm_up(const test::sandbox& box)
{
    main_window w(box.options());
    w.show();
    test::wait_until([&] { return test::running(w); });
}
} // namespace

TEST_CASE("changing the preset mid-run reboots into the new machine and leaks no thread", "[ui][window][lifecycle]")
{
    test::sandbox box;
    warm_up(box);
    const int before = test::thread_count();
    {
        main_window w(box.options());
        w.show();
        REQUIRE(test::wait_until([&] { return runs_preset(w, 8); }));
        const int running = test::thread_count();
        CHECK(running > before); // the engine's thread

        // Single machine: the same source reboots in place with the new configuration.
        const frame_source* src = w.source();
        w.machine()->choose_preset(box.tiny_preset());
        CHECK(w.source() == src);
        REQUIRE(test::wait_until([&] { return runs_preset(w, 4); }));
        CHECK(w.pump()->history_a().samples().front().t_ns < 50'000'000); // the history restarted
        CHECK(test::shown_a(w)->era.str() == "v6.7");

        // A/B and a preset change in A/B: new sources, the old ones stopped on helper threads.
        w.machine()->set_ab(true);
        w.machine()->choose_preset(QStringLiteral("classroom"));
        REQUIRE(test::wait_until([&] {
            auto b = test::shown_b(w);
            return runs_preset(w, 8) && b && b->nr_cpus == 8 && b->state == sim::run_state::running;
        }));
        REQUIRE(test::wait_until([&] {
            QCoreApplication::processEvents();
            return w.machine()->retiring_sources() == 0;
        }));
        CHECK(test::thread_count() <= running + 1); // a pair: the loop's thread and one worker
    }
    CHECK(test::wait_until([&] { return test::thread_count() <= before; }, 5000));
    CHECK(test::thread_count() == before);
}

TEST_CASE("closing the window mid-run and mid-boot stops every engine thread", "[ui][window][lifecycle]")
{
    test::sandbox box;
    warm_up(box);
    const int before = test::thread_count();
    {
        main_window w(box.options()); // closed while it boots
        w.show();
        QCoreApplication::processEvents();
    }
    CHECK(test::thread_count() == before);
    {
        window_options o = box.options();
        o.ab = true;
        main_window w(o);
        w.show();
        REQUIRE(test::wait_until([&] { return test::running(w); }));
        w.machine()->choose_seed(3); // an A/B reboot in flight when the window goes
        w.close();
    }
    CHECK(test::thread_count() == before);
}
