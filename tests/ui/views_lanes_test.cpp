// The zone->lock lanes shade each pixel by the share of its time the lock was held: a lightly used lock looks
// lightly used. (They drew every hold at least a pixel wide in full colour, so that thousands of short holds in a
// window made a lock held 2 % of the time look held throughout.)
#include "views_harness.hpp"

#include "ui/views/lock_paint.hpp"
#include "ui/views/view_style.hpp"

#include "support/small_machine.hpp"

#include "mm/mm_types.hpp"

#include <catch2/catch.hpp>

#include <QImage>
#include <QPainter>

#include <algorithm>

using namespace pcplab;
using test::stepped_machine;

namespace
{

constexpr sim::vtime_ns ms = 1'000'000;

// The share of [t0, t1) during which the zone's lock was held, from the history's records.
double held_share(const ui::history& h, int node, int zone, std::int64_t t0, std::int64_t t1)
{
    double held = 0;
    for (const auto& r : h.zone_lock_holds()) {
        if (r.node != node || r.zone != zone) continue;
        const auto a = std::max<std::int64_t>(t0, static_cast<std::int64_t>(r.start));
        const auto b = std::min<std::int64_t>(t1, static_cast<std::int64_t>(r.start) + r.hold_ns);
        if (b > a) held += static_cast<double>(b - a);
    }
    return held / static_cast<double>(t1 - t0);
}

// How strongly the band is coloured, 0 (the lane's background) to 1 (the holder's colour), averaged.
double mean_ink(const QImage& img, const QRect& band, const QColor& bg, const QColor& full)
{
    const int dr = full.red() - bg.red(), dg = full.green() - bg.green(), db = full.blue() - bg.blue();
    const int span = std::max({std::abs(dr), std::abs(dg), std::abs(db)});
    double sum = 0;
    long n = 0;
    for (int y = band.top() + 2; y < band.bottom() - 2; ++y)
        for (int x = band.left(); x <= band.right(); ++x) {
            const QColor c = img.pixelColor(x, y);
            const int d = std::abs(dr) == span ? c.red() - bg.red()
                : std::abs(dg) == span         ? c.green() - bg.green()
                                               : c.blue() - bg.blue();
            const int sign = (std::abs(dr) == span ? dr : std::abs(dg) == span ? dg : db) < 0 ? -1 : 1;
            sum += std::clamp(static_cast<double>(sign * d) / span, 0.0, 1.0);
            ++n;
        }
    return n ? sum / static_cast<double>(n) : 0;
}

// One lane of zone `zi` over [t0, t1), painted into a w x h image; its holds band in `band`.
QImage paint_one_lane(const sim::snapshot& s, const ui::history& h, int zi, std::int64_t t0, std::int64_t t1, int w,
    int h_px, QRect& band)
{
    QImage img(w, h_px, QImage::Format_RGB32);
    const QPalette pal;
    img.fill(pal.color(QPalette::Window));
    std::vector<ui::hold_hit> hits;
    std::vector<QRect> bands;
    {
        QPainter p(&img);
        ui::lane_window win;
        win.t0 = t0;
        win.t1 = t1;
        ui::paint_lock_lanes(p, img.rect(), {{&s, &h, zi, 0, false}}, win, pal, hits, &bands);
    }
    REQUIRE(bands.size() == 1);
    band = bands.front();
    return img;
}

} // namespace

