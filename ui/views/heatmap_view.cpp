// The per-CPU x time heatmap, painted with QPainter from one small image per machine (heatmap_view.hpp).
#include "ui/views/heatmap_view.hpp"

#include "ui/views/header_parts.hpp"
#include "ui/views/time_ticks.hpp"
#include "ui/views/view_style.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QPaintEvent>
#include <QPainter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

namespace pcplab::ui
{

namespace
{

constexpr int k_node_gap = 3; // pixels between two nodes' rows

// CPUs of each node in CPU order; a CPU without a node entry counts as node 0.
std::map<int, std::vector<int>> cpus_by_node(const sim::snapshot& s)
{
    std::map<int, std::vector<int>> out;
    for (int cpu = 0; cpu < s.nr_cpus; ++cpu) out[s.node_of_cpu(cpu)].push_back(cpu);
    return out;
}

// "3.2 ms" for a bin width.
QString bin_text(std::int64_t ns)
{
    return format_ns(static_cast<double>(ns));
}

} // namespace

heatmap_view::heatmap_view(QWidget* parent)
    : view(parent)
    , m_what(new QComboBox)
    , m_picker(new zone_picker)
    , m_header(new header_line)
    , m_bar(new QWidget(this))
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
    m_what->addItem(tr("List depth (count / high)"));
    m_what->addItem(tr("Waiting for zone->lock"));
    m_what->setToolTip(tr("What the colour shows: how full each CPU's PCP list was against its high, or how much "
                          "of the time it spun waiting for a zone->lock"));
    m_what->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* bar = new QHBoxLayout(m_bar);
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_what);
    bar->addWidget(m_picker);
    bar->addWidget(m_header, 1);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(m_bar);
    repaint_view_when_resized(m_bar, this);
    lay->addStretch(1);
    connect(m_what, &QComboBox::activated, this,
        [this](int i) { set_quantity(i == 1 ? quantity::waiting : quantity::depth); });
    connect(m_picker, &zone_picker::chosen, this, [this] {
        m_header->set_parts(header_parts());
        update();
    });
}

void heatmap_view::set_quantity(quantity q)
{
    m_quantity = q;
    m_what->setCurrentIndex(q == quantity::waiting ? 1 : 0);
    // Waits are per CPU over every zone->lock (a CPU waits for one lock at a time): no zone to choose.
    m_picker->setEnabled(q == quantity::depth);
    m_header->set_parts(header_parts());
    update();
}

void heatmap_view::show_frame(const frame& f)
{
    if (!f.a || !f.ha) return;
    const bool same = f.a == m_frame.a && f.b == m_frame.b;
    m_frame = f;
    if (same) return;
    m_picker->offer(*f.a);
    m_header->set_parts(header_parts());
    update();
}

void heatmap_view::reset()
{
    m_frame = frame{};
    m_panels.clear();
    for (picture& pic : m_pictures) pic = picture{};
    update();
}

QStringList heatmap_view::header_parts() const
{
    QStringList parts;
    if (!m_frame.a || !m_frame.ha) return parts;
    const activity_bins& b = m_frame.ha->bins();
    if (m_quantity == quantity::depth)
        parts << (m_picker->choice().all_nodes() ? tr("each CPU's own node") : choice_label(m_picker->choice()));
    else
        parts << (b.waits_from_holds() ? tr("any zone->lock")
                                       : tr("spinning on any lock (hold records not kept: from spin time)"));
    parts << tr("%1 CPUs").arg(m_frame.a->nr_cpus);
    if (b.bins() > 0) parts << tr("one column = %1").arg(bin_text(b.bin_ns()));
    const int per = cpus_per_row();
    if (per > 1) parts << tr("one row = %1 CPUs (the larger value; enlarge the view for one per CPU)").arg(per);
    return parts;
}

