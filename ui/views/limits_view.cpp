// Batch and high over time in QCustomPlot: stacked axis rects (one per zone), step graphs fed incrementally
// from the history, markers as scatter graphs and impulse graphs (cheap even with thousands of events).
#include "views/limits_view.hpp"

#include "views/batched_graph.hpp"
#include "views/legend_item.hpp"
#include "views/limits_series.hpp"
#include "views/opaque_plot.hpp"
#include "views/plot_style.hpp"
#include "views/view_style.hpp"

#include "mm/mm_types.hpp"

#include <qcustomplot.h>

#include <QHelpEvent>
#include <QPainter>
#include <QPixmap>
#include <QToolTip>
#include <QVBoxLayout>

namespace pcplab::ui
{

namespace
{

// An ssDisc scatter of `size` pixels, drawn once: a CPU's high changes thousands of times per zone, and
// QCustomPlot would fill an antialiased ellipse per point (about 1 ms per A/B frame of meta-1t-316).
QPixmap disc_pixmap(const QColor& c, double size)
{
    const int side = static_cast<int>(std::ceil(size)) + 3; // the disc, its 1 px outline and a margin
    QPixmap pm(side, side);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(c));
    p.setBrush(c);
    p.drawEllipse(QPointF(side / 2.0, side / 2.0), size / 2, size / 2); // as QCPScatterStyle::drawShape does
    return pm;
}

} // namespace

struct limits_view::zone_plot {
    int node = 0, zone = 0;
    QCPAxisRect* rect = nullptr;
    limits_series s[2];
    QCPItemText* note = nullptr;
};

limits_view::limits_view(QWidget* parent)
    : view(parent)
    , m_plot(make_opaque_plot(this))
{
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(m_plot);
    m_plot->setAutoAddPlottableToLegend(false);
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->installEventFilter(this);
    m_follow = new time_follow(m_plot);
    clear_plot(m_plot);
    style_plot(m_plot, palette());
}

limits_view::~limits_view() = default;

QString limits_view::layout_key(const frame& f) const
{
    const sim::snapshot& a = *f.a;
    const int zi = selected_zone_index(a, f.selected_node, f.selected_zone);
    QString key = QStringLiteral("%1|%2|").arg(f.b ? 1 : 0).arg(a.era.at_least(6, 7) ? 1 : 0);
    if (zi < 0) return key;
    const int type = a.zones[static_cast<std::size_t>(zi)].zone;
    for (const auto& z : a.zones)
        if (z.zone == type) key += QStringLiteral("%1.%2,").arg(z.node).arg(z.zone);
    return key;
}

