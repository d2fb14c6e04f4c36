// Every piece of text a widget draws, with where it lands: the widget tree is painted into a paint device whose
// engine records each text item (string, rectangle in the widget's coordinates, and the part left visible by
// the painter's clip) instead of pixels. QCustomPlot paints into its own buffers, so each plot inside the widget
// is drawn again through QCustomPlot::toPainter onto the same device. The layout tests use it to find labels
// that overlap, that are cut by a clip, or that were elided.
#pragma once

#include <QRectF>
#include <QString>
#include <QWidget>

#include <vector>

namespace pcplab::test
{

struct drawn_text {
    QString text;
    QRectF rect; // the whole text, in the rendered widget's coordinates
    QRectF visible; // the part inside the painter's clip (== rect when nothing was cut)
    bool cut() const; // some of it was clipped away (more than a pixel on a side)
    bool elided() const; // it ends in, or contains, the ellipsis that QFontMetrics::elidedText puts in
};

// The texts `w` and its children draw when painted at their current size (QCustomPlot children included).
std::vector<drawn_text> collect_drawn_text(QWidget* w);

// Two texts whose rectangles overlap by more than `slack` pixels in both directions.
struct text_overlap {
    drawn_text a, b;
};
std::vector<text_overlap> overlapping(const std::vector<drawn_text>& texts, double slack = 1.0);

// One line per text ("'text' at x,y wxh [cut] [elided]"), for failure messages.
QString describe(const std::vector<drawn_text>& texts);

} // namespace pcplab::test
