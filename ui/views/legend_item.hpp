// Legend entries that lay their text out once, not on every replot.
#pragma once

class QCPAbstractPlottable;
class QCPAbstractLegendItem;
class QCPLegend;
class QString;

namespace pcplab::ui
{

// Like plottable->addToLegend(legend). Stock QCPPlottableLegendItem measures its text with
// QFontMetrics::boundingRect (a full text layout) twice per replot, once for the plot's layout and once to
// draw it, and then shapes it again in drawText: about 0.4 ms per A/B frame of the limits and rates views
// together. This item keeps the measured size and the shaped text (QStaticText) until the name or font
// changes, and draws the same icon, text and border.
void add_to_legend(QCPAbstractPlottable* plottable, QCPLegend* legend);

// One entry for A's and B's line of a kind in A/B: A's icon, then B's, then `text` ("A, B: high"). Seven entries
// where there were fourteen, so every kind fits a small screen's legend; the item's plottable() is A's and
// second() B's.
void add_pair_to_legend(QCPAbstractPlottable* a, QCPAbstractPlottable* b, const QString& text, QCPLegend* legend);

// B's plottable of an entry that add_pair_to_legend made, else null (for the tests).
QCPAbstractPlottable* second_plottable(const QCPAbstractLegendItem* item);

// The width an entry of `icons` icons and `text` takes in `legend`, margins included.
int legend_entry_width(const QCPLegend* legend, const QString& text, int icons);

} // namespace pcplab::ui
