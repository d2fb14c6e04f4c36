// The zone->lock view: header, lanes, node legend and the hold-time histogram, one QPainter pass.
#include "views/locks_view.hpp"

#include "views/ab_summary.hpp"
#include "views/view_style.hpp"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>
#include <set>

namespace pcplab::ui
{

locks_view::locks_view(QWidget* parent)
    : view(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
    setToolTip(tr("Wheel: zoom the time window · double click: follow the newest time"));
}

void locks_view::show_frame(const frame& f)
{
    if (f.a == m_frame.a && f.b == m_frame.b && f.selected_node == m_frame.selected_node
        && f.selected_zone == m_frame.selected_zone)
        return;
    m_frame = f;
    update();
}

void locks_view::reset()
{
    m_frame = frame{};
    m_hits.clear();
    m_follow = true;
    update();
}

void locks_view::seek_to(qint64 t_ns)
{
    m_follow = false;
    m_end_ns = t_ns + m_window_ns / 2;
    update();
}

std::vector<lane_input> locks_view::lanes() const
{
    std::vector<lane_input> out;
    if (!m_frame.a || !m_frame.ha) return out;
    const bool ab = m_frame.b && m_frame.hb;
    // Zones whose lock was taken at all (an idle DMA zone would only add an empty lane); all present ones if none.
    std::vector<int> shown;
    for (std::size_t i = 0; i < m_frame.a->zones.size(); ++i)
        if (m_frame.a->zones[i].lock.present && m_frame.a->zones[i].lock.m.acquisitions > 0)
            shown.push_back(static_cast<int>(i));
    if (shown.empty())
        for (std::size_t i = 0; i < m_frame.a->zones.size(); ++i)
            if (m_frame.a->zones[i].lock.present) shown.push_back(static_cast<int>(i));
    const std::size_t cap = ab ? 6 : 12;
    if (shown.size() > cap) shown.resize(cap);
    for (int zi : shown) {
        out.push_back({m_frame.a.get(), m_frame.ha, zi, 0, ab});
        if (ab) {
            const auto& z = m_frame.a->zones[static_cast<std::size_t>(zi)];
            const int bi = m_frame.b->zone_index(z.node, z.zone);
            if (bi >= 0) out.push_back({m_frame.b.get(), m_frame.hb, bi, 1, true});
        }
    }
    return out;
}

void locks_view::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Window));
    m_hits.clear();
    if (!m_frame.a) {
        draw_message(p, rect(), tr("Waiting for the first snapshot"), pal);
        return;
    }
    const sim::snapshot& a = *m_frame.a;
    const QFontMetrics fm = fontMetrics();
    const int margin = fm.height() / 2;
    QRect area = rect().adjusted(margin, margin / 2, -margin, -margin / 2);
    p.setPen(text_color(pal));
    p.drawText(QRect(area.left(), area.top(), area.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
        fm.elidedText(key_numbers_text(a, m_frame.b.get()), Qt::ElideRight, area.width()));
    int y = area.top() + fm.height() + 2;
    if (!a.holds_kept) {
        p.setPen(warn_color(pal));
        p.drawText(QRect(area.left(), y, area.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
            fm.elidedText(
                tr("This run keeps no single lock holds: each lane shows its caller's share of hold time and the "
                   "contention over the run."),
                Qt::ElideRight, area.width()));
        y += fm.height() + 2;
    } else if (a.holds_dropped) {
        p.setPen(warn_color(pal));
        p.drawText(QRect(area.left(), y, area.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
            tr("%1 holds of the last interval were not copied into the snapshot (cap)").arg(a.holds_dropped));
        y += fm.height() + 2;
    }

    const auto ls = lanes();
    const int legend_h = fm.height() + 4;
    // Lanes as tall as useful (90 px each), the histogram gets the rest (at least a third).
    const int avail = area.bottom() - y - legend_h;
    const int lanes_need = static_cast<int>(ls.size()) * 90 + fm.height() + 4;
    const int lanes_h = std::min(lanes_need, avail - std::max(fm.height() * 6, avail / 3));
    const int hist_h = avail - lanes_h;
    const QRect lanes_r(area.left(), y, area.width(), lanes_h);
    // The window: what the user zoomed to, else about one wall second of virtual time at the current pace,
    // so the holds scroll by at a readable speed.
    if (m_auto_window)
        m_window_ns = a.run.vns_per_s > 0
            ? std::clamp<std::int64_t>(static_cast<std::int64_t>(a.run.vns_per_s), 50'000, 2'000'000'000)
            : 2'000'000;
    lane_window w;
    w.t1 = m_follow ? static_cast<std::int64_t>(a.sim_time_ns) : m_end_ns;
    w.t0 = w.t1 - m_window_ns;
    paint_lock_lanes(p, lanes_r, ls, w, pal, m_hits);

    // Legend: holder's node colours, waiting.
    int lx = area.left();
    const int ly = lanes_r.bottom() + 3;
    std::set<int> nodes(a.cpu_node.begin(), a.cpu_node.end());
    auto item = [&](const QColor& c, const QString& t) {
        const int tw = fm.horizontalAdvance(t);
        if (lx + 16 + tw > area.right()) return;
        p.fillRect(QRect(lx, ly + 3, 12, fm.height() - 6), c);
        p.setPen(text_color(pal));
        p.drawText(QRect(lx + 16, ly, tw + 2, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, t);
        lx += 16 + tw + fm.height();
    };
    if (a.holds_kept) {
        for (int n : nodes) item(node_color(n, pal), tr("held by a node %1 CPU").arg(n));
        QColor wc = warn_color(pal);
        wc.setAlpha(150);
        item(wc, tr("CPUs waiting"));
        item(faint_color(pal),
            tr("window %1 (wheel to zoom%2)")
                .arg(format_ns(static_cast<double>(m_window_ns)),
                    m_follow ? QString() : tr(", double click to follow")));
    }

    // Histogram of the selected zone (A, and B paired).
    const int sel = selected_zone_index(a, m_frame.selected_node, m_frame.selected_zone);
    const sim::lock_metrics* ma = sel >= 0 && a.zones[static_cast<std::size_t>(sel)].lock.present
        ? &a.zones[static_cast<std::size_t>(sel)].lock.m
        : nullptr;
    const sim::lock_metrics* mb = nullptr;
    if (ma && m_frame.b) {
        const int bi = m_frame.b->zone_index(
            a.zones[static_cast<std::size_t>(sel)].node, a.zones[static_cast<std::size_t>(sel)].zone);
        if (bi >= 0 && m_frame.b->zones[static_cast<std::size_t>(bi)].lock.present)
            mb = &m_frame.b->zones[static_cast<std::size_t>(bi)].lock.m;
    }
    const QRect hist_r(area.left(), lanes_r.bottom() + legend_h + 6, area.width(), hist_h - 6);
    const QString zone = sel >= 0
        ? zone_label(a.zones[static_cast<std::size_t>(sel)].node, a.zones[static_cast<std::size_t>(sel)].zone)
        : QString();
    paint_hold_histogram(p, hist_r, zone, ma, mb, m_frame.hold_threshold_ns, pal);
}

QString locks_view::tooltip_at(const QPoint& pos) const
{
    for (const hold_hit& h : m_hits) {
        if (!h.r.contains(pos)) continue;
        const sim::snapshot* s = h.side == 0 ? m_frame.a.get() : m_frame.b.get();
        const int node = s && h.h.cpu < s->cpu_node.size() ? s->cpu_node[h.h.cpu] : 0;
        return tr("<b>%1%2</b> on CPU %3 (node %4)<br>held %5 from %6 s<br>waited %7 before<br>%8 pages moved inside")
            .arg(m_frame.b ? (h.side == 0 ? QStringLiteral("A: ") : QStringLiteral("B: ")) : QString(),
                caller_name(h.h.caller))
            .arg(h.h.cpu)
            .arg(node)
            .arg(format_ns(h.h.hold_ns))
            .arg(static_cast<double>(h.h.start) / 1e9, 0, 'f', 9)
            .arg(format_ns(h.h.wait_ns))
            .arg(h.h.pages);
    }
    return {};
}

void locks_view::wheelEvent(QWheelEvent* e)
{
    const double steps = e->angleDelta().y() / 120.0;
    if (steps == 0) return;
    const double f = std::pow(1.5, -steps);
    if (!m_follow && m_frame.a) m_end_ns = std::min(m_end_ns, static_cast<std::int64_t>(m_frame.a->sim_time_ns));
    m_auto_window = false;
    m_window_ns = std::clamp<std::int64_t>(
        static_cast<std::int64_t>(static_cast<double>(m_window_ns) * f), 10'000, 10'000'000'000LL);
    update();
    e->accept();
}

void locks_view::mouseDoubleClickEvent(QMouseEvent*)
{
    m_follow = true;
    m_auto_window = true;
    update();
}

} // namespace pcplab::ui
