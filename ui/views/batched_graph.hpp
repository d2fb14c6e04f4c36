// A QCPGraph whose solid lines go to the paint engine in one call per graph instead of one per segment.
#pragma once

class QCPAxis;
class QCPGraph;

namespace pcplab::ui
{

// Like QCustomPlot::addGraph(key, value), for graphs redrawn every frame. With QCP::phFastPolylines, stock
// QCPGraph draws a line of n points as n - 1 QPainter::drawLine calls, each a full trip through the raster
// engine's stroke setup; this one hands the same segments over at once, and a level run (equal values one
// after another) as one segment: the same line, less overhead.
QCPGraph* add_batched_graph(QCPAxis* key, QCPAxis* value);

} // namespace pcplab::ui