double heatmap_view::value(int side, int cpu, std::size_t bin) const
{
    const history* h = hist(side);
    const sim::snapshot* s = snap(side);
    if (!h || !s) return -1;
    const activity_bins& b = h->bins();
    if (m_quantity == quantity::waiting) return b.cpu_wait_share(cpu, bin);
    const int zi = zone_for_cpu(*s, m_picker->choice(), cpu);
    if (zi < 0) return -1;
    const sim::zone_snapshot& z = s->zone_at(zi);
    const int bi = b.zone_index(z.node, z.zone);
    return bi < 0 ? -1 : b.depth(static_cast<std::size_t>(bi), cpu, bin);
}

void heatmap_view::layout_panels(const QRect& body)
{
    m_panels.clear();
    const QFontMetrics fm = fontMetrics();
    const bool ab = m_frame.b && m_frame.hb;
    const int sides = ab ? 2 : 1;
    const auto groups = cpus_by_node(*m_frame.a);
    const int cpus = std::max(1, m_frame.a->nr_cpus);
    const int seps = (static_cast<int>(groups.size()) - 1) * k_node_gap;
    const int label_w = fm.horizontalAdvance(QStringLiteral("B node 00 ")) + 4;
    const int axis_h = 2 * fm.height() + 6; // boot strip + tick labels
    // Stacked (one time axis under the other) when each map still gets a pixel row per CPU, else side by side.
    const int stacked_h = (body.height() - sides * axis_h - (sides - 1) * fm.height() / 2) / sides;
    const bool beside = ab && stacked_h - seps < cpus && body.width() > 2 * (label_w + 200);
    for (int side = 0; side < sides; ++side) {
        panel pn;
        pn.side = side;
        QRect r = body;
        if (ab && beside) {
            const int half = (body.width() - fm.height()) / 2;
            r = side == 0 ? QRect(body.left(), body.top(), half, body.height())
                          : QRect(body.right() - half + 1, body.top(), half, body.height());
        } else if (ab) {
            const int h = (body.height() - fm.height() / 2) / 2;
            r = QRect(body.left(), body.top() + side * (h + fm.height() / 2), body.width(), h);
        }
        pn.plot = QRect(r.left() + label_w, r.top(), r.width() - label_w, r.height() - axis_h);
        if (pn.plot.width() < 20 || pn.plot.height() < 10) continue;
        // The fewest CPUs per row that fit: usually one, several only on a short view.
        const int room = std::max(1, pn.plot.height() - seps);
        pn.per_row = 1;
        auto rows_for = [&](int per) {
            int n = 0;
            for (const auto& [node, list] : groups) n += (static_cast<int>(list.size()) + per - 1) / per;
            return n;
        };
        while (rows_for(pn.per_row) > room) ++pn.per_row;
        const int rows = rows_for(pn.per_row);
        // The rows share the height (some a pixel taller than others), up to 40 px each for a few CPUs.
        pn.py = std::min(40.0, static_cast<double>(room) / std::max(1, rows));
        int row = 0, y = pn.plot.top();
        for (const auto& [node, list] : groups) {
            group g;
            g.node = node;
            g.cpus = list;
            g.first_row = row;
            g.rows = (static_cast<int>(list.size()) + pn.per_row - 1) / pn.per_row;
            g.y = y;
            g.h = static_cast<int>(std::lround((row + g.rows) * pn.py) - std::lround(row * pn.py));
            row += g.rows;
            y += g.h + k_node_gap;
            pn.groups.push_back(std::move(g));
        }
        pn.plot.setHeight(y - k_node_gap - pn.plot.top());
        const activity_bins& b = hist(side)->bins();
        pn.bins = b.bins();
        pn.bin_ns = b.bin_ns();
        m_panels.push_back(std::move(pn));
    }
}

