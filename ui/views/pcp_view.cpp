// Per-CPU list depths, painted with QPainter: a few hundred rectangles per frame, no widgets per CPU.
#include "ui/views/pcp_view.hpp"

#include "ui/views/header_parts.hpp"
#include "ui/views/view_style.hpp"

#include "mm/mm_types.hpp"

#include <QHBoxLayout>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace pcplab::ui
{

namespace
{

// CPUs of each node in CPU order (node -> cpus); a CPU without a node entry counts as node 0.
std::map<int, std::vector<int>> cpus_by_node(const sim::snapshot& s)
{
    std::map<int, std::vector<int>> out;
    for (int cpu = 0; cpu < s.nr_cpus; ++cpu) {
        const int n = s.node_of_cpu(cpu);
        out[n].push_back(cpu);
    }
    return out;
}

// The pageset a CPU shows for the choice (its own node's zone, or the chosen one), or null.
const sim::pcp_sample* pageset_of(const sim::snapshot& s, zone_choice c, int cpu)
{
    const int zi = zone_for_cpu(s, c, cpu);
    return s.has_pagesets(zi) ? &s.pageset(zi, cpu) : nullptr;
}

// The largest of count and high over the CPUs' shown pagesets: the common bar scale.
int zone_scale(const sim::snapshot& s, zone_choice c)
{
    int m = 1;
    for (int cpu = 0; cpu < s.nr_cpus; ++cpu)
        if (const sim::pcp_sample* p = pageset_of(s, c, cpu)) m = std::max({m, p->count, p->high});
    return m;
}

QColor fill_for(const sim::pcp_sample& p, int node, const QPalette& pal)
{
    return (p.high > 0 && p.count > p.high) ? warn_color(pal) : node_color(node, pal);
}

} // namespace

pcp_view::pcp_view(QWidget* parent)
    : view(parent)
    , m_picker(new zone_picker)
    , m_bar(new QWidget(this))
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
    auto* bar = new QHBoxLayout(m_bar);
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_picker);
    bar->addStretch(1);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(m_bar);
    lay->addStretch(1);
    connect(m_picker, &zone_picker::chosen, this, [this] { update(); });
}

void pcp_view::reset()
{
    m_a.reset();
    m_b.reset();
    m_cells.clear();
    update();
}

void pcp_view::show_frame(const frame& f)
{
    if (f.a == m_a && f.b == m_b) return; // snapshots are immutable: the same pointer is the same picture
    m_a = f.a;
    m_b = f.b;
    if (m_a) m_picker->offer(*m_a);
    update();
}

void pcp_view::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Window));
    m_cells.clear();
    if (!m_a) {
        draw_message(p, rect(), tr("Waiting for the first snapshot"), pal);
        return;
    }
    const int margin = fontMetrics().height() / 2;
    const QRect area = rect().adjusted(margin, m_bar->geometry().bottom() + 1, -margin, -margin / 2);
    if (!m_b) {
        paint_side(p, area, *m_a, 0, 0);
        return;
    }
    // A/B: one scale for both, so equal bars mean equal depths.
    const int scale = std::max(zone_scale(*m_a, m_picker->choice()), zone_scale(*m_b, m_picker->choice()));
    const bool beside = area.width() >= area.height();
    QRect ra = area, rb = area;
    if (beside) {
        ra.setRight(area.center().x() - margin / 2);
        rb.setLeft(area.center().x() + margin / 2);
    } else {
        ra.setBottom(area.center().y() - margin / 2);
        rb.setTop(area.center().y() + margin / 2);
    }
    paint_side(p, ra, *m_a, 0, scale);
    paint_side(p, rb, *m_b, 1, scale);
    p.setPen(faint_color(pal));
    if (beside)
        p.drawLine(area.center().x(), area.top(), area.center().x(), area.bottom());
    else
        p.drawLine(area.left(), area.center().y(), area.right(), area.center().y());
}

