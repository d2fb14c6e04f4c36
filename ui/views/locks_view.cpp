// The zone->lock view: header, lanes, node legend and the hold-time histogram, one QPainter pass.
#include "ui/views/locks_view.hpp"

#include "ui/views/ab_summary.hpp"
#include "ui/views/header_parts.hpp"
#include "ui/views/view_style.hpp"

#include <QHBoxLayout>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <set>

namespace pcplab::ui
{

locks_view::locks_view(QWidget* parent)
    : view(parent)
    , m_picker(new zone_picker)
    , m_header(new header_line)
    , m_bar(new QWidget(this))
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
    setToolTip(tr("Wheel: zoom the time window · double click: follow the newest time"));
    auto* bar = new QHBoxLayout(m_bar);
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_picker);
    bar->addWidget(m_header, 1);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(m_bar);
    repaint_view_when_resized(m_bar, this);
    lay->addStretch(1);
    connect(m_picker, &zone_picker::chosen, this, [this] { update(); });
}

void locks_view::show_frame(const frame& f)
{
    if (f.a == m_frame.a && f.b == m_frame.b) return;
    m_frame = f;
    if (f.a) {
        m_picker->offer(*f.a);
        m_header->set_parts(key_numbers_parts(*f.a, f.b.get()));
    }
    update();
}