const QImage& heatmap_view::build_image(const panel& pn) const
{
    int rows = 0;
    for (const group& g : pn.groups) rows += g.rows;
    const heat_scale& scale = m_quantity == quantity::depth ? m_depth_scale : m_wait_scale;
    const QRgb none = panel_color(palette()).rgb();
    const activity_bins& b = hist(pn.side)->bins();
    const sim::snapshot& s = *snap(pn.side);
    picture& pic = m_pictures[pn.side];
    const int w = static_cast<int>(std::max<std::size_t>(1, b.max_bins()));
    const bool same = pic.bins == &b && pic.per_row == pn.per_row && pic.cpus == s.nr_cpus && pic.q == m_quantity
        && pic.choice == m_picker->choice() && pic.none == none && pic.image.width() == w && pic.image.height() == rows;
    // The newest bin drawn last time was partly elapsed: its share changes without a write.
    const std::size_t from
        = same ? std::min(b.first_changed_since(pic.seen), pic.drawn > 0 ? pic.drawn - 1 : 0) : std::size_t{0};
    if (!same) {
        if (pic.image.width() != w || pic.image.height() != rows) pic.image = QImage(w, rows, QImage::Format_RGB32);
        pic.image.fill(none);
        pic.bins = &b;
        pic.per_row = pn.per_row;
        pic.cpus = s.nr_cpus;
        pic.q = m_quantity;
        pic.choice = m_picker->choice();
        pic.none = none;
    }
    pic.seen = b.current_mark();
    pic.drawn = pn.bins;
    if (from >= pn.bins) return pic.image;
    // Each CPU's row of the bins (its own node's zone, or the chosen one), looked up once per picture.
    std::vector<int> zone_row(static_cast<std::size_t>(std::max(0, s.nr_cpus)), -1);
    if (m_quantity == quantity::depth)
        for (int cpu = 0; cpu < s.nr_cpus; ++cpu) {
            const int zi = zone_for_cpu(s, m_picker->choice(), cpu);
            if (zi >= 0) zone_row[static_cast<std::size_t>(cpu)] = b.zone_index(s.zone_at(zi).node, s.zone_at(zi).zone);
        }
    std::vector<double> v(pn.bins - from);
    for (const group& g : pn.groups) {
        for (int r = 0; r < g.rows; ++r) {
            std::fill(v.begin(), v.end(), -1.0);
            const std::size_t c0 = static_cast<std::size_t>(r * pn.per_row);
            const std::size_t c1 = std::min(g.cpus.size(), c0 + static_cast<std::size_t>(pn.per_row));
            for (std::size_t c = c0; c < c1; ++c) {
                const int cpu = g.cpus[c];
                const int zr = cpu < s.nr_cpus ? zone_row[static_cast<std::size_t>(cpu)] : -1;
                for (std::size_t bin = from; bin < pn.bins; ++bin) {
                    const double x = m_quantity == quantity::waiting ? b.cpu_wait_share(cpu, bin)
                        : zr >= 0                                    ? b.depth(static_cast<std::size_t>(zr), cpu, bin)
                                                                     : -1.0;
                    v[bin - from] = std::max(v[bin - from], x);
                }
            }
            auto* line = reinterpret_cast<QRgb*>(pic.image.scanLine(g.first_row + r));
            for (std::size_t i = 0; i < v.size(); ++i) line[from + i] = v[i] < 0 ? none : scale.rgb(v[i]);
        }
    }
    return pic.image;
}

