// QCustomPlot theming and the shared, follow-the-newest virtual-time axis.
#include "ui/views/plot_style.hpp"

#include "ui/views/view_style.hpp"

#include <qcustomplot.h>

#include <algorithm>

namespace pcplab::ui
{

namespace
{

void style_axis(QCPAxis* a, const QPalette& pal)
{
    const QColor fg = text_color(pal);
    a->setBasePen(QPen(fg, 1));
    a->setTickPen(QPen(fg, 1));
    a->setSubTickPen(QPen(fg, 1));
    a->setTickLabelColor(fg);
    a->setLabelColor(fg);
    a->grid()->setPen(QPen(faint_color(pal), 1, Qt::DotLine));
    a->grid()->setSubGridVisible(false);
    a->grid()->setZeroLinePen(Qt::NoPen);
}

} // namespace

void style_plot(QCustomPlot* plot, const QPalette& pal)
{
    // Fast polylines: a replot every frame must stay cheap (see the frame benchmark).
    plot->setPlottingHint(QCP::phFastPolylines, true);
    plot->setBackground(pal.color(QPalette::Window));
    for (QCPAxisRect* r : plot->axisRects()) {
        // No fill of its own: the plot's background (the same colour) is already under every axis rect.
        r->setBackground(Qt::NoBrush);
        for (QCPAxis* a : r->axes()) style_axis(a, pal);
        // A legend inside an axis rect, if any
        for (int i = 0; i < r->insetLayout()->elementCount(); ++i)
            if (auto* l = qobject_cast<QCPLegend*>(r->insetLayout()->elementAt(i))) {
                QColor bg = pal.color(QPalette::Window);
                bg.setAlpha(210);
                l->setBrush(bg);
                l->setBorderPen(QPen(faint_color(pal)));
                l->setTextColor(text_color(pal));
            }
    }
    for (int i = 0; i < plot->plotLayout()->elementCount(); ++i)
        if (auto* t = qobject_cast<QCPTextElement*>(plot->plotLayout()->elementAt(i))) t->setTextColor(text_color(pal));
    follow_font(plot);
}

void follow_font(QCustomPlot* plot)
{
    const QFont f = plot->font();
    for (QCPAxisRect* r : plot->axisRects())
        for (QCPAxis* a : r->axes()) {
            if (a->tickLabelFont() != f) a->setTickLabelFont(f);
            if (a->labelFont() != f) a->setLabelFont(f);
        }
    // Legends and titles anywhere in the layout (a legend may sit in a row of its own, or in an axis rect).
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
        if (auto* l = qobject_cast<QCPLegend*>(e)) {
            if (l->font() != f) l->setFont(f); // and every item's
        } else if (auto* t = qobject_cast<QCPTextElement*>(e)) {
            if (t->font() != f) t->setFont(f);
        }
    }
}

QCPAxisRect* add_stacked_rect(QCustomPlot* plot)
{
    auto* r = new QCPAxisRect(plot);
    plot->plotLayout()->addElement(plot->plotLayout()->rowCount(), 0, r);
    r->setupFullAxesBox(false);
    r->axis(QCPAxis::atTop)->setVisible(false);
    r->axis(QCPAxis::atRight)->setVisible(false);
    r->setRangeDrag(Qt::Horizontal);
    r->setRangeZoom(Qt::Horizontal);
    // Left and right margins shared across the stack, so that time lines up in every rect.
    auto* group = plot->findChild<QCPMarginGroup*>(QStringLiteral("pcplab_time_margins"));
    if (!group) {
        group = new QCPMarginGroup(plot);
        group->setObjectName(QStringLiteral("pcplab_time_margins"));
    }
    r->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    r->setMinimumMargins(QMargins(8, 4, 8, 4));
    return r;
}

void clear_plot(QCustomPlot* plot)
{
    plot->clearItems();
    plot->clearGraphs();
    plot->clearPlottables();
    plot->plotLayout()->clear();
    plot->plotLayout()->simplify();
}

void fit_legend_columns(QCPLegend* legend, int width)
{
    // Measured here: an item's own size hint is not up to date before the legend is laid out once.
    const QFontMetrics fm(legend->font());
    int widest = 1;
    for (int i = 0; i < legend->itemCount(); ++i) {
        auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i)); // null: an empty cell of the grid
        if (!item) continue;
        const QString text = item->plottable()->name();
        const QMargins m = item->margins();
        widest = std::max(widest,
            fm.horizontalAdvance(text) + legend->iconSize().width() + legend->iconTextPadding() + m.left() + m.right());
    }
    const int columns = std::max(1, (width + legend->columnSpacing()) / (widest + legend->columnSpacing()));
    if (columns == legend->wrap()) return;
    legend->setWrap(columns);
    legend->setFillOrder(legend->fillOrder(), true); // re-lays the items out with the new wrap
}

time_follow::time_follow(QCustomPlot* plot)
    : QObject(plot)
    , m_plot(plot)
{
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    connect(plot, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) { set_following(true); });
    connect(plot, &QCustomPlot::mousePress, this, [this](QMouseEvent*) { m_follow = false; });
    connect(plot, &QCustomPlot::mouseWheel, this, [this](QWheelEvent*) { m_follow = false; });
}

void time_follow::attach_axes()
{
    for (QCPAxisRect* r : m_plot->axisRects()) {
        QCPAxis* x = r->axis(QCPAxis::atBottom);
        connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange& rg) {
            if (m_applying) return;
            apply(rg.lower, rg.upper); // user drag or zoom in one rect moves the others
        });
    }
    apply(m_lo, m_hi);
}

void time_follow::data_range(double lo, double hi)
{
    if (hi - lo < 1e-3) hi = lo + 1e-3; // at least 1 ms of virtual time
    m_data_lo = lo;
    m_data_hi = hi;
    if (m_follow) apply(lo, hi);
}

void time_follow::seek(double t)
{
    m_follow = false;
    double span = m_hi - m_lo;
    if (span <= 0) span = 1e-3;
    apply(t - span / 2, t + span / 2);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void time_follow::set_following(bool f)
{
    m_follow = f;
    if (f) apply(m_data_lo, m_data_hi);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void time_follow::apply(double lo, double hi)
{
    m_lo = lo;
    m_hi = hi;
    m_applying = true;
    for (QCPAxisRect* r : m_plot->axisRects()) r->axis(QCPAxis::atBottom)->setRange(lo, hi);
    m_applying = false;
}

} // namespace pcplab::ui
