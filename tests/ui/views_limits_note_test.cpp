// The limits view's "At boot (t = 0)" note sits at the top left of each zone's plot: in A/B at the sizes the
// window gives the view (grid cell and alone, 1280x800 to 1920x1080 screens) it must not cover any line.
#include "views_harness.hpp"

#include "views/limits_view.hpp"

#include <catch2/catch.hpp>

#include <qcustomplot.h>

#include <QApplication>

using namespace pcplab;
using test::stepped_machine;

TEST_CASE("the limits view's boot note never covers a line, single or A/B", "[ui][views][layout]")
{
    constexpr sim::vtime_ns ms = 1'000'000;
    auto cfg = test::preset_engine_config("classroom");
    stepped_machine a(cfg, 0);
    cfg.patches.set(mm::patch::pcp_update_after_deferred_init, !cfg.patches[mm::patch::pcp_update_after_deferred_init]);
    stepped_machine b(cfg, 1);
    for (int i = 0; i < 20; ++i) {
        a.advance(ms / 4);
        b.advance(ms / 4);
    }
    for (const bool ab : {false, true}) {
        const ui::frame f = ab ? test::make_frame(a, &b) : test::make_frame(a);
        // Grid cells and the view alone at the layout test's screen sizes.
        for (const QSize size :
            {QSize(440, 330), QSize(560, 420), QSize(690, 460), QSize(880, 650), QSize(1380, 900)}) {
            ui::limits_view v;
            v.resize(size);
            v.show();
            for (int i = 0; i < 2; ++i) {
                v.show_frame(f);
                QApplication::processEvents();
            }
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
