// QCustomPlot plumbing shared by the time-series views: palette colours on every axis (recomputed on
// QEvent::PaletteChange), a virtual-time x axis shared by stacked axis rects, and "follow" — the x range
// tracks the newest sample until the user drags, zooms or an event is selected; a double click follows again.
#pragma once

#include <QObject>
#include <QPalette>

class QCustomPlot;
class QCPAxis;
class QCPAxisRect;
class QCPLegend;

namespace pcplab::ui
{

// Colours of backgrounds, axes, ticks, grids and legends from the palette, and the plot's font on every axis,
// legend and text element (follow_font).
void style_plot(QCustomPlot* plot, const QPalette& pal);
// The plot widget's current font on its axes, legends and text elements. QCustomPlot copies the font once, when
// an element is made, and measures with that copy, while the painter draws it resolved against the widget's
// font: after the application font changes (presenter mode) the text is drawn large in room measured small,
// cut and overlapping, until the element is made again.
void follow_font(QCustomPlot* plot);
// An axis rect under the previous ones (the plot's layout is one column), with its legend-free defaults.
QCPAxisRect* add_stacked_rect(QCustomPlot* plot);
// Removes every axis rect, graph and item (a layout change: different zones).
void clear_plot(QCustomPlot* plot);
// As many legend columns (filled row by row) as fit in `width` pixels, at least one.
void fit_legend_columns(QCPLegend* legend, int width);

// The x range of every axis rect of a plot, in seconds of virtual time.
class time_follow : public QObject
{
    Q_OBJECT
public:
    explicit time_follow(QCustomPlot* plot);
    // Call after the plot's axis rects changed: their x axes are kept equal (drag/zoom in one moves all).
    void attach_axes();
    // The data now spans [lo, hi] seconds: when following, show it all (with a minimum width).
    void data_range(double lo, double hi);
    // Centre `t` (seconds) and stop following.
    void seek(double t);
    bool following() const { return m_follow; }
    void set_following(bool f);

private:
    void apply(double lo, double hi);
    QCustomPlot* m_plot;
    bool m_follow = true;
    bool m_applying = false;
    double m_lo = 0, m_hi = 1;
    double m_data_lo = 0, m_data_hi = 1e-3;
};

} // namespace pcplab::ui
