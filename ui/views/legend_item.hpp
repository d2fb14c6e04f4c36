// Legend entries that lay their text out once, not on every replot.
#pragma once

class QCPAbstractPlottable;
class QCPLegend;

namespace pcplab::ui
{

// Like plottable->addToLegend(legend). Stock QCPPlottableLegendItem measures its text with
// QFontMetrics::boundingRect (a full text layout) twice per replot, once for the plot's layout and once to
// draw it, and then shapes it again in drawText: about 0.4 ms per A/B frame of the limits and rates views
// together. This item keeps the measured size and the shaped text (QStaticText) until the name or font
// changes, and draws the same icon, text and border.
void add_to_legend(QCPAbstractPlottable* plottable, QCPLegend* legend);

} // namespace pcplab::ui
