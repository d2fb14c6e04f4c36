// Rates in QCustomPlot: recomputed per frame from cumulative counters over the visible span, at most a couple
// of points per pixel, so the cost does not grow with the run's length.
#include "views/rates_view.hpp"

#include "views/ab_summary.hpp"
#include "views/batched_graph.hpp"
#include "views/legend_item.hpp"
#include "views/opaque_plot.hpp"
#include "views/plot_style.hpp"
#include "views/series.hpp"
#include "views/view_style.hpp"

#include <qcustomplot.h>

#include <QVBoxLayout>

namespace pcplab::ui
{

namespace
{

enum rect_id { r_allocs, r_contention, r_cpu, r_score, nr_rects };

} // namespace

struct rates_view::plots {
    QCPTextElement* header = nullptr;
    QCPAxisRect* rects[nr_rects] = {};
    struct side_graphs {
        QCPGraph *pcp = nullptr, *zone = nullptr, *sys = nullptr, *user = nullptr, *score = nullptr;
        std::vector<QCPGraph*> contention; // one per zone shown
        std::vector<int> zi; // their indices into the sample zones
    } s[2];
    std::vector<int> zone_nodes; // node of each contention graph (for the colour)
    bool ab = false;
};

rates_view::rates_view(QWidget* parent)
    : view(parent)
    , m_plot(make_opaque_plot(this))
{
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(m_plot);
    m_plot->setAutoAddPlottableToLegend(false);
    m_follow = new time_follow(m_plot);
    clear_plot(m_plot);
}

rates_view::~rates_view() = default;

void rates_view::rebuild(const frame& f)
{
    clear_plot(m_plot);
    m_p = std::make_unique<plots>();
    m_p->ab = f.b != nullptr;
    m_p->header = new QCPTextElement(m_plot, QString());
    m_plot->plotLayout()->addElement(0, 0, m_p->header);
    const QString labels[nr_rects]
        = {tr("pages / s"), tr("zone->lock\ncontention %"), tr("% of CPU time"), tr("score / s")};
    for (int r = 0; r < nr_rects; ++r) {
        m_p->rects[r] = add_stacked_rect(m_plot);
        m_p->rects[r]->axis(QCPAxis::atLeft)->setLabel(labels[r]);
        m_p->rects[r]->axis(QCPAxis::atBottom)->setTickLabels(r == nr_rects - 1);
        if (r == nr_rects - 1) m_p->rects[r]->axis(QCPAxis::atBottom)->setLabel(tr("virtual time (s)"));
    }
    const sim::snapshot& a = *f.a;
    const int sel = selected_zone_index(a, f.selected_node, f.selected_zone);
    const int type = sel >= 0 ? a.zones[static_cast<std::size_t>(sel)].zone : -1;
    for (const auto& z : a.zones)
        if (z.zone == type && m_p->zone_nodes.size() < 8) m_p->zone_nodes.push_back(z.node);

    QCPLegend* legends[nr_rects] = {};
    for (int r = 0; r < nr_rects; ++r) {
        legends[r] = new QCPLegend;
        m_p->rects[r]->insetLayout()->addElement(legends[r], Qt::AlignTop | Qt::AlignLeft);
        legends[r]->setLayer(QStringLiteral("legend"));
        legends[r]->setIconSize(16, 8);
        legends[r]->setRowSpacing(0);
        legends[r]->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        legends[r]->setWrap(4);
    }
    for (int side = 0; side < (m_p->ab ? 2 : 1); ++side) {
        const QString pre = m_p->ab ? (side == 0 ? QStringLiteral("A ") : QStringLiteral("B ")) : QString();
        auto& g = m_p->s[side];
        auto graph = [&](int r, const QString& name) {
            QCPGraph* gr
                = add_batched_graph(m_p->rects[r]->axis(QCPAxis::atBottom), m_p->rects[r]->axis(QCPAxis::atLeft));
            gr->setName(pre + name);
            add_to_legend(gr, legends[r]);
            return gr;
        };
        g.pcp = graph(r_allocs, tr("allocations from PCP lists"));
        g.zone = graph(r_allocs, tr("pages from the zone (buddy)"));
        g.sys = graph(r_cpu, tr("sys"));
        g.user = graph(r_cpu, tr("user"));
        const std::string& unit = (side == 0 ? a : *f.b).score.unit;
        g.score = graph(
            r_score, unit.empty() ? tr("workload score") : tr("workload score (%1)").arg(QString::fromStdString(unit)));
        const sim::snapshot& s = side == 0 ? a : *f.b;
        for (int node : m_p->zone_nodes) {
            g.contention.push_back(graph(r_contention, zone_label(node, type)));
            g.zi.push_back(s.zone_index(node, type));
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
    // CPU time shares of the time accounted in the bucket (sys + user + idle over all CPUs). Dividing by the
    // elapsed time instead would overshoot: a CPU's clock runs ahead of now() by the action it just charged.
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
        const int zi = g.zi[i];
        if (zi < 0) continue;
        level_series(
            smp, sp, points,
            [zi](const sample& s) {
                return static_cast<std::size_t>(zi) < s.zones.size()
                    ? s.zones[static_cast<std::size_t>(zi)].contention_pct_recent
                    : 0.0;
            },
            d);
        g.contention[i]->setData(d.x, d.y, true);
    }
}

void rates_view::show_frame(const frame& f)
{
    if (!m_gate.admit(f, isVisible())) return;
    const int sel = selected_zone_index(*f.a, f.selected_node, f.selected_zone);
    const QString key = QStringLiteral("%1|%2|%3|%4")
                            .arg(f.b ? 1 : 0)
                            .arg(sel >= 0 ? f.a->zones[static_cast<std::size_t>(sel)].zone : -1)
                            .arg(f.a->zones.size())
                            .arg(QString::fromStdString(f.a->preset));
    if (!m_p || key != m_layout) {
        m_layout = key;
        rebuild(f);
    }
    m_follow->data_range(0, newest_time(f.ha, f.b ? f.hb : nullptr));
    fill(f, 0);
    if (f.b && f.hb) fill(f, 1);
    for (QCPAxisRect* r : m_p->rects) {
        bool found = false;
        QCPRange yr;
        for (QCPGraph* g : r->graphs()) {
            bool ok = false;
            const QCPRange gr = g->getValueRange(ok, QCP::sdBoth, r->axis(QCPAxis::atBottom)->range());
            if (!ok) continue;
            yr = found ? QCPRange(std::min(yr.lower, gr.lower), std::max(yr.upper, gr.upper)) : gr;
            found = true;
        }
        if (!found || yr.upper <= 0) yr = QCPRange(0, 1); // nothing yet: a plain 0..1 axis, not 0..1e-9
        // Room above the data for the legend.
        r->axis(QCPAxis::atLeft)->setRange(0, yr.upper * 1.45);
    }
    m_p->header->setText(key_numbers_text(*f.a, f.b.get()));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString rates_view::header_text() const
{
    return m_p && m_p->header ? m_p->header->text() : QString();
}

void rates_view::reset()
{
    m_gate.reset();
    m_p.reset();
    m_layout.clear();
    clear_plot(m_plot);
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
        for (std::size_t i = 0; i < g.contention.size(); ++i)
            g.contention[i]->setPen(QPen(m_p->ab ? side_color(side, pal) : node_color(m_p->zone_nodes[i], pal), 2));
    }
    m_p->header->setTextColor(text_color(pal));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void rates_view::showEvent(QShowEvent* e)
{
    view::showEvent(e);
    if (m_gate.pending().a) show_frame(frame(m_gate.pending()));
}

void rates_view::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::PaletteChange) restyle();
    view::changeEvent(e);
}

} // namespace pcplab::ui