void limits_view::rebuild_layout(const frame& f)
{
    m_zones.clear();
    m_legend = nullptr;
    clear_plot(m_plot);
    m_samples[0].reset();
    m_samples[1].reset();
    m_events[0].reset();
    m_events[1].reset();
    const sim::snapshot& a = *f.a;
    const int zi = selected_zone_index(a, f.selected_node, f.selected_zone);
    if (zi < 0) return;
    const int type = a.zones[static_cast<std::size_t>(zi)].zone;
    const bool ab = f.b != nullptr;
    const bool tuned = a.era.at_least(6, 7);
    m_tuned = tuned;
    // The legend has its own row above the plots, in lines of four (inside a plot it covered the boot note).
    // A legend limits the width of its layout column to its own, so it shares that row with a spacer.
    auto* row = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(0, 0, row);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    auto* legend = m_legend = new QCPLegend;
    row->addElement(0, 0, legend);
    row->addElement(0, 1, new QCPLayoutElement(m_plot));
    row->setColumnStretchFactor(0, 0.001);
    legend->setLayer(QStringLiteral("legend")); // needs the plot, which addElement gave it
    legend->setIconSize(18, 8);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(4);
    for (const auto& z : a.zones) {
        if (z.zone != type || m_zones.size() >= 8) continue;
        auto zp = std::make_unique<zone_plot>();
        zp->node = z.node;
        zp->zone = z.zone;
        zp->rect = add_stacked_rect(m_plot);
        QCPAxis* x = zp->rect->axis(QCPAxis::atBottom);
        QCPAxis* y = zp->rect->axis(QCPAxis::atLeft);
        QCPAxis* y2 = zp->rect->axis(QCPAxis::atRight); // hidden 0..1 axis for the full-height marker lines
        y->setScaleType(QCPAxis::stLogarithmic);
        y->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        y->setLabel(zone_label(z.node, z.zone) + tr("\npages (log)"));
        y2->setRange(0, 1);
        x->setLabel(tr("virtual time (s)"));
        for (int side = 0; side < (ab ? 2 : 1); ++side) {
            limits_series& ss = zp->s[side];
            const sim::snapshot& s = side == 0 ? a : *f.b;
            ss.zi = s.zone_index(z.node, z.zone);
            auto graph = [&](QCPAxis* vy) {
                QCPGraph* g = add_batched_graph(x, vy);
                g->setLineStyle(QCPGraph::lsStepLeft);
                g->setAntialiased(false); // axis-aligned steps: antialiasing only costs time
                g->setAdaptiveSampling(true);
                return g;
            };
            ss.g_lo = graph(y);
            ss.g_hi = graph(y);
            ss.g_hi->setChannelFillGraph(ss.g_lo);
            ss.g_high = graph(y);
            ss.g_batch = graph(y);
            ss.g_hmin = graph(y);
            ss.g_hmax = graph(y);
            ss.g_hmin->setVisible(tuned);
            ss.g_hmax->setVisible(tuned);
            ss.g_hi->setName(side_prefix(ab, side) + tr("per-CPU high (band over CPUs)"));
            ss.g_high->setName(side_prefix(ab, side) + tr("high"));
            ss.g_batch->setName(side_prefix(ab, side) + tr("batch"));
            ss.g_hmin->setName(side_prefix(ab, side) + tr("high_min / high_max"));
            ss.g_highm = graph(y);
            ss.g_highm->setLineStyle(QCPGraph::lsNone);
            ss.g_highm->setName(side_prefix(ab, side) + tr("a CPU's high changed"));
            ss.g_limit = graph(y);
            ss.g_limit->setLineStyle(QCPGraph::lsNone);
            ss.g_limit->setName(side_prefix(ab, side) + tr("zone limit changed"));
            ss.g_vline = graph(y2);
            ss.g_vline->setLineStyle(QCPGraph::lsImpulse);
            ss.g_vline->setName(side_prefix(ab, side) + tr("deferred init / reclaim / switch"));
        }
        zp->note = new QCPItemText(m_plot);
        zp->note->setClipToAxisRect(true);
        zp->note->setClipAxisRect(zp->rect);
        zp->note->position->setType(QCPItemPosition::ptAxisRectRatio);
        zp->note->position->setAxisRect(zp->rect);
        zp->note->position->setCoords(0.02, 0.03); // clear of the marker line at t = 0
        zp->note->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        zp->note->setTextAlignment(Qt::AlignLeft);
        if (m_zones.empty()) {
            for (int side = 0; side < (ab ? 2 : 1); ++side) {
                limits_series& ss = zp->s[side];
                for (QCPGraph* g : {ss.g_batch, ss.g_high, ss.g_limit, ss.g_vline}) add_to_legend(g, legend);
                // Per-CPU highs differ only with auto-tuning (v6.7+); before, they all equal the zone's high.
                if (tuned)
                    for (QCPGraph* g : {ss.g_hmin, ss.g_hi, ss.g_highm}) add_to_legend(g, legend);
            }
        }
        m_zones.push_back(std::move(zp));
    }
    fit_legend_columns(legend, m_plot->width() - 20);
    m_follow->attach_axes();
    restyle();
}

