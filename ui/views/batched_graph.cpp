// The batched line drawing of add_batched_graph().
#include "ui/views/batched_graph.hpp"

#include <qcustomplot.h>

#include <cmath>

namespace pcplab::ui
{

namespace
{

class batched_graph : public QCPGraph
{
public:
    using QCPGraph::QCPGraph;

protected:
    // QCPGraph::drawLinePlot and QCPAbstractPlottable1D::drawPolyline (QCustomPlot 2.1) with the fast-polyline
    // branch batched: NaN points still break the line, 1 px pens are still made cosmetic, and without
    // antialiasing the ends are still rounded to whole pixels as QCPPainter::drawLine does.
    void drawLinePlot(QCPPainter* painter, const QVector<QPointF>& pts) const override
    {
        if (painter->pen().style() == Qt::NoPen || painter->pen().color().alpha() == 0) return;
        applyDefaultAntialiasingHint(painter);
        const bool fast = mParentPlot->plottingHints().testFlag(QCP::phFastPolylines)
            && painter->pen().style() == Qt::SolidLine && !painter->modes().testFlag(QCPPainter::pmVectorized)
            && !painter->modes().testFlag(QCPPainter::pmNoCaching);
        if (!fast) {
            drawPolyline(painter, pts);
            return;
        }
        if (qFuzzyCompare(painter->pen().widthF(), 1.0)) {
            QPen cosmetic = painter->pen();
            cosmetic.setWidth(0);
            painter->setPen(cosmetic);
        }
        const bool aa = painter->antialiasing();
        auto valid = [](const QPointF& p) { return !std::isnan(p.x()) && !std::isnan(p.y()); };
        auto snap = [aa](const QPointF& p) { return aa ? p : QPointF(p.toPoint()); };
        m_segments.clear();
        for (qsizetype i = 1; i < pts.size(); ++i) {
            if (!valid(pts[i - 1]) || !valid(pts[i])) continue;
            const QLineF seg(snap(pts[i - 1]), snap(pts[i]));
            // A level run (a rate of zero, a saturated share) is one segment, not one per sample: both level,
            // joined end to start, both drawn left to right (so the merged one covers both).
            if (!m_segments.isEmpty()) {
                QLineF& last = m_segments.back();
                if (seg.y1() == seg.y2() && last.y1() == last.y2() && last.p2() == seg.p1() && seg.x2() >= seg.x1()
                    && last.x2() >= last.x1()) {
                    last.setP2(seg.p2());
                    continue;
                }
            }
            m_segments.push_back(seg);
        }
        painter->drawLines(m_segments);
    }

private:
    mutable QVector<QLineF> m_segments; // kept between frames: no allocation per replot
};

} // namespace

QCPGraph* add_batched_graph(QCPAxis* key, QCPAxis* value)
{
    return new batched_graph(key, value); // QCPGraph's constructor registers it with the plot
}

} // namespace pcplab::ui