QStringList pcp_view::side_parts(const sim::snapshot& s, int side) const
{
    // The zones shown (one per node, or the one chosen), and their limits: one part when they agree.
    const zone_choice c = m_picker->choice();
    std::vector<int> zones;
    if (c.all_nodes())
        zones = zones_of(s, c);
    else if (const int zi = s.zone_index(c.node, c.zone); zi >= 0)
        zones.push_back(zi);
    QStringList parts;
    const QString pre = m_b ? (side == 0 ? QStringLiteral("A ") : QStringLiteral("B ")) : QString();
    long pages = 0;
    bool same = true;
    for (int zi : zones) {
        const sim::zone_snapshot& z = s.zone_at(zi);
        const sim::zone_snapshot& z0 = s.zone_at(zones.front());
        same = same && z.batch == z0.batch && z.high == z0.high;
        pages += z.pcp_pages;
    }
    auto limits = [&](const sim::zone_snapshot& z) {
        QString t = tr("batch %1, high %2").arg(z.batch).arg(z.high);
        if (s.era.at_least(6, 7)) t += tr(" (high_min %1, high_max %2)").arg(z.high_min).arg(z.high_max);
        return t;
    };
    if (zones.empty()) return {pre + choice_label(c) + tr(": not on this machine")};
    // The numbers first, the zone's name after them (the picker says it too).
    if (same) {
        const sim::zone_snapshot& z = s.zone_at(zones.front());
        parts << pre + limits(z);
        parts << (zones.size() > 1 ? choice_label(c) : zone_label(z.node, z.zone));
    } else {
        for (int zi : zones) {
            const sim::zone_snapshot& z = s.zone_at(zi);
            parts << (parts.isEmpty() ? pre : QString()) + tr("node %1: %2").arg(z.node).arg(limits(z));
        }
    }
    parts << tr("%1 on the lists").arg(count_of(static_cast<double>(pages), tr("page"), tr("pages")));
    return parts;
}

void pcp_view::paint_side(QPainter& p, const QRect& area, const sim::snapshot& s, int side, int scale_max)
{
    const QPalette& pal = palette();
    const QFontMetrics fm = fontMetrics();
    bool any = false;
    for (int cpu = 0; cpu < s.nr_cpus && !any; ++cpu) any = pageset_of(s, m_picker->choice(), cpu) != nullptr;
    if (!any) {
        draw_message(p, area,
            s.zones.empty() ? tr("No pagesets yet (%1)").arg(QString::fromLatin1(sim::run_state_name(s.state)))
                            : tr("%1 is not on this machine").arg(choice_label(m_picker->choice())),
            pal);
        return;
    }
    p.setPen(m_b ? side_color(side, pal) : text_color(pal));
    const int head_h
        = draw_parts(p, QRect(area.left(), area.top(), area.width(), 2 * fm.height()), side_parts(s, side), 2);
    const QRect body = area.adjusted(0, head_h + fm.height() / 3, 0, 0);
    // Bars need room for a 1-px gap and a readable width; otherwise the grid of gauges.
    const int nodes = static_cast<int>(cpus_by_node(s).size());
    const int per_bar = (body.width() - nodes * 6) / std::max(1, s.nr_cpus);
    m_grid = per_bar < 7 || s.nr_cpus > 96;
    if (m_grid)
        paint_grid(p, body, s, side);
    else
        paint_bars(p, body, s, side, scale_max > 0 ? scale_max : zone_scale(s, m_picker->choice()));
}