void heatmap_view::paint_panel(QPainter& p, panel& pn)
{
    const QPalette& pal = palette();
    const QFontMetrics fm = fontMetrics();
    const bool ab = m_frame.b != nullptr;
    const QImage& image = build_image(pn);
    const int drawn = static_cast<int>(std::max<std::size_t>(1, pn.bins));
    // Node labels on the left, in the node's colour, with the side's letter in A/B.
    const QString side = ab ? (pn.side == 0 ? QStringLiteral("A ") : QStringLiteral("B ")) : QString();
    const int label_w = fm.horizontalAdvance(QStringLiteral("B node 00 "));
    bool labelled = false;
    for (const group& g : pn.groups) {
        const int h = g.h;
        const QRect lr(pn.plot.left() - label_w - 4, g.y, label_w, std::max(h, fm.height()));
        if (h >= fm.height() || pn.groups.size() == 1) {
            p.setPen(ab ? side_color(pn.side, pal) : node_color(g.node, pal));
            p.drawText(lr, Qt::AlignLeft | Qt::AlignTop, side + tr("node %1").arg(g.node));
            labelled = true;
        }
        if (h >= 2 * fm.height()) {
            p.setPen(text_color(pal));
            p.drawText(
                lr.adjusted(0, fm.height(), 0, 0), Qt::AlignLeft | Qt::AlignTop, tr("%1 CPUs").arg(g.cpus.size()));
        }
        p.drawImage(QRect(pn.plot.left(), g.y, pn.plot.width(), h), image, QRect(0, g.first_row, drawn, g.rows));
        // The node's colour as a thin bar at the left edge: which node a row belongs to at a glance.
        p.fillRect(QRect(pn.plot.left() - 4, g.y, 3, h), node_color(g.node, pal));
    }
    // Nodes too short for a line each: one label for the panel, so that A and B are still told apart.
    if (!labelled && pn.plot.height() >= fm.height()) {
        p.setPen(ab ? side_color(pn.side, pal) : text_color(pal));
        p.drawText(QRect(pn.plot.left() - label_w - 4, pn.plot.top(), label_w, fm.height()),
            Qt::AlignLeft | Qt::AlignTop, side + tr("%1 nodes").arg(pn.groups.size()));
    }
    // Time axis: the boot (deferred init) as a band, then the ticks.
    const double span = static_cast<double>(std::max<std::size_t>(1, pn.bins)) * static_cast<double>(pn.bin_ns);
    const int y_axis = pn.plot.bottom() + 2;
    const std::int64_t boot_end = hist(pn.side)->boot_end_ns();
    int boot_x = 0;
    if (boot_end > 0) {
        boot_x = static_cast<int>(std::min(1.0, static_cast<double>(boot_end) / span) * pn.plot.width());
        QColor c = series_color(2, pal);
        c.setAlpha(90);
        p.fillRect(QRect(pn.plot.left(), y_axis, boot_x, fm.height()), c);
        const QString t = tr("boot: deferred init");
        if (fm.horizontalAdvance(t) + 6 < boot_x) {
            p.setPen(text_color(pal));
            p.drawText(QRect(pn.plot.left() + 3, y_axis, boot_x - 3, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, t);
        }
    }
    p.setPen(text_color(pal));
    const int ty = y_axis + (boot_end > 0 ? fm.height() : 0) + 1;
    p.drawLine(pn.plot.left(), ty, pn.plot.right(), ty);
    for (const time_tick& t : time_ticks(0, span, pn.plot.width(), fm)) {
        const int x = pn.plot.left() + static_cast<int>(t.x);
        p.drawLine(x, ty, x, ty + 3);
        const int tw = fm.horizontalAdvance(t.label);
        const int tx = std::clamp(x - tw / 2, pn.plot.left(), pn.plot.right() - tw);
        p.drawText(QRect(tx, ty + 3, tw + 1, fm.height()), Qt::AlignLeft | Qt::AlignTop, t.label);
    }
}

void heatmap_view::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Window));
    const QFontMetrics fm = fontMetrics();
    const QRect area = rect().adjusted(fm.height() / 2, m_bar->geometry().bottom() + 2, -fm.height() / 2, -2);
    if (!m_frame.a || !m_frame.ha) {
        m_panels.clear();
        draw_message(p, area, tr("Waiting for the first snapshot"), pal);
        return;
    }
    if (m_frame.a->nr_cpus <= 0 || m_frame.ha->bins().bins() == 0) {
        m_panels.clear();
        draw_message(p, area,
            tr("The map fills in as virtual time passes (%1)")
                .arg(QString::fromLatin1(sim::run_state_name(m_frame.a->state))),
            pal);
        return;
    }
    // The legend along the bottom: the colour scale with its unit, and what "no data" looks like.
    const int legend_h = 2 * fm.height() + 6;
    const QRect legend(area.left(), area.bottom() - legend_h + 1, area.width(), legend_h);
    layout_panels(area.adjusted(0, 0, 0, -legend_h - fm.height() / 2));
    m_header->set_parts(header_parts());
    for (panel& pn : m_panels) paint_panel(p, pn);
    const bool depth = m_quantity == quantity::depth;
    const QString title = depth ? tr("pcp->count / pcp->high, mean over each column:")
                                : tr("time spent waiting for a zone->lock, share of each column:");
    const int used = paint_heat_legend(p, legend, depth ? m_depth_scale : m_wait_scale, title, pal);
    const QString none = tr("grey: no data yet");
    const int nw = fm.horizontalAdvance(none);
    if (used > 0 && legend.left() + used + fm.height() + 14 + nw <= legend.right()) {
        const int x = legend.left() + used + fm.height();
        p.fillRect(QRect(x, legend.top() + 3, 12, fm.height() - 6), panel_color(pal));
        p.setPen(text_color(pal));
        p.drawText(QRect(x + 16, legend.top(), nw + 2, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, none);
    }
}

