// Rates in QCustomPlot: recomputed per frame from cumulative counters over the visible span, at most a couple
// of points per pixel, so the cost does not grow with the run's length. Contention comes from the history's
// time bins (model/activity_bins), exact from the hold records.
#include "ui/views/rates_view.hpp"

#include "ui/views/ab_summary.hpp"
#include "ui/views/batched_graph.hpp"
#include "ui/views/header_parts.hpp"
#include "ui/views/legend_item.hpp"
#include "ui/views/opaque_plot.hpp"
#include "ui/views/plot_style.hpp"
#include "ui/views/series.hpp"
#include "ui/views/view_style.hpp"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QVBoxLayout>

namespace pcplab::ui
{

namespace
{

enum rect_id { r_allocs, r_contention, r_cpu, r_score, nr_rects };

// The contention of one zone's lock per time bin, as a step line over [lo_s, hi_s]: each bin's share of time
// during which some CPU waited, in %, from the bin's start to the next.
void contention_series(const activity_bins& b, int zi, double lo_s, double hi_s, xy& out)
{
    out.clear();
    if (zi < 0 || b.bins() == 0) return;
    const double w = seconds(b.bin_ns());
    const auto first = static_cast<std::size_t>(std::max(0.0, std::floor(lo_s / w)));
    const std::size_t last = std::min(b.bins(), static_cast<std::size_t>(std::max(0.0, std::ceil(hi_s / w))) + 1);
    for (std::size_t i = first; i < last; ++i)
        out.add(static_cast<double>(i) * w, 100.0 * b.zone_contention_share(static_cast<std::size_t>(zi), i));
    if (!out.x.isEmpty()) out.add(seconds(b.now_ns()), out.y.back()); // the last bin holds until now
}

} // namespace

struct rates_view::plots {
    QCPAxisRect* rects[nr_rects] = {};
    QCPLegend* legends[nr_rects] = {};
    QCPItemRect* boot[nr_rects] = {};
    QCPItemText* boot_label = nullptr;
    QString labels[nr_rects]; // the y axes' titles, shown where they fit
    struct side_graphs {
        QCPGraph *pcp = nullptr, *zone = nullptr, *sys = nullptr, *user = nullptr, *score = nullptr;
        std::vector<QCPGraph*> contention; // one per zone shown
        std::vector<int> zi; // their zones' indices into the side's activity bins
    } s[2];
    std::vector<int> zone_nodes; // node of each contention graph (for the colour)
    bool ab = false;
};

rates_view::rates_view(QWidget* parent)
    : view(parent)
    , m_plot(make_opaque_plot(this))
    , m_picker(new zone_picker)
    , m_header(new header_line)
{
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    bar->addWidget(m_picker);
    bar->addWidget(m_header, 1);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->setSpacing(0);
    lay->addLayout(bar);
    lay->addWidget(m_plot, 1);
    m_plot->setAutoAddPlottableToLegend(false);
    m_plot->installEventFilter(this);
    m_plot->setToolTip(tr("Contention %: the share of time during which at least one CPU waited for the zone's lock "
                          "(the header's figure is the same over the whole run). Drag or wheel to move and zoom "
                          "the time axis, double click to follow the newest time."));
    m_follow = new time_follow(m_plot);
    clear_plot(m_plot);
    connect(m_picker, &zone_picker::chosen, this, [this] {
        m_gate.redraw();
        if (m_last.a && !m_in_show) show_frame(frame(m_last));
    });
}

rates_view::~rates_view() = default;

QString rates_view::layout_key(const frame& f) const
{
    return QStringLiteral("%1|%2|").arg(f.b ? 1 : 0).arg(QString::fromStdString(f.a->preset))
        + zones_layout_key(*f.a, f.b.get(), m_picker->choice());
}

void rates_view::rebuild(const frame& f)
{
    clear_plot(m_plot);
    m_p = std::make_unique<plots>();
    m_p->ab = f.b != nullptr;
    // Short, one-line axis titles: stacked plots leave each little height (the units are in the legends too).
    const QString labels[nr_rects] = {tr("pages / s"), tr("contention %"), tr("% CPU time"), tr("score / s")};
    for (int r = 0; r < nr_rects; ++r) {
        m_p->rects[r] = add_stacked_rect(m_plot);
        m_p->labels[r] = labels[r];
        m_p->rects[r]->axis(QCPAxis::atLeft)->setLabel(labels[r]);
        m_p->rects[r]->axis(QCPAxis::atBottom)->setTickLabels(r == nr_rects - 1);
        if (r == nr_rects - 1) m_p->rects[r]->axis(QCPAxis::atBottom)->setLabel(tr("virtual time (s)"));
        // The boot (deferred init) as a shaded band from t = 0, under the lines.
        auto* band = new QCPItemRect(m_plot);
        band->setLayer(QStringLiteral("grid"));
        band->setClipAxisRect(m_p->rects[r]);
        for (QCPItemPosition* pos : {band->topLeft, band->bottomRight}) {
            pos->setAxisRect(m_p->rects[r]);
            pos->setAxes(m_p->rects[r]->axis(QCPAxis::atBottom), m_p->rects[r]->axis(QCPAxis::atLeft));
            pos->setTypeX(QCPItemPosition::ptPlotCoords);
            pos->setTypeY(QCPItemPosition::ptAxisRectRatio);
        }
        band->setVisible(false);
        m_p->boot[r] = band;
    }
    m_p->boot_label = new QCPItemText(m_plot);
    m_p->boot_label->setClipAxisRect(m_p->rects[nr_rects - 1]);
    m_p->boot_label->position->setAxisRect(m_p->rects[nr_rects - 1]);
    m_p->boot_label->position->setAxes(
        m_p->rects[nr_rects - 1]->axis(QCPAxis::atBottom), m_p->rects[nr_rects - 1]->axis(QCPAxis::atLeft));
    m_p->boot_label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    m_p->boot_label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_p->boot_label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    m_p->boot_label->setText(tr("boot"));
    m_p->boot_label->setVisible(false);

    const sim::snapshot& a = *f.a;
    for (int zi : zones_of(a, m_picker->choice()))
        if (m_p->zone_nodes.size() < 8) m_p->zone_nodes.push_back(a.zone_at(zi).node);

    for (int r = 0; r < nr_rects; ++r) {
        auto* l = m_p->legends[r] = new QCPLegend;
        m_p->rects[r]->insetLayout()->addElement(l, Qt::AlignTop | Qt::AlignLeft);
        l->setLayer(QStringLiteral("legend"));
        l->setIconSize(16, 8);
        l->setRowSpacing(0);
        l->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        l->setWrap(4);
    }
    const int zone_type = m_picker->choice().zone;
    for (int side = 0; side < (m_p->ab ? 2 : 1); ++side) {
        const QString pre = m_p->ab ? (side == 0 ? QStringLiteral("A ") : QStringLiteral("B ")) : QString();
        const sim::snapshot& s = side == 0 ? a : *f.b;
        const history& h = side == 0 ? *f.ha : *f.hb;
        auto& g = m_p->s[side];
        auto graph = [&](int r, const QString& name) {
            QCPGraph* gr
                = add_batched_graph(m_p->rects[r]->axis(QCPAxis::atBottom), m_p->rects[r]->axis(QCPAxis::atLeft));
            gr->setName(pre + name);
            add_to_legend(gr, m_p->legends[r]);
            return gr;
        };
        g.pcp = graph(r_allocs, tr("allocations from PCP lists"));
        g.zone = graph(r_allocs, tr("pages from the zone (buddy)"));
        g.sys = graph(r_cpu, tr("sys"));
        g.user = graph(r_cpu, tr("user"));
        const std::string& unit = s.score.unit;
        g.score = graph(
            r_score, unit.empty() ? tr("workload score") : tr("workload score (%1)").arg(QString::fromStdString(unit)));
        for (int node : m_p->zone_nodes) {
            QCPGraph* c = graph(r_contention, zone_label(node, zone_type));
            c->setLineStyle(QCPGraph::lsStepLeft);
            g.contention.push_back(c);
            g.zi.push_back(h.bins().zone_index(node, zone_type));
        }
    }
    m_follow->attach_axes();
    restyle();
}

void rates_view::fill(const frame& f, int side)
{
    const history& h = side == 0 ? *f.ha : *f.hb;
    const auto& smp = h.samples();
    auto& g = m_p->s[side];
    QCPAxis* x = m_p->rects[0]->axis(QCPAxis::atBottom);
    const span sp = visible_span(smp, x->range().lower, x->range().upper);
    const std::size_t points = static_cast<std::size_t>(std::max(50, m_plot->width() / 2));
    xy d;
    rate_series(
        smp, sp, points, [](const sample& s) { return static_cast<double>(s.pcp_hits); }, 1.0, d);
    g.pcp->setData(d.x, d.y, true);
    rate_series(
        smp, sp, points, [](const sample& s) { return static_cast<double>(s.zone_allocs); }, 1.0, d);
    g.zone->setData(d.x, d.y, true);
    // CPU time shares of the time accounted in the bucket (sys + user + idle over all CPUs), as the header's
    // whole-run figure (key_numbers_of). Dividing by the elapsed time instead would overshoot: a CPU's clock
    // runs ahead of now() by the action it just charged.
    auto accounted = [](const sample& s) { return static_cast<double>(s.sys_ns + s.user_ns + s.idle_ns); };
    share_series(
        smp, sp, points, [](const sample& s) { return static_cast<double>(s.sys_ns); }, accounted, 100.0, d);
    g.sys->setData(d.x, d.y, true);
    share_series(
        smp, sp, points, [](const sample& s) { return static_cast<double>(s.user_ns); }, accounted, 100.0, d);
    g.user->setData(d.x, d.y, true);
    rate_series(
        smp, sp, points, [](const sample& s) { return s.score; }, 1.0, d);
    g.score->setData(d.x, d.y, true);
    for (std::size_t i = 0; i < g.contention.size(); ++i) {
        contention_series(h.bins(), g.zi[i], x->range().lower, x->range().upper, d);
        g.contention[i]->setData(d.x, d.y, true);
    }
}

void rates_view::show_frame(const frame& f)
{
    if (!f.a || !f.ha) return;
    m_last = f;
    m_in_show = true;
    m_picker->offer(*f.a);
    m_in_show = false;
    if (!m_gate.admit(f, isVisible())) return;
    const QString key = layout_key(f);
    if (!m_p || key != m_layout) {
        m_layout = key;
        rebuild(f);
    }
    m_follow->data_range(0, newest_time(f.ha, f.b ? f.hb : nullptr));
    fill(f, 0);
    if (f.b && f.hb) fill(f, 1);
    // The boot, when it took virtual time: shaded from 0 to its end in every plot.
    const double boot_end = seconds(std::max(f.ha->boot_end_ns(), f.hb ? f.hb->boot_end_ns() : 0));
    for (QCPItemRect* band : m_p->boot) {
        band->setVisible(boot_end > 0);
        band->topLeft->setCoords(0, 0);
        band->bottomRight->setCoords(boot_end, 1);
    }
    m_p->boot_label->setVisible(boot_end > 0);
    m_p->boot_label->position->setCoords(0, 1);
    fit_axes();
    m_header->set_parts(key_numbers_parts(*f.a, f.b.get()));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void rates_view::fit_axes()
{
    const QFontMetrics fm(m_plot->font());
    for (int r = 0; r < nr_rects; ++r) {
        QCPAxisRect* rect = m_p->rects[r];
        bool found = false;
        QCPRange yr;
        for (QCPGraph* g : rect->graphs()) {
            bool ok = false;
            const QCPRange gr = g->getValueRange(ok, QCP::sdBoth, rect->axis(QCPAxis::atBottom)->range());
            if (!ok) continue;
            yr = found ? QCPRange(std::min(yr.lower, gr.lower), std::max(yr.upper, gr.upper)) : gr;
            found = true;
        }
        if (!found || yr.upper <= 0) yr = QCPRange(0, 1); // nothing yet: a plain 0..1 axis, not 0..1e-9
        // The legend sits in a band at the top of the rect, above the highest point: the range is stretched so
        // that the data stays under the legend's bottom edge. A legend that would take more than half of a short
        // rect is left out (its names are in the plot's tooltip; the view shows them when larger).
        const int h = std::max(1, rect->height());
        QCPLegend* legend = m_p->legends[r];
        fit_legend_columns(legend, rect->width() - 12);
        const double legend_h = legend->minimumOuterSizeHint().height() + 6;
        legend->setVisible(legend_h <= 0.5 * h);
        const double free = legend->visible() ? std::max(0.35, 1.0 - legend_h / h) : 0.95;
        rect->axis(QCPAxis::atLeft)->setRange(0, yr.upper / free);
        // As many y ticks as the height takes without their labels touching; the title only where it fits.
        rect->axis(QCPAxis::atLeft)->ticker()->setTickCount(std::clamp(h / (3 * fm.height()), 1, 5));
        const QString& label = m_p->labels[r];
        rect->axis(QCPAxis::atLeft)->setLabel(fm.horizontalAdvance(label) + 4 <= h ? label : QString());
    }
}

double rates_view::contention_max() const
{
    double m = 0;
    if (!m_p) return m;
    for (const auto& g : m_p->s)
        for (QCPGraph* c : g.contention) {
            bool ok = false;
            const QCPRange r = c->getValueRange(ok);
            if (ok) m = std::max(m, r.upper);
        }
    return m;
}

int rates_view::contention_points(int side) const
{
    int n = 0;
    if (!m_p || side < 0 || side > 1) return n;
    for (QCPGraph* c : m_p->s[side].contention) n += c->dataCount();
    return n;
}

QString rates_view::header_text() const
{
    return m_header->parts().join(QStringLiteral(" · "));
}

void rates_view::reset()
{
    m_gate.reset();
    m_last = frame{};
    m_p.reset();
    m_layout.clear();
    clear_plot(m_plot);
    m_header->set_parts({});
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void rates_view::seek_to(qint64 t_ns)
{
    m_follow->seek(seconds(t_ns));
    m_gate.redraw(); // refill the visible span at the next frame
}

void rates_view::restyle()
{
    const QPalette& pal = palette();
    style_plot(m_plot, pal);
    if (!m_p) return;
    for (int side = 0; side < 2; ++side) {
        auto& g = m_p->s[side];
        if (!g.pcp) continue;
        // In A/B the side's colour tells A from B, and the second series of a rect is the same colour, paler.
        // Solid lines only: dashed and dotted ones cost several times as much to paint (A/B frame of
        // meta-1t-316 in pcplab_gui_bench: rates 10.3 ms with dashes, 2.7 ms without).
        auto pen = [&](int series, bool second = false) {
            QColor c = m_p->ab ? side_color(side, pal) : series_color(series, pal);
            if (m_p->ab && second) c = paler_color(c, pal);
            return QPen(c, 2);
        };
        g.pcp->setPen(pen(0));
        g.zone->setPen(pen(1, true));
        g.sys->setPen(pen(3));
        g.user->setPen(pen(2, true));
        g.score->setPen(pen(4));
        // A/B: the side's colour, paler for the second node's zone and on (the legend names them).
        for (std::size_t i = 0; i < g.contention.size(); ++i)
            g.contention[i]->setPen(
                QPen(m_p->ab ? (i == 0 ? side_color(side, pal) : paler_color(side_color(side, pal), pal))
                             : node_color(m_p->zone_nodes[i], pal),
                    2));
    }
    QColor band = series_color(2, pal);
    band.setAlpha(is_dark(pal) ? 45 : 35);
    for (QCPItemRect* b : m_p->boot) {
        b->setPen(Qt::NoPen);
        b->setBrush(band);
    }
    m_p->boot_label->setColor(text_color(pal));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void rates_view::showEvent(QShowEvent* e)
{
    view::showEvent(e);
    if (m_gate.pending().a) show_frame(frame(m_gate.pending()));
}

bool rates_view::eventFilter(QObject* o, QEvent* e)
{
    // A new height changes how many ticks and which titles fit.
    if (o == m_plot && e->type() == QEvent::Resize && m_p) {
        show_last_again();
    }
    return view::eventFilter(o, e);
}

// The last frame drawn again, once the events in flight have run (its layout follows a new size or font).
void rates_view::show_last_again()
{
    m_gate.redraw();
    if (m_last.a && isVisible())
        QMetaObject::invokeMethod(
            this, [this] { show_frame(frame(m_last)); }, Qt::QueuedConnection);
}

void rates_view::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::FontChange) restyle();
    if (e->type() == QEvent::FontChange && m_p) {
        // Ticks, titles and legend columns follow the font, even when no new frame comes (a paused run).
        show_last_again();
    }
    view::changeEvent(e);
}

} // namespace pcplab::ui
