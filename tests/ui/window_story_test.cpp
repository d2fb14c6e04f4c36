// The seed stories in the window: a story boots its seed's machine in A/B (the switch off on A, on on B),
// pauses at its checkpoints with the view that shows the effect filling the view area and a caption with both
// machines' figures, goes on with Continue and keeps running; the very first start plays story 000.
#include "window_test_support.hpp"

#include "ui/window/controls_panel.hpp"
#include "ui/window/story_caption.hpp"
#include "ui/window/story_player.hpp"
#include "ui/window/switch_table.hpp"
#include "ui/window/view_area.hpp"

#include "lessons/seed_stories.hpp"

#include <QCheckBox>
#include <QPushButton>

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::ui;

namespace
{
bool at_checkpoint(const main_window& w, int i)
{
    return w.stories()->checkpoint_shown() == i;
}
} // namespace

TEST_CASE("story 004 boots the seed's machine in A/B, pauses on the deferred-init view and keeps running after",
    "[ui][window][story]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    REQUIRE(w.stories()->start(QStringLiteral("004")).isEmpty());
    CHECK(w.stories()->playing());
    CHECK(w.setup().ab);
    CHECK(w.setup().preset == "xeon-88-503g");
    // Only the seed's switch differs between A and B.
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) {
        const auto p = static_cast<mm::patch>(i);
        const bool differs = w.controls()->switches()->state(sim::command_target::a, p)
            != w.controls()->switches()->state(sim::command_target::b, p);
        CHECK(differs == (p == mm::patch::parallel_deferred_init));
    }
    REQUIRE(test::wait_until([&] { return at_checkpoint(w, 0); }, 120000));
    CHECK(w.views()->focus_view() == QStringLiteral("deferred"));
    const story_caption* cap = w.stories()->caption();
    CHECK(cap->isVisible());
    CHECK_THAT(cap->caption_text().toStdString(), Catch::Contains("quarter of its CPUs"));
    CHECK(cap->figure_text(0, 1) == QStringLiteral("1")); // A: one init thread per node
    CHECK(cap->figure_text(0, 2) == QStringLiteral("11")); // B: a quarter of 44 CPUs
    // Under the views, not over them (it hid the lower part of the plots).
    QCoreApplication::processEvents();
    const QRect views_rect(w.views()->mapTo(&w, QPoint(0, 0)), w.views()->size());
    const QRect caption_rect(cap->mapTo(&w, QPoint(0, 0)), cap->size());
    INFO("views " << views_rect.y() << "+" << views_rect.height() << ", caption " << caption_rect.y() << "+"
                  << caption_rect.height());
    CHECK_FALSE(views_rect.intersects(caption_rect));
    CHECK(caption_rect.top() >= views_rect.bottom());
    const auto a = test::shown_a(w);
    REQUIRE(a);
    CHECK(a->state == sim::run_state::paused);

    // Continue: the caption goes, the views come back, and the boot (a finished workload) starts again.
    const std::uint64_t generation = a->run.generation;
    cap->continue_button()->click();
    CHECK_FALSE(cap->isVisible());
    CHECK(w.views()->focus_view().isEmpty());
    CHECK(test::wait_until(
        [&] {
            const auto s = test::shown_a(w);
            return s && s->run.generation > generation;
        },
        120000));
}

TEST_CASE("story 000 shows batch 7 on A and 63 on B at its first checkpoint, on the limits view", "[ui][window][story]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    REQUIRE(w.stories()->start(QStringLiteral("000")).isEmpty());
    REQUIRE(test::wait_until([&] { return at_checkpoint(w, 0); }, 180000));
    CHECK(w.views()->focus_view() == QStringLiteral("limits"));
    CHECK(w.stories()->caption()->figure_text(0, 1) == QStringLiteral("7"));
    CHECK(w.stories()->caption()->figure_text(0, 2) == QStringLiteral("63"));

    // Another machine ends the story: the caption goes and the views are put back.
    w.machine()->choose_preset(QStringLiteral("classroom"));
    CHECK_FALSE(w.stories()->playing());
    CHECK_FALSE(w.stories()->caption()->isVisible());
    CHECK(w.views()->focus_view().isEmpty());
    CHECK(w.setup().intensity == 1.0);
}

TEST_CASE("the first start plays story 000, and a later start opens on the machine chosen last", "[ui][window][story]")
{
    test::sandbox box;
    {
        window_options o = box.options();
        o.first_start_story = true;
        main_window w(o);
        CHECK(w.stories()->playing());
        REQUIRE(w.stories()->story());
        CHECK(w.stories()->story()->seed->id == "000");
        CHECK(w.setup().preset == "epyc2-256");
    }
    window_options o = box.options();
    o.first_start_story = true;
    main_window again(o);
    CHECK_FALSE(again.stories()->playing());
    CHECK(again.setup().preset == "classroom");
}