heatmap_view::hit heatmap_view::hit_at(const QPoint& pos) const
{
    hit h;
    for (const panel& pn : m_panels) {
        if (!pn.plot.contains(pos) || pn.bins == 0) continue;
        for (const group& g : pn.groups) {
            if (pos.y() < g.y || pos.y() >= g.y + g.h) continue;
            const int r = std::min(g.rows - 1, static_cast<int>((pos.y() - g.y) * g.rows / std::max(1, g.h)));
            const std::size_t c0 = static_cast<std::size_t>(r * pn.per_row);
            for (std::size_t c = c0; c < std::min(g.cpus.size(), c0 + static_cast<std::size_t>(pn.per_row)); ++c)
                h.cpus.push_back(g.cpus[c]);
            h.bin = std::min(pn.bins - 1,
                static_cast<std::size_t>(static_cast<double>(pos.x() - pn.plot.left()) / pn.plot.width() * pn.bins));
            h.p = &pn;
            h.g = &g;
            return h;
        }
    }
    return h;
}

heatmap_view::cell heatmap_view::cell_at(const QPoint& pos) const
{
    const hit h = hit_at(pos);
    if (!h.p || h.cpus.empty()) return {};
    return {h.p->side, h.cpus.front(), static_cast<int>(h.cpus.size()), h.bin};
}

double heatmap_view::value_at(const QPoint& pos) const
{
    const hit h = hit_at(pos);
    if (!h.p) return std::nan("");
    double v = -1;
    for (int cpu : h.cpus) v = std::max(v, value(h.p->side, cpu, h.bin));
    return v;
}

QString heatmap_view::tooltip_at(const QPoint& pos) const
{
    const hit h = hit_at(pos);
    if (!h.p || h.cpus.empty()) return {};
    const double t0 = static_cast<double>(h.bin) * static_cast<double>(h.p->bin_ns);
    const QString side = m_frame.b ? (h.p->side == 0 ? tr("A: ") : tr("B: ")) : QString();
    QString who = h.cpus.size() == 1 ? tr("CPU %1").arg(h.cpus.front())
                                     : tr("CPUs %1–%2").arg(h.cpus.front()).arg(h.cpus.back());
    QString t = QStringLiteral("<b>%1%2</b> (node %3)<br>%4 to %5")
                    .arg(side, who)
                    .arg(h.g->node)
                    .arg(time_label(t0, static_cast<double>(h.p->bin_ns)),
                        time_label(t0 + static_cast<double>(h.p->bin_ns), static_cast<double>(h.p->bin_ns)));
    for (int cpu : h.cpus) {
        const double v = value(h.p->side, cpu, h.bin);
        QString what;
        if (v < 0)
            what = tr("no data");
        else if (m_quantity == quantity::depth) {
            const sim::snapshot* s = snap(h.p->side);
            const int zi = s ? zone_for_cpu(*s, m_picker->choice(), cpu) : -1;
            const QString zone = zi >= 0 ? zone_label(s->zone_at(zi).node, s->zone_at(zi).zone) : QString();
            what = tr("list %1 % of high (%2)").arg(v * 100, 0, 'f', 0).arg(zone);
        } else
            what = tr("waited for zone->lock %1 % of the time").arg(v * 100, 0, 'f', 1);
        t += QStringLiteral("<br>") + (h.cpus.size() > 1 ? tr("CPU %1: ").arg(cpu) : QString()) + what;
    }
    return t;
}

void heatmap_view::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::PaletteChange) update();
    view::changeEvent(e);
}

} // namespace pcplab::ui
