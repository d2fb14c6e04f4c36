// The sysctl spin boxes write live to the running machine: vm.pcp_batch_scale_max (the kernel's
// CONFIG_PCP_BATCH_SCALE_MAX as the sysctl Yafang Shao proposed) from v6.7, greyed before it.
#include "window_test_support.hpp"

#include "ui/lessons/lesson_panel.hpp"
#include "ui/window/controls_panel.hpp"
#include "ui/window/frame_pump.hpp"
#include "ui/window/lesson_control.hpp"

#include "ui/model/history.hpp"

#include <QLabel>
#include <QSpinBox>

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::ui;

namespace
{
bool logged(const main_window& w, const std::string& text)
{
    for (const auto& e : w.pump()->history_a().events())
        if (e.text == text) return true;
    return false;
}
} // namespace

TEST_CASE("vm.pcp_batch_scale_max is written live from its spin box on v6.7, and greyed on v5.4", "[ui][window]")
{
    {
        test::running_window rw([](window_options& o) { o.era = "v6.7"; });
        REQUIRE(rw.started);
        main_window& w = *rw.w;
        auto* box = w.controls()->findChild<QSpinBox*>(QStringLiteral("pcp-batch-scale-max"));
        REQUIRE(box);
        CHECK(box->isEnabled());
        CHECK(box->value() == 5); // CONFIG_PCP_BATCH_SCALE_MAX's default
        box->setValue(0);
        CHECK(w.setup().pcp_batch_scale_max == 0);
        CHECK(test::wait_until([&] { return logged(w, "sysctl vm.pcp_batch_scale_max = 0"); }));
    }
    test::running_window rw; // the classroom preset's v5.4
    REQUIRE(rw.started);
    auto* box = rw.w->controls()->findChild<QSpinBox*>(QStringLiteral("pcp-batch-scale-max"));
    REQUIRE(box);
    CHECK_FALSE(box->isEnabled());
}

TEST_CASE("the batch scale's lesson link opens the lesson of the scenario that compares its two values",
    "[ui][window][lesson]")
{
    test::running_window rw([](window_options& o) { o.era = "v6.7"; });
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    auto* link = w.controls()->findChild<QLabel*>(QStringLiteral("pcp-batch-scale-max-lesson"));
    REQUIRE(link);
    CHECK(link->toolTip().contains(QStringLiteral("vm.pcp_batch_scale_max 5 / 0")));
    emit link->linkActivated(QStringLiteral("lesson"));
    lesson_panel* panel = w.lessons()->panel();
    REQUIRE(panel);
    REQUIRE(panel->current_lesson() >= 0);
    const auto& l = panel->lesson_set().lessons.at(static_cast<std::size_t>(panel->current_lesson()));
    CHECK(l.id == "14-pcp-batch-scale-max");
    CHECK(l.seed == "011");
}
