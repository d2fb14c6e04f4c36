// The per-CPU x time heatmap on real engines: a pixel row per CPU at 316 CPUs in the space the view gets on a
// 1920x1080 screen, the values it draws are the history's bins, hover names the CPU, the time and the value, and
// the list depth follows the zone chosen in its header (each CPU's own node's Normal zone by default).
#include "drawn_text.hpp"
#include "views_harness.hpp"

#include "ui/views/heatmap_view.hpp"
#include "ui/views/time_ticks.hpp"

#include "support/small_machine.hpp"

#include "mm/mm_types.hpp"

#include <catch2/catch.hpp>

#include <QApplication>

using namespace pcplab;
using test::stepped_machine;

namespace
{

constexpr sim::vtime_ns us = 1000;

void draw(ui::heatmap_view& v, const ui::frame& f)
{
    v.show_frame(f);
    QApplication::processEvents();
    v.grab();
}

// The first point of the map (scanning rows, then columns) whose value passes `above`.
QPoint find_value(const ui::heatmap_view& v, double above)
{
    for (int y = 0; y < v.height(); ++y)
        for (int x = 0; x < v.width(); x += 3) {
            const double val = v.value_at({x, y});
            if (!std::isnan(val) && val > above) return {x, y};
        }
    return {-1, -1};
}

} // namespace

TEST_CASE("the heatmap gives each of 316 CPUs a pixel row at 1920x1080 and its hover tells CPU, time and value",
    "[ui][views][heatmap]")
{
    // meta-1t-316's CPU count on one node, with little memory so that it boots in a test's time.
    auto cfg = test::preset_engine_config("classroom");
    cfg.spec = test::small_spec(1, 316, 6);
    stepped_machine m(cfg);
    for (int i = 0; i < 40; ++i) m.advance(100 * us);
    ui::heatmap_view v;
    v.resize(1380, 960); // the view filling the window's view area on a 1920x1080 screen
    v.show();
    draw(v, test::make_frame(m));
    CHECK(v.cpus_per_row() == 1);

    // Waiting: the value under the cursor is the CPU's share of that bin spent waiting, from the history's bins.
    v.set_quantity(ui::heatmap_view::quantity::waiting);
    v.grab();
    const QPoint at = find_value(v, 0.05);
    REQUIRE(at.x() >= 0);
    const auto c = v.cell_at(at);
    REQUIRE(c.cpu >= 0);
    REQUIRE(c.cpus == 1);
    const float share = m.hist().bins().cpu_wait_share(c.cpu, c.bin);
    CHECK(v.value_at(at) == Approx(share));
    const QString tip = v.tooltip_at(at);
    CHECK(tip.contains(QStringLiteral("CPU %1").arg(c.cpu)));
    CHECK(tip.contains(QStringLiteral("waited for zone->lock %1 %").arg(share * 100, 0, 'f', 1)));
    const auto bin_ns = static_cast<double>(m.hist().bins().bin_ns());
    CHECK(tip.contains(ui::time_label(static_cast<double>(c.bin) * bin_ns, bin_ns)));

    // A short view: rows of several CPUs, and the header says so.
    v.resize(900, 300);
    v.grab();
    CHECK(v.cpus_per_row() > 1);
}

TEST_CASE("the heatmap's list depth is each CPU's own node's Normal zone by default, or the zone chosen",
    "[ui][views][heatmap]")
{
    auto cfg = test::preset_engine_config("classroom");
    cfg.spec = test::small_spec(2, 8, 6);
    stepped_machine m(cfg);
    for (int i = 0; i < 20; ++i) m.advance(100 * us);
    ui::heatmap_view v;
    v.resize(1000, 600);
    v.show();
    draw(v, test::make_frame(m));
    REQUIRE(v.picker()->choice() == ui::zone_choice{-1, mm::ZONE_NORMAL});
    const ui::activity_bins& b = m.hist().bins();
    // A CPU of node 1 shows node 1's Normal zone; after choosing node 0 Normal, node 0's.
    auto depth_of_node1_cpu = [&](int zone_node) {
        for (int y = 0; y < v.height(); ++y)
            for (int x = 0; x < v.width(); x += 5) {
                const auto c = v.cell_at({x, y});
                if (c.cpu < 0 || m.last()->cpu_node[static_cast<std::size_t>(c.cpu)] != 1) continue;
                const int zi = b.zone_index(zone_node, mm::ZONE_NORMAL);
                REQUIRE(zi >= 0);
                const float want = b.depth(static_cast<std::size_t>(zi), c.cpu, c.bin);
                if (want < 0) continue;
                CHECK(v.value_at({x, y}) == Approx(want));
                return true;
            }
        return false;
    };
    CHECK(depth_of_node1_cpu(1));
    v.picker()->choose({0, mm::ZONE_NORMAL});
    v.grab();
    CHECK(depth_of_node1_cpu(0));
}

TEST_CASE(
    "an A/B heatmap too short for a label per node still says which map is A and which is B", "[ui][views][heatmap]")
{
    // classroom: 2 nodes of 4 CPUs; in a grid tab on a 1280x800 screen each node gets a couple of pixel rows.
    auto cfg = test::preset_engine_config("classroom");
    stepped_machine a(cfg, 0), b(cfg, 1);
    for (int i = 0; i < 10; ++i) {
        a.advance(100 * us);
        b.advance(100 * us);
    }
    ui::heatmap_view v;
    v.resize(880, 190);
    v.show();
    draw(v, test::make_frame(a, &b));
    QStringList labels;
    for (const test::drawn_text& t : test::collect_drawn_text(&v)) labels << t.text;
    INFO(labels.join(QStringLiteral(" | ")).toStdString());
    const auto names_side = [&](const QString& side) {
        return std::any_of(labels.begin(), labels.end(), [&](const QString& l) { return l.startsWith(side); });
    };
    CHECK(names_side(QStringLiteral("A ")));
    CHECK(names_side(QStringLiteral("B ")));
}

TEST_CASE(
    "the heatmap drawn frame by frame (only the bins that changed) is the picture drawn at once", "[ui][views][heat]")
{
    auto cfg = test::preset_engine_config("classroom");
    cfg.spec = test::small_spec(2, 8, 6);
    stepped_machine m(cfg);
    for (const auto q : {ui::heatmap_view::quantity::depth, ui::heatmap_view::quantity::waiting}) {
        ui::heatmap_view stepped;
        stepped.set_quantity(q);
        stepped.resize(900, 500);
        stepped.show();
        // Past the bins' first merge (512 bins of 20 us), with late-reported waits along the way.
        for (int i = 0; i < 80; ++i) {
            m.advance(200 * us);
            draw(stepped, test::make_frame(m));
        }
        ui::heatmap_view at_once;
        at_once.set_quantity(q);
        at_once.resize(900, 500);
        at_once.show();
        const ui::frame f = test::make_frame(m);
        draw(at_once, f);
        draw(stepped, f);
        CHECK(m.hist().bins().bin_ns() > 20 * us);
        const QImage a = stepped.grab().toImage(), b = at_once.grab().toImage();
        REQUIRE(a.size() == b.size());
        CHECK(a == b);
    }
}
