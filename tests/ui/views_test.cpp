// Every view on a real engine (classroom preset, stepped on this thread), offscreen: it draws something, the
// picture changes when the machine does, and the hover / filter / seek behaviours work on real data.
#include "views_harness.hpp"

#include "ui/views/buddy_view.hpp"
#include "ui/views/deferred_view.hpp"
#include "ui/views/events_view.hpp"
#include "ui/views/header_parts.hpp"
#include "ui/views/heatmap_view.hpp"
#include "ui/views/limits_view.hpp"
#include "ui/views/locks_view.hpp"
#include "ui/views/model_view.hpp"
#include "ui/views/pcp_view.hpp"
#include "ui/views/proc_view.hpp"
#include "ui/views/rates_view.hpp"

#include "support/small_machine.hpp"

#include "lessons/lesson.hpp"
#include "procfs/procfs_texts.hpp"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QImage>
#include <QPaintEvent>
#include <QWheelEvent>

#include <algorithm>
#include <memory>

using namespace pcplab;
using test::stepped_machine;

namespace
{

constexpr sim::vtime_ns ms = 1'000'000;

// The classroom machine, booted once for all the tests of this file (boot is the slow part).
stepped_machine& classroom()
{
    static stepped_machine m(test::preset_engine_config("classroom"));
    if (!m.last()) m.advance(2 * ms);
    return m;
}

QImage render(ui::view* v, const ui::frame& f)
{
    v->show_frame(f);
    QApplication::processEvents(); // queued replots
    return v->grab().toImage();
}

// Pixels that differ from the widget's background: 0 means the view drew nothing.
long drawn_pixels(const QImage& img, const QColor& bg)
{
    long n = 0;
    const QRgb b = bg.rgb();
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            if ((img.pixel(x, y) & 0xffffff) != (b & 0xffffff)) ++n;
    return n;
}

std::unique_ptr<ui::view> find_view(const QString& id)
{
    auto views = ui::make_views(nullptr);
    std::unique_ptr<ui::view> out;
    for (ui::view* v : views) {
        if (v->view_id() == id)
            out.reset(v);
        else
            delete v;
    }
    return out;
}

} // namespace

TEST_CASE("the views the window makes are exactly the view ids lessons and --view accept", "[ui][views]")
{
    // Three hand-kept lists had drifted apart: a lesson step could not point at the heatmap.
    std::vector<std::string> made;
    for (ui::view* v : ui::make_views(nullptr)) {
        made.push_back(v->view_id().toStdString());
        delete v;
    }
    std::vector<std::string> known = lessons::view_ids();
    std::sort(made.begin(), made.end());
    std::sort(known.begin(), known.end());
    CHECK(made == known);
}

TEST_CASE("every view draws a non-empty picture that changes when the machine changes")
{
    stepped_machine& m = classroom();
    auto views = ui::make_views(nullptr);
    REQUIRE(views.size() == 10);
    std::vector<QImage> before;
    for (ui::view* v : views) {
        v->resize(900, 560);
        v->show();
        if (auto* p = qobject_cast<ui::proc_view*>(v)) p->set_refresh_ms(0);
    }
    QApplication::processEvents();
    const ui::frame f1 = test::make_frame(m);
    for (ui::view* v : views) {
        const QImage img = render(v, f1);
        INFO("view " << v->view_id().toStdString());
        CHECK(drawn_pixels(img, v->palette().color(QPalette::Window)) > 2000);
        before.push_back(img);
    }
    // The machine changes: a switch flips (an event, a different switch line) and 5 ms more of the workload.
    m.engine().set_patch(
        mm::patch::bulk_free_pick_outside_lock, !m.last()->patches[mm::patch::bulk_free_pick_outside_lock]);
    m.advance(5 * ms);
    const ui::frame f2 = test::make_frame(m);
    for (std::size_t i = 0; i < views.size(); ++i) {
        ui::view* v = views[i];
        if (v->view_id() == QLatin1String("deferred")) continue; // boot is over: checked against another boot below
        const QImage img = render(v, f2);
        INFO("view " << v->view_id().toStdString());
        CHECK(img != before[i]);
    }
    for (ui::view* v : views) delete v;
}

TEST_CASE("the deferred init view shows each node and differs between one and several init threads")
{
    stepped_machine& m = classroom();
    auto v = find_view(QStringLiteral("deferred"));
    v->resize(800, 300);
    const QImage one = render(v.get(), test::make_frame(m));
    REQUIRE(m.last()->deferred_init.size() == 2);
    CHECK(drawn_pixels(one, v->palette().color(QPalette::Window)) > 2000);

    auto cfg = test::preset_engine_config("classroom", "kernbench", {{mm::patch::parallel_deferred_init, true}});
    cfg.patches.init_threads = 4; // v5.4's RFC default would be a quarter of the node's 4 CPUs: 1
    stepped_machine par(cfg);
    par.advance(ms);
    REQUIRE(par.last()->deferred_init.front().threads != m.last()->deferred_init.front().threads);
    CHECK(render(v.get(), test::make_frame(par)) != one);
}

