// What every view shares: colours derived from the palette (so dark and light themes both read well), the
// colour of a NUMA node, the A/B series colours, number formatting.
#pragma once

#include "ui/views/view.hpp"

#include <QColor>
#include <QPalette>
#include <QString>

#include <cstdint>

class QPainter;

namespace pcplab::ui
{

// True when the window background is dark (text drawn light): views pick contrasting fills from it.
bool is_dark(const QPalette& p);
// A distinct, readable hue per NUMA node (cycles after 8), adjusted for the theme.
QColor node_color(int node, const QPalette& p);
// The A and B series colours of the A/B overlays.
QColor side_color(int side, const QPalette& p);
// `c` halfway to the background, opaque: a second series in a side's colour. Opaque solid lines paint several
// times faster than dashed or translucent ones (pcplab_gui_bench, A/B frame of meta-1t-316).
QColor paler_color(const QColor& c, const QPalette& p);
// A categorical colour for series i (callers, orders, migratetypes), adjusted for the theme.
QColor series_color(int i, const QPalette& p);
// Text and grid colours.
QColor text_color(const QPalette& p);
QColor faint_color(const QPalette& p); // grid lines, lane backgrounds
QColor panel_color(const QPalette& p); // the empty part of a gauge: a shade lighter than faint_color
QColor warn_color(const QPalette& p); // thresholds, "over" markers

// "12.3 k", "4.1 M": compact counts for labels.
QString compact(double v);
// "1 page", "12.3 k pages": a count (compact()) with its noun, singular for exactly one.
QString count_of(double n, const QString& one, const QString& many);
// Nanoseconds as "850 ns", "12.4 us", "3.2 ms", "1.50 s".
QString format_ns(double ns);
// "Normal", "DMA32" ... and "node 1 Normal".
QString zone_label(int node, int zone);

// Draws a centred, faint message (empty states: "waiting for the first snapshot", "holds not kept").
void draw_message(QPainter& p, const QRect& r, const QString& text, const QPalette& pal);

} // namespace pcplab::ui