void locks_view::reset()
{
    m_frame = frame{};
    m_header->set_parts({});
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

std::vector<lane_input> locks_view::lanes(int max_lanes, int& left_out) const
{
    left_out = 0;
    std::vector<lane_input> out;
    if (!m_frame.a || !m_frame.ha) return out;
    const bool ab = m_frame.b && m_frame.hb;
    // The chosen zones whose lock was taken at all (an idle zone would only add an empty lane); all of the chosen
    // ones if none was.
    const std::vector<int> chosen = zones_of(*m_frame.a, m_picker->choice());
    std::vector<int> shown;
    for (int zi : chosen)
        if (m_frame.a->zone_at(zi).lock.m.acquisitions > 0) shown.push_back(zi);
    if (shown.empty()) shown = chosen;
    const std::size_t cap = static_cast<std::size_t>(std::max(1, ab ? max_lanes / 2 : max_lanes));
    if (shown.size() > cap) {
        left_out = static_cast<int>(shown.size() - cap);
        shown.resize(cap);
    }
    for (int zi : shown) {
        out.push_back({m_frame.a.get(), m_frame.ha, zi, 0, ab});
        if (ab) {
            const auto& z = m_frame.a->zone_at(zi);
            const int bi = m_frame.b->zone_index(z.node, z.zone);
            if (bi >= 0) out.push_back({m_frame.b.get(), m_frame.hb, bi, 1, true});
        }
    }
    return out;
}

int locks_view::histogram_zone() const
{
    if (!m_frame.a) return -1;
    // Of the chosen zones, the one whose lock had CPUs waiting longest (then the most taken).
    int best = -1;
    for (int zi : zones_of(*m_frame.a, m_picker->choice())) {
        const sim::lock_snapshot& l = m_frame.a->zone_at(zi).lock;
        if (!l.present) continue;
        if (best < 0) {
            best = zi;
            continue;
        }
        const sim::lock_metrics& b = m_frame.a->zone_at(best).lock.m;
        if (l.m.waiting_ns > b.waiting_ns || (l.m.waiting_ns == b.waiting_ns && l.m.acquisitions > b.acquisitions))
            best = zi;
    }
    return best;
}

void locks_view::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Window));
    m_hits.clear();
    m_left_out = 0;
    if (!m_frame.a) {
        draw_message(p, rect(), tr("Waiting for the first snapshot"), pal);
        return;
    }
    const sim::snapshot& a = *m_frame.a;
    const QFontMetrics fm = fontMetrics();
    const int margin = fm.height() / 2;
    QRect area = rect().adjusted(margin, m_bar->geometry().bottom() + 2, -margin, -margin / 2);
    int y = area.top();
    if (!a.holds_kept) {
        // A recording made without hold records: say what the lanes show instead.
        QColor dim = text_color(pal);
        dim.setAlpha(190);
        p.setPen(dim);
        y += draw_parts(p, QRect(area.left(), y, area.width(), 2 * fm.height()),
            {tr("No hold records in this run:"), tr("each lane shows the lock's hold time per caller"),
                tr("and, under it, contention over the run")},
            2);
        y += 2;
    } else if (a.holds_dropped) {
        p.setPen(warn_color(pal));
        p.drawText(QRect(area.left(), y, area.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
            fm.elidedText(
                tr("%1 holds of the last interval were left out of the snapshot (its cap)").arg(a.holds_dropped),
                Qt::ElideRight, area.width()));
        y += fm.height() + 2;
    }

    const int legend_h = 2 * fm.height() + 4;
    const int avail = area.bottom() - y - legend_h;
    // The histogram keeps a third of the height (six lines at least); the lanes get the rest, each two lines of
    // text tall if there is room and at most 90 px, with their time axis under them. A/B pairs the lanes: where
    // the room holds one lane (1280x720), the pair shrinks to a line each (paint_lock_lanes' floor) rather than
    // take the histogram's room, which left only its title.
    const int axis_h = fm.height() + 4;
    const int lane_min = 2 * fm.height() + 3;
    const int lane_floor = fm.height() + 4;
    const int lanes_room = avail - std::max(fm.height() * 6, avail / 3);
    const auto ls = lanes(std::max(1, (lanes_room - axis_h) / lane_min), m_left_out);
    const int n = std::max(1, static_cast<int>(ls.size()));
    const int lane_h = std::clamp((lanes_room - axis_h) / n, lane_floor, lane_min);
    const int lanes_h = std::max(n * lane_h + axis_h, std::min(n * 90 + axis_h, lanes_room));
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

    // Legend: what the shades mean, the holders' node colours, waiting, the window.
    int lx = area.left();
    int ly = lanes_r.bottom() + 3;
    std::set<int> nodes(a.cpu_node.begin(), a.cpu_node.end());
    auto item = [&](const QColor& c, const QString& t) {
        const int tw = fm.horizontalAdvance(t);
        if (lx + 16 + tw > area.right()) {
            if (ly > lanes_r.bottom() + 3) return; // the second line is full too: left out
            lx = area.left();
            ly += fm.height();
        }
        if (c.isValid()) p.fillRect(QRect(lx, ly + 3, 12, fm.height() - 6), c);
        p.setPen(text_color(pal));
        p.drawText(QRect(lx + 16, ly, tw + 2, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, t);
        lx += 16 + tw + fm.height();
    };
    if (m_left_out > 0)
        // First, so that a full legend never drops it: lanes missing without a word read as idle zones.
        item(QColor(),
            tr("%1 without room for a lane: choose one above")
                .arg(count_of(m_left_out, tr("more zone"), tr("more zones"))));
    if (a.holds_kept) {
        item(QColor(), tr("shade: share of each pixel's time the lock was held"));
        for (int n : nodes) item(node_color(n, pal), tr("by a node %1 CPU").arg(n));
        item(warn_color(pal), tr("CPUs waiting (mean per pixel)"));
        item(faint_color(pal),
            tr("window %1 (wheel to zoom%2)")
                .arg(format_ns(static_cast<double>(m_window_ns)),
                    m_follow ? QString() : tr(", double click to follow")));
    }

    // Histogram of the chosen zone (A, and B paired).
    const int sel = histogram_zone();
    const sim::lock_metrics* ma = sel >= 0 ? &a.zone_at(sel).lock.m : nullptr;
    const sim::lock_metrics* mb = nullptr;
    if (ma && m_frame.b) {
        const int bi = m_frame.b->zone_index(a.zone_at(sel).node, a.zone_at(sel).zone);
        if (bi >= 0 && m_frame.b->zone_at(bi).lock.present) mb = &m_frame.b->zone_at(bi).lock.m;
    }
    const QRect hist_r(area.left(), lanes_r.bottom() + legend_h + 6, area.width(), hist_h - 6);
    QString zone = sel >= 0 ? zone_label(a.zone_at(sel).node, a.zone_at(sel).zone) : QString();
    if (sel >= 0 && m_picker->choice().all_nodes() && zones_of(a, m_picker->choice()).size() > 1)
        zone += tr(" (the busiest)");
    paint_hold_histogram(p, hist_r, zone, ma, mb, static_cast<std::int64_t>(a.run.hold_threshold_ns), pal);
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