TEST_CASE("the per-CPU view draws bars for a few CPUs, a grid for many, and tells a CPU's numbers on hover")
{
    stepped_machine& m = classroom();
    ui::pcp_view v;
    v.resize(800, 400);
    ui::frame f = test::make_frame(m);
    render(&v, f);
    CHECK_FALSE(v.grid_mode());
    // The first bar is CPU 0 (node 0): its tooltip carries its numbers in the selected (Normal) zone.
    bool found = false;
    for (int x = 0; x < v.width() && !found; x += 2)
        for (int y = v.height() / 2; y < v.height() && !found; y += 4) {
            const auto h = v.hit_at({x, y});
            if (h.cpu != 0) continue;
            const QString t = v.tooltip_at({x, y});
            const int zi = m.last()->zone_index(0, mm::ZONE_NORMAL);
            REQUIRE(zi >= 0);
            const auto& ps = m.last()->pageset(zi, 0);
            CHECK(t.contains(QStringLiteral("count %1").arg(ps.count)));
            CHECK(t.contains(QStringLiteral("high %1").arg(ps.high)));
            CHECK(t.contains(QStringLiteral("batch %1").arg(ps.batch)));
            found = true;
        }
    CHECK(found);

    // 128 CPUs: the gauge grid, every CPU hit-testable.
    auto cfg = test::preset_engine_config("classroom");
    cfg.spec = test::small_spec(2, 64, 1);
    stepped_machine big(cfg);
    big.advance(ms);
    const QImage img = render(&v, test::make_frame(big));
    CHECK(v.grid_mode());
    CHECK(drawn_pixels(img, v.palette().color(QPalette::Window)) > 2000);
}

TEST_CASE("A/B: the per-CPU view puts B beside A and the rates header shows the deltas")
{
    stepped_machine& a = classroom();
    auto cfg = test::preset_engine_config("classroom");
    cfg.patches.set(mm::patch::bulk_free_pick_outside_lock, !cfg.patches[mm::patch::bulk_free_pick_outside_lock]);
    stepped_machine b(cfg, 1);
    b.advance(a.engine().now());
    const ui::frame f = test::make_frame(a, &b);
    ui::pcp_view v;
    v.resize(1000, 400);
    render(&v, f);
    bool left_a = false, right_b = false;
    for (int x = 0; x < v.width(); x += 2)
        for (int y = 0; y < v.height(); y += 4) {
            const auto h = v.hit_at({x, y});
            if (h.cpu < 0) continue;
            if (x < v.width() / 2) left_a = left_a || h.side == 0;
            if (x > v.width() / 2) right_b = right_b || h.side == 1;
            REQUIRE((x < v.width() / 2) == (h.side == 0));
        }
    CHECK(left_a);
    CHECK(right_b);

    ui::rates_view r;
    r.resize(900, 600);
    r.show(); // a hidden plot view only keeps the frame for later
    render(&r, f);
    CHECK(r.header_text().startsWith(QStringLiteral("contention A ")));
    render(&r, test::make_frame(a));
    CHECK(r.header_text().startsWith(QStringLiteral("zone->lock contention")));
}

TEST_CASE("the event log filters by kind and text and a selected event asks for a seek to its time")
{
    stepped_machine& m = classroom();
    m.engine().set_patch(
        mm::patch::bulk_free_pick_outside_lock, !m.last()->patches[mm::patch::bulk_free_pick_outside_lock]);
    m.advance(ms);
    ui::events_view v;
    v.show_frame(test::make_frame(m));
    const auto& events = m.hist().events();
    REQUIRE(!events.empty());
    REQUIRE(v.total_rows() == static_cast<int>(events.size()));

    long flips = 0, done = 0;
    for (const auto& e : events) {
        flips += e.kind == sim::event_kind::switch_flip;
        done += e.kind == sim::event_kind::deferred_init_done;
    }
    REQUIRE(flips > 0);
    v.set_filter(QString(), static_cast<int>(sim::event_kind::deferred_init_done));
    CHECK(v.visible_rows() == done);
    v.set_filter(QStringLiteral("bulk-free-pick-outside"), -1);
    CHECK(v.visible_rows() == flips);
    v.set_filter(QStringLiteral("no event says this"), -1);
    CHECK(v.visible_rows() == 0);
    v.set_filter(QString(), -1);
    CHECK(v.visible_rows() == v.total_rows());

    std::vector<qint64> seeks;
    QObject::connect(&v, &ui::view::seek_requested, [&](qint64 t) { seeks.push_back(t); });
    const int last = v.visible_rows() - 1;
    v.select_row(last);
    REQUIRE(seeks.size() == 1);
    CHECK(seeks[0] == static_cast<qint64>(events.back().t));
}