void limits_view::feed(const frame& f, int side)
{
    const history& h = side == 0 ? *f.ha : *f.hb;
    const bool ab = f.b != nullptr;
    const auto& samples = h.samples();
    const sample_cursor::news ns = m_samples[side].take(h);
    if (ns.rebuild)
        for (auto& zp : m_zones) zp->s[side].clear_samples();
    for (std::size_t i = ns.first; i < samples.size(); ++i) {
        const sample& smp = samples[i];
        const double t = seconds(smp.t_ns);
        for (auto& zp : m_zones) {
            limits_series& ss = zp->s[side];
            if (ss.zi < 0 || static_cast<std::size_t>(ss.zi) >= smp.zones.size()) continue;
            ss.add_sample(t, smp.zones[static_cast<std::size_t>(ss.zi)]);
        }
    }

    const auto& events = h.events();
    const sample_cursor::news ne = m_events[side].take(h, h.events_total(), events.size());
    if (ne.rebuild)
        for (auto& zp : m_zones) zp->s[side].clear_events();
    const double first_t = samples.empty() ? 0 : seconds(samples.front().t_ns);
    for (std::size_t i = ne.first; i < events.size(); ++i) {
        const sim::sim_event& e = events[i];
        for (auto& zp : m_zones) {
            const bool this_zone = e.node == zp->node && e.zone == zp->zone;
            const bool this_node = e.node < 0 || (e.node == zp->node && e.zone < 0);
            zp->s[side].add_event(e, this_zone, this_node, {m_tuned, ab, side, first_t});
        }
    }

    for (auto& zp : m_zones) zp->s[side].push();
}

