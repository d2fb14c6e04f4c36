// The model view and the lanes' hold threshold show what the snapshot's run carries (run_info: the engine's cost
// model and hold threshold, or in a replay its run's header): never a default, nor a preset file read again on the
// window's thread.
#include "drawn_text.hpp"
#include "views_harness.hpp"

#include "ui/views/locks_view.hpp"
#include "ui/views/model_view.hpp"

#include "support/small_machine.hpp"

#include "sim/cost_model.hpp"

#include <catch2/catch.hpp>

#include <QApplication>

using namespace pcplab;

namespace
{

constexpr sim::vtime_ns ms = 1'000'000;

test::stepped_machine& machine()
{
    static test::stepped_machine m([] {
        auto cfg = test::preset_engine_config("classroom");
        cfg.spec = test::small_spec(1, 4, 1);
        return cfg;
    }());
    if (!m.last()) m.advance(2 * ms);
    return m;
}

// The machine's frame with its snapshot's run changed by `change`.
template <typename F> ui::frame frame_with_run(F change)
{
    ui::frame f = test::make_frame(machine());
    auto s = std::make_shared<sim::snapshot>(*f.a);
    change(s->run);
    f.a = std::move(s);
    return f;
}

// The texts the lanes view draws for `f` that start with "over " (the threshold's label).
QStringList threshold_labels(const ui::frame& f)
{
    ui::locks_view v;
    v.resize(900, 700);
    v.show();
    v.show_frame(f);
    QApplication::processEvents();
    QStringList out;
    for (const auto& t : test::collect_drawn_text(&v))
        if (t.text.startsWith(QStringLiteral("over "))) out << t.text;
    return out;
}

} // namespace

TEST_CASE("the lanes' hold threshold is the one the snapshot's run carries", "[ui][views][locks]")
{
    REQUIRE(machine().last()->run.hold_threshold_ns == 1 * ms); // the engine's configuration, as the engine set it
    const QStringList one = threshold_labels(test::make_frame(machine()));
    REQUIRE(one.size() == 1);
    CHECK(one.front().startsWith(QStringLiteral("over 1.0 ms:")));

    const QStringList two = threshold_labels(frame_with_run([](sim::run_info& r) { r.hold_threshold_ns = 2 * ms; }));
    INFO(two.join(QStringLiteral(" | ")).toStdString());
    REQUIRE(two.size() == 1);
    CHECK(two.front().startsWith(QStringLiteral("over 2.0 ms:")));
}

TEST_CASE("the model view shows the cost model the snapshot's run carries", "[ui][views]")
{
    REQUIRE(machine().last()->run.costs);
    const ui::frame f = frame_with_run([](sim::run_info& r) {
        auto m = std::make_shared<sim::cost_model>(*r.costs);
        m->machine_class = "carried_by_the_snapshot";
        m->set(m->params.front().key, 4321, "this test");
        r.costs = std::move(m);
    });
    ui::model_view v;
    v.show_frame(f);
    CHECK(v.text().contains(QStringLiteral("Cost model in force: carried_by_the_snapshot")));
    CHECK(v.text().contains(QStringLiteral("4321")));
    CHECK(v.text().contains(QStringLiteral("this test")));

    // Without a model in the snapshot it says so (it used to load the preset's, on the window's thread).
    ui::model_view none;
    none.show_frame(frame_with_run([](sim::run_info& r) { r.costs = nullptr; }));
    CHECK_FALSE(none.text().contains(QStringLiteral("Cost model in force")));
    CHECK(none.text().contains(QStringLiteral("No cost model")));
}