TEST_CASE("history on a real engine: samples append, and a reboot clears them")
{
    auto cfg = test::preset_engine_config("classroom");
    cfg.spec = test::small_spec(1, 2, 1);
    stepped_machine m(cfg);
    m.advance(ms);
    m.advance(ms);
    REQUIRE(m.hist().samples().size() == 2);
    CHECK(m.hist().samples().back().t_ns > m.hist().samples().front().t_ns);
    CHECK(m.hist().samples().back().zone_allocs >= m.hist().samples().front().zone_allocs);
    const auto epoch = m.hist().epoch();
    m.reboot();
    m.advance(ms);
    CHECK(m.hist().samples().size() == 1);
    CHECK(m.hist().epoch() != epoch);
}

TEST_CASE("the limits view stacks one plot per zone of the selected type and notes the limits set at boot")
{
    stepped_machine& m = classroom();
    ui::limits_view v;
    v.resize(900, 600);
    v.show();
    render(&v, test::make_frame(m));
    long normal = 0;
    for (const auto& z : m.last()->zones) normal += z.zone == mm::ZONE_NORMAL;
    CHECK(v.zone_plots() == normal);
    // Seed 000 on v5.4 with the switch on: batch is recomputed when deferred init completes, at boot.
    bool batch_change = false;
    for (const auto& e : m.hist().events())
        batch_change = batch_change || (e.kind == sim::event_kind::limits_change && e.field == sim::event_field::batch);
    REQUIRE(batch_change);
    CHECK(v.zone_note(0).contains(QStringLiteral("batch")));
    const QPoint at = v.first_limit_marker(0);
    REQUIRE(at.x() >= 0);
    INFO("marker at " << at.x() << "," << at.y() << " plot " << v.width() << "x" << v.height());
    CHECK(v.marker_tooltip_at(at).contains(QStringLiteral("→")));
    CHECK(v.marker_tooltip_at({2, 2}).isEmpty());
}

TEST_CASE("a view painted under its header bar repaints whole when the bar gets shorter", "[ui][views][locks]")
{
    // Story 001's lanes kept a stale band at their top: the header went from two lines to one while the story
    // was paused, and Qt repainted only the strip the bar uncovered, while the lanes had moved up under it.
    for (const bool heat : {false, true}) {
        std::unique_ptr<ui::view> v;
        if (heat)
            v = std::make_unique<ui::heatmap_view>();
        else
            v = std::make_unique<ui::locks_view>();
        v->resize(600, 400);
        v->show();
        render(v.get(), test::make_frame(classroom()));
        auto* header = v->findChild<ui::header_line*>();
        REQUIRE(header);
        QWidget* bar = header->parentWidget();
        bar->setFixedHeight(80);
        QApplication::processEvents();
        struct paint_spy : QObject {
            QRegion seen;
            bool eventFilter(QObject*, QEvent* e) override
            {
                if (e->type() == QEvent::Paint) seen += static_cast<QPaintEvent*>(e)->region();
                return false;
            }
        } spy;
        v->installEventFilter(&spy);
        bar->setFixedHeight(40);
        QApplication::processEvents();
        v->removeEventFilter(&spy);
        INFO((heat ? "heatmap" : "locks") << " view: repainted " << spy.seen.boundingRect().y() << "+"
                                          << spy.seen.boundingRect().height() << " of " << v->height() << " px");
        CHECK(spy.seen.contains(QPoint(300, 300))); // far below the strip the bar uncovered
    }
}

TEST_CASE("the lock view says how many zones it had no room to draw a lane for", "[ui][views][locks]")
{
    // Presenter mode at 1280x800 drew two of skylake-4s's four Normal zones, and nothing said the others existed:
    // they read as idle. Classroom has two Normal zones (one per node); A and B give four lanes.
    stepped_machine& a = classroom();
    stepped_machine b(test::preset_engine_config("classroom"), 1);
    b.advance(2 * ms);
    const ui::frame f = test::make_frame(a, &b);
    ui::locks_view v;
    v.resize(1000, 700);
    render(&v, f);
    CHECK(v.zones_left_out() == 0);
    v.resize(1000, 230); // room for one zone's pair of lanes above the histogram
    render(&v, f);
    CHECK(v.zones_left_out() >= 1);
}