TEST_CASE("a lock lane is as dark as the share of time the lock was held", "[ui][views][locks]")
{
    // 32 CPUs on one node under kernbench: zone->lock is taken thousands of times in the window, each time briefly.
    auto cfg = test::preset_engine_config("classroom");
    cfg.spec = test::small_spec(1, 32, 6);
    stepped_machine m(cfg);
    for (int i = 0; i < 25; ++i) m.advance(2 * ms);
    const sim::snapshot& s = *m.last();
    // The zone whose lock was held most in the window.
    // A wide window (40 ms over 1200 pixels): many holds per pixel column.
    const std::int64_t t1 = static_cast<std::int64_t>(s.sim_time_ns), t0 = t1 - 40 * ms;
    int zi = -1;
    double share = 0;
    for (std::size_t i = 0; i < s.zones.size(); ++i) {
        const double h = held_share(m.hist(), s.zones[i].node, s.zones[i].zone, t0, t1);
        if (h > share) {
            share = h;
            zi = static_cast<int>(i);
        }
    }
    REQUIRE(zi >= 0);
    const int holds = static_cast<int>(std::count_if(
        m.hist().zone_lock_holds().begin(), m.hist().zone_lock_holds().end(), [&](const sim::lock_hold_record& r) {
            return r.node == s.zone_at(zi).node && r.zone == s.zone_at(zi).zone
                && static_cast<std::int64_t>(r.start) >= t0;
        }));
    INFO("held " << share * 100 << " % of the window, " << holds << " holds");
    REQUIRE(holds > 600); // about as many holds as the lane has pixels, or more
    REQUIRE(share < 0.5);

    QRect band;
    const QImage img = paint_one_lane(s, m.hist(), zi, t0, t1, 1200, 160, band);
    const QPalette pal;
    // The band's mean shade is the held share, give or take the one step (of 16) a column held at all shows.
    const QColor holder = ui::node_color(s.zone_at(zi).node, pal);
    const double ink = mean_ink(img, band, ui::panel_color(pal), holder);
    INFO("mean shade " << ink);
    CHECK(ink >= share - 0.03);
    CHECK(ink <= share + 1.0 / 16 + 0.03);
    CHECK(ink < 0.5); // not solid
}

TEST_CASE("the hold histogram's threshold label has the plot's top line to itself, above the tallest bars",
    "[ui][views][locks]")
{
    // A/B in a short plot (the locks view's grid cell at 1280x800 leaves the histogram ~30 px of bars): the
    // tallest bars reached the plot's top, where the label 'over 1.0 ms: ...' sits, and it hid them.
    sim::lock_metrics a, b;
    for (int i = 0; i < 20000; ++i) a.hold_hist.add(600);
    for (int i = 0; i < 900; ++i) b.hold_hist.add(3000);
    const QPalette pal;
    QImage img(560, 110, QImage::Format_RGB32);
    img.fill(pal.color(QPalette::Window));
    {
        QPainter p(&img);
        ui::paint_hold_histogram(p, img.rect(), QStringLiteral("node 0 Normal"), &a, &b, 1'000'000, pal);
    }
    const int line = QFontMetrics(QFont()).height();
    // The plot starts a line and 4 px under the area's top (the heading); its first line is the label's.
    const int label_bottom = line + 4 + line;
    int top_bar_row = img.height();
    const QRgb bar_a = ui::side_color(0, pal).rgb(), bar_b = ui::side_color(1, pal).rgb();
    for (int y = 0; y < img.height() && top_bar_row == img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            if (img.pixel(x, y) == bar_a || img.pixel(x, y) == bar_b) {
                top_bar_row = y;
                break;
            }
    INFO("the bars start at row " << top_bar_row << ", the label's line ends at row " << label_bottom);
    REQUIRE(top_bar_row < img.height()); // the bars are drawn
    CHECK(top_bar_row >= label_bottom);
}

TEST_CASE("a hold that began long before the window and lasts through it fills its lane", "[ui][views][locks]")
{
    // Story 007: rmqueue_bulk, falling back page after page, held node 3's zone->lock for 12.6 ms; the lanes
    // searched back a fixed 10 ms, left that hold out, and showed the lock idle while 55 CPUs waited for it.
    sim::snapshot s;
    s.seq = 1;
    s.sim_time_ns = 100 * ms;
    s.nr_cpus = 2;
    s.cpu_node = {0, 0};
    sim::zone_snapshot z;
    z.node = 0;
    z.zone = 2;
    s.zones.push_back(z);
    sim::lock_hold_record before; // an ordinary short hold, well before
    before.kind = mm::lock_kind::zone_lock;
    before.node = 0;
    before.zone = 2;
    before.start = 60 * ms;
    before.hold_ns = 2000;
    sim::lock_hold_record longest = before;
    longest.start = 85 * ms; // 13 ms before the window below starts
    longest.hold_ns = 16 * ms; // and past its end
    longest.cpu = 1;
    s.holds = {before, longest};
    s.holds_kept = true;
    ui::history h;
    h.append(s);
    CHECK(h.zone_lock_reach_ns() == 16 * ms);

    QRect band;
    const QImage img = paint_one_lane(s, h, 0, 98 * ms, 100 * ms, 600, 120, band);
    const QPalette pal;
    const double ink = mean_ink(img, band, ui::panel_color(pal), ui::node_color(0, pal));
    INFO("mean shade " << ink);
    CHECK(ink > 0.9); // held throughout the window

    h.clear();
    CHECK(h.zone_lock_reach_ns() == 0);
}