void limits_view::show_frame(const frame& f)
{
    if (!m_gate.admit(f, isVisible())) return;
    const QString key = layout_key(f);
    if (key != m_layout) {
        m_layout = key;
        rebuild_layout(f);
    }
    feed(f, 0);
    if (f.b && f.hb) feed(f, 1);

    // From virtual time 0 (boot's events are there) to the newest sample.
    const double newest = newest_time(f.ha, f.b ? f.hb : nullptr);
    m_follow->data_range(-0.01 * newest, newest); // a margin so that the markers at t = 0 show whole
    for (auto& zp : m_zones) {
        double ymin = std::min(zp->s[0].ymin, zp->s[1].ymin), ymax = std::max(zp->s[0].ymax, zp->s[1].ymax);
        if (!(ymax > 0)) {
            ymin = 1;
            ymax = 100;
        }
        // Headroom above the highest line for the boot note (top left).
        zp->rect->axis(QCPAxis::atLeft)->setRange(std::max(0.5, ymin / 2), ymax * 12);
        QStringList notes;
        for (const limits_series& ss : zp->s)
            for (const auto& [cause, changes] : ss.boot_notes)
                notes << tr("%1: %2").arg(cause, changes.join(QStringLiteral(", ")));
        zp->note->setText(notes.isEmpty() ? QString() : tr("At boot (t = 0):\n") + notes.join(QStringLiteral("\n")));
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void limits_view::reset()
{
    m_gate.reset();
    m_layout.clear();
    m_zones.clear();
    m_legend = nullptr;
    clear_plot(m_plot);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void limits_view::seek_to(qint64 t_ns)
{
    m_follow->seek(seconds(t_ns));
}

void limits_view::restyle()
{
    const QPalette& pal = palette();
    style_plot(m_plot, pal);
    const bool ab = m_zones.empty() ? false : m_zones.front()->s[1].g_batch != nullptr;
    for (auto& zp : m_zones) {
        for (int side = 0; side < 2; ++side) {
            limits_series& ss = zp->s[side];
            if (!ss.g_batch) continue;
            const QColor c_high = ab ? side_color(side, pal) : series_color(0, pal);
            // In A/B both lines have the side's colour; batch is the paler one (solid: dashes paint slowly).
            const QColor c_batch = ab ? paler_color(side_color(side, pal), pal) : series_color(1, pal);
            ss.g_high->setPen(QPen(c_high, 2));
            ss.g_batch->setPen(QPen(c_batch, 2));
            ss.g_hmin->setPen(QPen(c_high, 1, Qt::DotLine));
            ss.g_hmax->setPen(QPen(c_high, 1, Qt::DotLine));
            QColor band = c_high;
            band.setAlpha(is_dark(pal) ? 70 : 45);
            ss.g_lo->setPen(Qt::NoPen);
            ss.g_hi->setPen(Qt::NoPen);
            ss.g_hi->setBrush(band); // filled down to g_lo (channel fill)
            QColor dots = series_color(4, pal);
            dots.setAlpha(170);
            ss.g_highm->setScatterStyle(QCPScatterStyle(disc_pixmap(dots, 3)));
            ss.g_highm->setPen(QPen(dots));
            ss.g_limit->setScatterStyle(
                QCPScatterStyle(side == 0 ? QCPScatterStyle::ssDiamond : QCPScatterStyle::ssTriangle, text_color(pal),
                    warn_color(pal), 10));
            ss.g_limit->setPen(QPen(warn_color(pal)));
            ss.g_vline->setPen(QPen(series_color(2, pal), 1.5, Qt::DashLine));
        }
        if (zp->note) {
            zp->note->setColor(text_color(pal));
            QFont fnt = font();
            fnt.setPointSizeF(fnt.pointSizeF() * 0.9);
            zp->note->setFont(fnt);
        }
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void limits_view::showEvent(QShowEvent* e)
{
    view::showEvent(e);
    if (m_gate.pending().a) show_frame(frame(m_gate.pending()));
}

void limits_view::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::FontChange) restyle();
    view::changeEvent(e);
}

QString limits_view::marker_tooltip_at(const QPoint& pos) const
{
    QCPAxisRect* r = m_plot->axisRectAt(pos);
    if (!r) return {};
    for (const auto& zp : m_zones) {
        if (zp->rect != r) continue;
        QCPAxis* x = r->axis(QCPAxis::atBottom);
        QCPAxis* y = r->axis(QCPAxis::atLeft);
        double best = 7; // pixels
        QString text;
        for (const limits_series& ss : zp->s)
            for (const limits_marker& m : ss.markers) {
                const double dx = std::abs(x->coordToPixel(m.t) - pos.x());
                if (dx > best) continue;
                // A point marker under the cursor wins over a full-height line through it.
                const double d = std::isnan(m.y) ? dx + 3 : std::hypot(dx, y->coordToPixel(m.y) - pos.y());
                if (d < best) {
                    best = d;
                    text = m.text;
                }
            }
        return text;
    }
    return {};
}

QString limits_view::zone_note(int i) const
{
    if (i < 0 || i >= static_cast<int>(m_zones.size()) || !m_zones[static_cast<std::size_t>(i)]->note) return {};
    return m_zones[static_cast<std::size_t>(i)]->note->text();
}

QPoint limits_view::first_limit_marker(int i) const
{
    if (i < 0 || i >= static_cast<int>(m_zones.size())) return {-1, -1};
    const zone_plot& zp = *m_zones[static_cast<std::size_t>(i)];
    for (const limits_marker& m : zp.s[0].markers)
        if (!std::isnan(m.y))
            return {static_cast<int>(zp.rect->axis(QCPAxis::atBottom)->coordToPixel(m.t)),
                static_cast<int>(zp.rect->axis(QCPAxis::atLeft)->coordToPixel(m.y))};
    return {-1, -1};
}

bool limits_view::eventFilter(QObject* o, QEvent* e)
{
    if (o == m_plot && e->type() == QEvent::Resize && m_legend) fit_legend_columns(m_legend, m_plot->width() - 20);
    if (o == m_plot && e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        const QString t = marker_tooltip_at(he->pos());
        if (t.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(he->globalPos(), t, m_plot);
        return true;
    }
    return view::eventFilter(o, e);
}

} // namespace pcplab::ui