TEST_CASE("the lock view draws the holds it is given and says when holds are not kept")
{
    stepped_machine& m = classroom();
    ui::locks_view v;
    v.resize(1000, 560);
    render(&v, test::make_frame(m));
    REQUIRE(m.last()->holds_kept);
    REQUIRE(!m.hist().holds().empty());
    // Zoom in until single holds are wide enough to be hit-tested.
    for (int i = 0; i < 12 && v.holds_drawn() == 0; ++i) {
        QWheelEvent we(QPointF(500, 200), QPointF(500, 200), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
            Qt::NoScrollPhase, false);
        QApplication::sendEvent(&v, &we);
        v.grab();
    }
    REQUIRE(v.holds_drawn() > 0);

    auto cfg = test::preset_engine_config("classroom");
    cfg.spec = test::small_spec(1, 2, 1);
    cfg.keep_holds = false;
    stepped_machine agg(cfg);
    agg.advance(2 * ms);
    const QImage img = render(&v, test::make_frame(agg));
    CHECK(v.holds_drawn() == 0);
    CHECK(drawn_pixels(img, v.palette().color(QPalette::Window)) > 2000);
}

TEST_CASE("the buddy, /proc and model views show the machine's numbers")
{
    stepped_machine& m = classroom();
    const ui::frame f = test::make_frame(m);
    const sim::snapshot& s = *m.last();

    ui::proc_view p;
    p.set_refresh_ms(0);
    p.show();
    p.show_frame(f);
    const QString zi = p.zoneinfo_text();
    CHECK(zi.contains(QStringLiteral("Node 0, zone   Normal")));
    CHECK(zi.contains(QStringLiteral("pagesets")));
    const QString bi = p.buddyinfo_text();
    CHECK(bi.count(QLatin1Char('\n')) == static_cast<int>(s.zones.size()));
    CHECK(bi.contains(QString::number(s.zones.back().nr_free[0])));

    ui::model_view mv;
    mv.show_frame(f);
    CHECK(mv.text().contains(QStringLiteral("Cost model in force")));
    CHECK(mv.text().contains(QStringLiteral("lock_ns")));

    ui::buddy_view b;
    b.resize(900, 500);
    render(&b, f);
    int hits = 0;
    for (int x = 0; x < b.width(); x += 3)
        for (int y = 0; y < b.height(); y += 6) {
            const QString t = b.tooltip_at({x, y});
            if (t.isEmpty()) continue;
            ++hits;
            CHECK(t.contains(QStringLiteral("free blocks")));
        }
    CHECK(hits > 0);
}

TEST_CASE("a hidden plot view keeps the newest frame and draws it when shown")
{
    stepped_machine& m = classroom();
    ui::rates_view v;
    v.resize(900, 600);
    v.show_frame(test::make_frame(m)); // hidden: nothing is built yet
    CHECK(v.header_text().isEmpty());
    v.show();
    QApplication::processEvents();
    CHECK(v.header_text().startsWith(QStringLiteral("zone->lock contention")));
}

TEST_CASE("the views re-colour for a dark palette")
{
    stepped_machine& m = classroom();
    const ui::frame f = test::make_frame(m);
    for (const QString id : {QStringLiteral("pcp"), QStringLiteral("locks"), QStringLiteral("limits")}) {
        auto v = find_view(id);
        v->resize(800, 500);
        v->show();
        const QImage light = render(v.get(), f);
        QPalette dark = v->palette();
        dark.setColor(QPalette::Window, QColor(30, 30, 32));
        dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
        dark.setColor(QPalette::Base, QColor(20, 20, 22));
        dark.setColor(QPalette::Text, QColor(230, 230, 230));
        v->setPalette(dark);
        QApplication::processEvents();
        v->show_frame(f);
        const QImage img = v->grab().toImage();
        INFO("view " << id.toStdString());
        CHECK(img != light);
        // Mostly dark, and something light drawn on it (text, lines): no light-on-light leftovers.
        long dark_px = 0, light_px = 0;
        for (int y = 0; y < img.height(); y += 2)
            for (int x = 0; x < img.width(); x += 2) {
                const int l = QColor(img.pixel(x, y)).lightness();
                dark_px += l < 80;
                light_px += l > 170;
            }
        CHECK(dark_px > (img.width() / 2) * (img.height() / 2) / 2);
        CHECK(light_px > 100);
    }
}

TEST_CASE("the /proc view shows the engine's own zoneinfo text when the snapshot has it")
{
    stepped_machine& m = classroom();
    m.advance(2 * ms); // past the next 1 ms rendering of the /proc texts
    REQUIRE(m.last()->procfs);
    ui::proc_view p;
    p.show();
    p.show_frame(test::make_frame(m));
    CHECK(p.zoneinfo_text() == QString::fromStdString(m.last()->procfs->zoneinfo()));
    CHECK(p.buddyinfo_text() == QString::fromStdString(m.last()->procfs->buddyinfo()));
}