void pcp_view::paint_bars(QPainter& p, const QRect& body, const sim::snapshot& s, int side, int scale_max)
{
    const QPalette& pal = palette();
    const QFontMetrics fm = fontMetrics();
    const auto groups = cpus_by_node(s);
    const int gap = 6;
    const int n = s.nr_cpus;
    const int label_h = fm.height();
    const int legend_h = fm.height();
    const int axis_w = fm.horizontalAdvance(QStringLiteral("00000"));
    // Above the bars a row of counts; under them CPU numbers, the node bracket and its label, then the legend.
    const QRect plot(body.left() + axis_w, body.top() + label_h + 2, body.width() - axis_w,
        body.height() - 4 * label_h - legend_h - 12);
    if (plot.height() < 10) return;
    // Bars no wider than 64 px: 4 CPUs should look like bars, not walls.
    const int col_w = std::clamp((plot.width() - gap * (static_cast<int>(groups.size()) - 1)) / std::max(1, n), 3, 64);
    const int bar_w = std::max(2, col_w - std::max(1, col_w / 6));
    // The bars are centred when capped: the used width, and where it starts.
    const int used = n * col_w + gap * (static_cast<int>(groups.size()) - 1);
    const int x_start = plot.left() + std::max(0, (plot.width() - used) / 2);
    auto y_of
        = [&](int v) { return plot.bottom() - static_cast<int>(static_cast<double>(v) / scale_max * plot.height()); };

    // Y axis: 0 and the scale maximum, with light grid lines at quarters.
    p.setPen(faint_color(pal));
    for (int q = 0; q <= 4; ++q) {
        const int y = plot.bottom() - plot.height() * q / 4;
        p.drawLine(x_start - 4, y, x_start + used + 4, y);
    }
    p.setPen(text_color(pal));
    const int axis_x = x_start - 8 - axis_w;
    p.drawText(QRect(axis_x, plot.top() - label_h / 2, axis_w, label_h), Qt::AlignRight | Qt::AlignVCenter,
        compact(scale_max));
    p.drawText(QRect(axis_x, plot.bottom() - label_h / 2, axis_w, label_h), Qt::AlignRight | Qt::AlignVCenter,
        QStringLiteral("0"));

    const bool cpu_labels = col_w >= fm.horizontalAdvance(QStringLiteral("000"));
    const bool count_labels = col_w >= fm.horizontalAdvance(QStringLiteral("0000"));
    int x = x_start;
    for (const auto& [node, cpus] : groups) {
        const int gx0 = x;
        for (int cpu : cpus) {
            const sim::pcp_sample* ps = pageset_of(s, m_picker->choice(), cpu);
            const QRect col(x, plot.top(), bar_w, plot.height());
            if (ps) {
                // The box up to high (empty part of the list), the bar up to count.
                const int yh = y_of(std::min(ps->high, scale_max));
                p.fillRect(QRect(x, yh, bar_w, plot.bottom() - yh + 1), panel_color(pal));
                const int yc = y_of(std::min(ps->count, scale_max));
                p.fillRect(QRect(x, yc, bar_w, plot.bottom() - yc + 1), fill_for(*ps, node, pal));
                p.setPen(QPen(text_color(pal), 1));
                p.drawLine(x, yh, x + bar_w - 1, yh); // high: the top of the box
                // batch: a dotted mark across the bar
                const int yb = y_of(std::min(ps->batch, scale_max));
                p.setPen(QPen(text_color(pal), 2, Qt::DotLine));
                p.drawLine(x, yb, x + bar_w - 1, yb);
                // The count in the row above the plot, where no line crosses it.
                if (count_labels) {
                    p.setPen(text_color(pal));
                    p.drawText(QRect(x - 4, body.top(), bar_w + 8, label_h), Qt::AlignHCenter | Qt::AlignVCenter,
                        QString::number(ps->count));
                }
            }
            if (cpu_labels) {
                p.setPen(text_color(pal));
                p.drawText(QRect(x - 4, plot.bottom() + 2, bar_w + 8, label_h), Qt::AlignHCenter | Qt::AlignTop,
                    QString::number(cpu));
            }
            m_cells.push_back({col, side, cpu});
            x += col_w;
        }
        // Node bracket under its CPUs.
        const int gx1 = x - (col_w - bar_w);
        const int yb = plot.bottom() + label_h + 4;
        p.setPen(QPen(node_color(node, pal), 2));
        p.drawLine(gx0, yb, gx1, yb);
        p.setPen(text_color(pal));
        const QString nl = tr("node %1").arg(node);
        if (fm.horizontalAdvance(nl) <= gx1 - gx0)
            p.drawText(QRect(gx0, yb + 1, gx1 - gx0, label_h), Qt::AlignHCenter | Qt::AlignTop, nl);
        x += gap;
    }
    p.setPen(text_color(pal));
    draw_parts(p, QRect(body.left(), body.bottom() - 2 * legend_h + 1, body.width(), 2 * legend_h),
        {tr("bar: pcp->count"), tr("box top: pcp->high"), tr("dotted: pcp->batch"), tr("numbers above: count"),
            tr("all in pages; red: over high")},
        2);
}

