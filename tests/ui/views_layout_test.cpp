// Every view's text at the screen sizes of a classroom (1280x800, 1600x1000, 1920x1080), single and A/B, on a real
// engine: no two labels overlap, none is cut off by a clip or elided ("batch 6..."), and each view's key numbers
// are on screen. The views are arranged as the window arranges them (window/view_area: the 2 x 2 grid and the tab
// row) and, one at a time, filling the area (Alt+N, presenter mode, `--view`). Views whose text sits in tables and
// text panes (events, /proc, model), which clip cells by design, are checked for overlaps only.
#include "drawn_text.hpp"
#include "views_harness.hpp"

#include "ui/views/view.hpp"
#include "ui/window/view_area.hpp"

#include "support/small_machine.hpp"

#include <catch2/catch.hpp>

#include <QApplication>

#include <map>

using namespace pcplab;
using test::stepped_machine;

namespace
{

constexpr sim::vtime_ns ms = 1'000'000;

// The window's view area at each screen size: the screen less the controls dock (about 30 % of the width) and
// the title, menu and status bars.
struct screen {
    const char* name;
    QSize area;
};
const screen k_screens[] = {{"1280x800", {880, 690}}, {"1600x1000", {1130, 880}}, {"1920x1080", {1380, 960}}};

// Text inside tables and text panes is cut at cell borders on purpose.
bool text_widget_view(const QString& id)
{
    return id == QLatin1String("events") || id == QLatin1String("proc") || id == QLatin1String("model");
}

// What each view must show whole: its key numbers (first header part) or its main label.
QStringList key_labels(const QString& id, const sim::snapshot& a, const sim::snapshot* b)
{
    if (id == QLatin1String("pcp") || id == QLatin1String("limits")) return {QStringLiteral("batch ")};
    if (id == QLatin1String("rates") || id == QLatin1String("locks"))
        return {b ? QStringLiteral("contention A ") : QStringLiteral("zone->lock contention ")};
    if (id == QLatin1String("heat")) return {QStringLiteral("%1 CPUs").arg(a.nr_cpus), QStringLiteral("100 %")};
    if (id == QLatin1String("buddy")) return {QStringLiteral("free pages")};
    if (id == QLatin1String("deferred")) return {QStringLiteral("struct pages initialised")};
    return {};
}

// The problems of one view's texts, one line each (empty: none).
QString problems(ui::view* v, const sim::snapshot& a, const sim::snapshot* b)
{
    const std::vector<test::drawn_text> texts = test::collect_drawn_text(v);
    QString out;
    for (const auto& o : test::overlapping(texts))
        out += QStringLiteral("overlap: '%1' and '%2'\n").arg(o.a.text, o.b.text);
    const bool strict = !text_widget_view(v->view_id());
    for (const auto& t : texts) {
        if (strict && t.cut() && !t.visible.isEmpty()) out += QStringLiteral("cut: '%1'\n").arg(t.text);
        if (strict && t.elided()) out += QStringLiteral("elided: '%1'\n").arg(t.text);
    }
    for (const QString& key : key_labels(v->view_id(), a, b)) {
        bool shown = false;
        for (const auto& t : texts) shown = shown || (t.text.contains(key) && !t.cut());
        if (!shown) out += QStringLiteral("key label '%1' not shown whole\n").arg(key);
    }
    if (!out.isEmpty()) out += QStringLiteral("texts:\n") + test::describe(texts);
    return out;
}

// Shows `f` to every view of the area and lets queued replots and layouts run.
void show(ui::view_area& area, const ui::frame& f)
{
    for (int i = 0; i < 2; ++i) {
        for (ui::view* v : area.views())
            if (v->isVisible()) v->show_frame(f);
        QApplication::processEvents();
    }
}

void check_layouts(const ui::frame& f, const char* machine)
{
    auto views = ui::make_views(nullptr);
    ui::view_area area(views);
    for (const screen& sc : k_screens) {
        area.resize(sc.area);
        area.show();
        QApplication::processEvents();
        // The grid and each tab in turn.
        for (ui::view* tab : area.views()) {
            if (ui::view_area::grid_ids().contains(tab->view_id())) continue;
            area.raise_view(tab->view_id());
            show(area, f);
            for (ui::view* v : area.views()) {
                if (!v->isVisible()) continue;
                INFO(machine << (f.b ? " A/B" : " single") << " at " << sc.name << ", view "
                             << v->view_id().toStdString() << " in the grid (" << v->width() << "x" << v->height()
                             << ")");
                const QString p = problems(v, *f.a, f.b.get());
                CHECK(p.toStdString() == "");
            }
        }
        // Each view filling the area.
        for (ui::view* v : area.views()) {
            area.set_focus_view(v->view_id());
            show(area, f);
            INFO(machine << (f.b ? " A/B" : " single") << " at " << sc.name << ", view " << v->view_id().toStdString()
                         << " alone (" << v->width() << "x" << v->height() << ")");
            const QString p = problems(v, *f.a, f.b.get());
            CHECK(p.toStdString() == "");
        }
        area.set_focus_view({});
    }
}

// B: the same machine with the first switch that means something on its era flipped.
sim::engine_config flipped(sim::engine_config cfg)
{
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) {
        const auto sw = static_cast<mm::patch>(i);
        if (!mm::patch_not_applicable(sw, !cfg.patches[sw], cfg.era).empty()) continue;
        cfg.patches.set(sw, !cfg.patches[sw]);
        break;
    }
    return cfg;
}

void check_machine(const sim::engine_config& cfg, const char* name)
{
    stepped_machine a(cfg, 0), b(flipped(cfg), 1);
    for (int i = 0; i < 20; ++i) {
        a.advance(ms / 4);
        b.advance(ms / 4);
    }
    check_layouts(test::make_frame(a), name);
    check_layouts(test::make_frame(a, &b), name);
}

} // namespace

TEST_CASE(
    "no view's labels overlap, are cut or elided at classroom screen sizes: classroom preset", "[ui][views][layout]")
{
    check_machine(test::preset_engine_config("classroom"), "classroom");
}

TEST_CASE(
    "no view's labels overlap, are cut or elided at classroom screen sizes: 2 nodes of 128 CPUs", "[ui][views][layout]")
{
    auto cfg = test::preset_engine_config("classroom");
    cfg.spec = test::small_spec(2, 128, 6);
    check_machine(cfg, "2 x 128 CPUs");
}
