// The limits view's "At boot (t = 0)" note sits at the top left of each zone's plot: in A/B at the sizes the
// window gives the view (grid cell and alone, 1280x800 to 1920x1080 screens) it must not cover any line.
#include "views_harness.hpp"

#include "ui/views/legend_item.hpp"
#include "ui/views/limits_view.hpp"

#include <catch2/catch.hpp>

#include <qcustomplot.h>

#include <QApplication>

using namespace pcplab;
using test::stepped_machine;

namespace
{
// The classroom machine as A and, with seed 000's switch flipped, as B, run `quarters` quarter-milliseconds.
struct classroom_pair {
    stepped_machine a, b;
    explicit classroom_pair(int quarters)
        : a(config(false), 0)
        , b(config(true), 1)
    {
        for (int i = 0; i < quarters; ++i) {
            a.advance(250'000);
            b.advance(250'000);
        }
    }
    static sim::engine_config config(bool flipped)
    {
        auto cfg = test::preset_engine_config("classroom");
        if (flipped)
            cfg.patches.set(
                mm::patch::pcp_update_after_deferred_init, !cfg.patches[mm::patch::pcp_update_after_deferred_init]);
        return cfg;
    }
};

// The view at `size`, shown the frame twice (the second time laid out at its size).
void show_at(ui::limits_view& v, const QSize& size, const ui::frame& f)
{
    v.resize(size);
    v.show();
    for (int i = 0; i < 2; ++i) {
        v.show_frame(f);
        QApplication::processEvents();
    }
}
} // namespace

TEST_CASE("the limits view's boot note never covers a line, single or A/B", "[ui][views][layout]")
{
    classroom_pair machines(20);
    stepped_machine &a = machines.a, &b = machines.b;
    for (const bool ab : {false, true}) {
        const ui::frame f = ab ? test::make_frame(a, &b) : test::make_frame(a);
        // Grid cells and the view alone at the layout test's screen sizes.
        for (const QSize size :
            {QSize(440, 330), QSize(560, 420), QSize(690, 460), QSize(880, 650), QSize(1380, 900)}) {
            ui::limits_view v;
            show_at(v, size, f);
            v.grab();
            auto* plot = v.findChild<QCustomPlot*>();
            REQUIRE(plot);
            int notes = 0;
            for (int i = 0; i < plot->itemCount(); ++i) {
                auto* note = qobject_cast<QCPItemText*>(plot->item(i));
                if (!note || !note->visible() || !note->text().startsWith(QStringLiteral("At boot"))) continue;
                ++notes;
                const double note_bottom = note->bottom->pixelPosition().y();
                QCPAxisRect* rect = note->clipAxisRect();
                REQUIRE(rect);
                for (QCPGraph* g : rect->graphs()) {
                    // The lines (left axis); the boot markers have their own axis, at t = 0 left of the note.
                    if (!g->visible() || g->data()->isEmpty() || g->valueAxis() != rect->axis(QCPAxis::atLeft))
                        continue;
                    bool found = false;
                    const QCPRange r = g->getValueRange(found);
                    if (!found) continue;
                    const double top = g->valueAxis()->coordToPixel(r.upper);
                    INFO((ab ? "A/B" : "single")
                        << " at " << size.width() << "x" << size.height() << ": '" << g->name().toStdString()
                        << "' reaches y = " << top << " px, the note ends at " << note_bottom << " px");
                    CHECK(top > note_bottom);
                }
            }
            INFO((ab ? "A/B" : "single") << " at " << size.width() << "x" << size.height());
            CHECK(notes > 0);
        }
    }
}

TEST_CASE("the limits view's A/B legend pairs B's line with A's in every entry", "[ui][views][layout]")
{
    classroom_pair machines(8);
    stepped_machine &a = machines.a, &b = machines.b;
    const ui::frame f = test::make_frame(a, &b);
    // The grid cells of 1280x800 to 1920x1080 screens (the legend had room for one row there, which the long
    // names set at two columns: "A: high", "A: batch" and no word of B), and the view alone on a 1280x800
    // screen, where the fourteen entries of A and B (one each per line) left out the event lines.
    for (const QSize size : {QSize(440, 330), QSize(560, 420), QSize(690, 460), QSize(900, 470)}) {
        ui::limits_view v;
        show_at(v, size, f);
        auto* plot = v.findChild<QCustomPlot*>();
        REQUIRE(plot);
        QStringList names;
        for (QCPLayoutElement* e : plot->plotLayout()->elements(true))
            if (auto* l = qobject_cast<QCPLegend*>(e))
                for (int i = 0; i < l->itemCount(); ++i)
                    if (auto* it = qobject_cast<QCPPlottableLegendItem*>(l->item(i))) {
                        const QString name = it->plottable()->name();
                        names << name;
                        const QCPAbstractPlottable* second = ui::second_plottable(it);
                        INFO(size.width() << "x" << size.height() << ": entry '" << name.toStdString() << "'");
                        REQUIRE(second);
                        CHECK(name.startsWith(QStringLiteral("A: ")));
                        CHECK(second->name() == QStringLiteral("B: ") + name.mid(3));
                    }
        INFO(size.width() << "x" << size.height() << ": " << names.join(QStringLiteral(", ")).toStdString());
        CHECK(names.size() >= 2);
        if (size.width() >= 900) CHECK(names.contains(QStringLiteral("A: deferred init / reclaim / switch")));
    }
}