void pcp_view::paint_grid(QPainter& p, const QRect& body, const sim::snapshot& s, int side)
{
    const QPalette& pal = palette();
    const QFontMetrics fm = fontMetrics();
    const auto groups = cpus_by_node(s);
    const int legend_h = 2 * fm.height();
    const int label_w = fm.horizontalAdvance(QStringLiteral("cpu 0000 "));
    const QRect grid(body.left() + label_w, body.top(), body.width() - label_w, body.height() - legend_h - 2);
    // The largest square cell that fits every node's CPUs in rows of the grid width (one gap row per node), with
    // each node at least a label line tall.
    int cell = 4;
    for (int c = 48; c >= 4; --c) {
        const int per_row = std::max(1, grid.width() / c);
        int need = 0;
        for (const auto& g : groups)
            need += std::max(fm.height(), (static_cast<int>(g.second.size()) + per_row - 1) / per_row * c) + c / 3 + 2;
        if (need <= grid.height() + c / 3 + 2) {
            cell = c;
            break;
        }
    }
    const int per_row = std::max(1, grid.width() / cell);
    const int inner = std::max(1, cell - (cell >= 8 ? 2 : 1));
    // Cells do not overlap: the empty boxes of every CPU go in one call, then the gauges, then the batch ticks
    // in one call (a fillRect and two drawLines per CPU cost ~0.3 ms per side on 316 CPUs; same pixels).
    m_panels.clear();
    m_ticks.clear();
    std::vector<std::pair<QColor, QVector<QRect>>> gauges; // by colour (one per node, and over-high red)
    int y = grid.top();
    for (const auto& [node, cpus] : groups) {
        const int rows = (static_cast<int>(cpus.size()) + per_row - 1) / per_row;
        p.setPen(node_color(node, pal));
        p.drawText(
            QRect(body.left(), y, label_w - 4, fm.height()), Qt::AlignLeft | Qt::AlignTop, tr("node %1").arg(node));
        // The first CPU of every further row, so that a cell can be found without hovering.
        if (cell >= fm.height()) {
            p.setPen(text_color(pal));
            for (int row = 1; row < rows; ++row)
                p.drawText(QRect(body.left(), y + row * cell, label_w - 4, cell), Qt::AlignLeft | Qt::AlignTop,
                    tr("cpu %1").arg(cpus[static_cast<std::size_t>(row * per_row)]));
        }
        for (std::size_t i = 0; i < cpus.size(); ++i) {
            const int cpu = cpus[i];
            const int cx = grid.left() + static_cast<int>(i % static_cast<std::size_t>(per_row)) * cell;
            const int cy = y + static_cast<int>(i / static_cast<std::size_t>(per_row)) * cell;
            const QRect r(cx, cy, inner, inner);
            m_panels.push_back(r);
            m_cells.push_back({r, side, cpu});
            const sim::pcp_sample* ps = pageset_of(s, m_picker->choice(), cpu);
            if (!ps) continue;
            // Gauge: filled from the bottom by count/high (full and red when over high).
            const double frac
                = ps->high > 0 ? std::min(1.0, static_cast<double>(ps->count) / ps->high) : (ps->count ? 1 : 0);
            const int fh = static_cast<int>(frac * inner + 0.5);
            if (fh > 0) {
                const QColor c = fill_for(*ps, node, pal);
                auto g = std::find_if(gauges.begin(), gauges.end(), [&](const auto& e) { return e.first == c; });
                if (g == gauges.end()) g = gauges.insert(gauges.end(), {c, {}});
                g->second.push_back(QRect(r.left(), r.bottom() - fh + 1, inner, fh));
            }
            if (inner >= 8 && ps->high > 0) {
                // batch as a tick on both edges, so the fill can be read against it
                const int yb
                    = r.bottom() - static_cast<int>(std::min(1.0, static_cast<double>(ps->batch) / ps->high) * inner);
                m_ticks.push_back(QLine(r.left(), yb, r.left() + inner / 4, yb));
                m_ticks.push_back(QLine(r.right() - inner / 4, yb, r.right(), yb));
            }
        }
        y += std::max(fm.height(), rows * cell) + cell / 3 + 2;
    }
    p.setPen(Qt::NoPen);
    p.setBrush(panel_color(pal));
    p.drawRects(m_panels.constData(), static_cast<int>(m_panels.size()));
    for (const auto& [c, rects] : gauges) {
        p.setBrush(c);
        p.drawRects(rects);
    }
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(text_color(pal), 1));
    p.drawLines(m_ticks);
    p.setPen(text_color(pal));
    draw_parts(p, QRect(body.left(), body.bottom() - legend_h + 1, body.width(), legend_h),
        {tr("one square per CPU, filled to count / high"), tr("ticks: batch"), tr("red: over high"),
            tr("hover for the numbers")},
        2);
}

pcp_view::hit pcp_view::hit_at(const QPoint& pos) const
{
    for (const cell& c : m_cells)
        if (c.r.contains(pos)) return {c.side, c.cpu};
    return {};
}

QString pcp_view::tooltip_at(const QPoint& pos) const
{
    const hit h = hit_at(pos);
    const sim::snapshot* s = h.cpu >= 0 ? side_snapshot(h.side) : nullptr;
    if (!s || h.cpu >= s->nr_cpus) return {};
    const int zi = zone_for_cpu(*s, m_picker->choice(), h.cpu);
    if (!s->has_pagesets(zi)) return {};
    const sim::pcp_sample& ps = s->pageset(zi, h.cpu);
    const sim::zone_snapshot& z = s->zone_at(zi);
    const int node = s->node_of_cpu(h.cpu);
    QString t = QStringLiteral("<b>%1CPU %2</b> (node %3), %4<br>count %5<br>high %6<br>batch %7")
                    .arg(m_b ? (h.side == 0 ? QStringLiteral("A: ") : QStringLiteral("B: ")) : QString())
                    .arg(h.cpu)
                    .arg(node)
                    .arg(zone_label(z.node, z.zone))
                    .arg(ps.count)
                    .arg(ps.high)
                    .arg(ps.batch);
    if (s->era.at_least(6, 7)) t += QStringLiteral("<br>zone high_min %1, high_max %2").arg(z.high_min).arg(z.high_max);
    return t;
}

} // namespace pcplab::ui
