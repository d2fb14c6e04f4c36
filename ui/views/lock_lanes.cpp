// zone->lock lanes: per zone, the holds of the time window as rectangles (holder's node colour, caller label)
// over the number of CPUs waiting for the lock; or, without hold records, the aggregate per caller.
#include "views/lock_paint.hpp"

#include "views/view_style.hpp"

#include <QPainter>

#include <algorithm>
#include <array>

namespace pcplab::ui
{

namespace
{

constexpr std::size_t k_max_hits = 4000;

std::int64_t start_of(const sim::lock_hold_record& h)
{
    return static_cast<std::int64_t>(h.start);
}

int node_of(const sim::snapshot& s, int cpu)
{
    return cpu >= 0 && cpu < static_cast<int>(s.cpu_node.size()) ? s.cpu_node[static_cast<std::size_t>(cpu)] : 0;
}

// Holds of the lane's zone whose wait or hold overlaps [t0, t1], from the history's zone->lock holds (sorted
// by start). A hold that began before the window can reach into it, and so can a wait before a later start:
// the search starts early by the longest hold or wait the engine allows to matter here (10 ms).
template <typename F>
void for_each_hold(const std::deque<sim::lock_hold_record>& holds, int node, int zone, lane_window w, F f)
{
    constexpr std::int64_t k_reach = 10'000'000;
    auto it = std::lower_bound(holds.begin(), holds.end(), w.t0 - k_reach,
        [](const sim::lock_hold_record& h, std::int64_t t) { return start_of(h) < t; });
    for (; it != holds.end(); ++it) {
        const sim::lock_hold_record& h = *it;
        const std::int64_t wait_from = start_of(h) - static_cast<std::int64_t>(h.wait_ns);
        if (wait_from > w.t1 && start_of(h) > w.t1 + k_reach) break; // sorted: nothing later can reach back
        if (h.node != node || h.zone != zone) continue;
        if (start_of(h) + static_cast<std::int64_t>(h.hold_ns) < w.t0 || wait_from > w.t1) continue;
        f(h);
    }
}

void paint_holds(QPainter& p, const QRect& band, const QRect& wait_band, const lane_input& in, lane_window w,
    const QPalette& pal, std::vector<hold_hit>& hits)
{
    const sim::zone_snapshot& z = in.snap->zones[static_cast<std::size_t>(in.zi)];
    const double span = static_cast<double>(w.t1 - w.t0);
    const int width = band.width();
    if (width <= 0 || span <= 0) return; // a window too small to draw in (it is being laid out)
    auto col = [&](std::int64_t t) { return static_cast<int>(static_cast<double>(t - w.t0) / span * width); };
    const QFontMetrics fm = p.fontMetrics();
    // Per pixel column: the node of a narrow hold drawn there (-1: none), and how many CPUs wait (difference
    // array). Thousands of holds per window cost one pass and one rectangle per run of equal columns.
    std::vector<int> owner(static_cast<std::size_t>(width), -1);
    std::vector<int> waiting(static_cast<std::size_t>(width) + 1, 0);
    struct wide {
        QRect r;
        sim::lock_hold_record h;
    };
    std::vector<wide> wides;
    for_each_hold(in.hist->zone_lock_holds(), z.node, z.zone, w, [&](const sim::lock_hold_record& h) {
        const std::int64_t start = start_of(h);
        if (h.wait_ns) {
            const int a = std::clamp(col(start - static_cast<std::int64_t>(h.wait_ns)), 0, width);
            const int b = std::clamp(col(start), 0, width);
            if (b > a) {
                ++waiting[static_cast<std::size_t>(a)];
                --waiting[static_cast<std::size_t>(b)];
            }
        }
        const std::int64_t end = start + static_cast<std::int64_t>(h.hold_ns);
        if (end < w.t0 || start > w.t1) return;
        const int x0 = std::clamp(col(start), 0, width - 1), x1 = std::clamp(col(end), x0, width - 1);
        if (x1 - x0 < 3) {
            for (int x = x0; x <= x1; ++x) owner[static_cast<std::size_t>(x)] = node_of(*in.snap, h.cpu);
            return;
        }
        wides.push_back({QRect(band.left() + x0, band.top(), x1 - x0, band.height()), h});
    });
    for (int x = 0; x < width;) {
        const int o = owner[static_cast<std::size_t>(x)];
        int e = x + 1;
        while (e < width && owner[static_cast<std::size_t>(e)] == o) ++e;
        if (o >= 0) p.fillRect(QRect(band.left() + x, band.top(), e - x, band.height()), node_color(o, pal));
        x = e;
    }
    for (const wide& wd : wides) {
        p.fillRect(wd.r, node_color(node_of(*in.snap, wd.h.cpu), pal));
        p.setPen(QPen(pal.color(QPalette::Window), 1));
        p.drawLine(wd.r.topLeft(), wd.r.bottomLeft()); // a gap between consecutive holds
        const QString label = caller_name(wd.h.caller);
        if (wd.r.width() > fm.horizontalAdvance(label) + 6 && wd.r.height() >= fm.height()) {
            p.setPen(is_dark(pal) ? QColor(20, 20, 20) : QColor(255, 255, 255));
            p.drawText(wd.r.adjusted(3, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter, label);
        }
        if (hits.size() < k_max_hits) hits.push_back({wd.r, wd.h, in.side});
    }

    // CPUs waiting over the window, per pixel column, scaled to the most waiting at once.
    int most = 0;
    for (int x = 0, level = 0; x < width; ++x) most = std::max(most, level += waiting[static_cast<std::size_t>(x)]);
    if (most == 0) {
        p.setPen(faint_color(pal));
        p.drawLine(wait_band.left(), wait_band.bottom(), wait_band.right(), wait_band.bottom());
        return;
    }
    QColor fill = warn_color(pal);
    fill.setAlpha(150);
    for (int x = 0, level = 0; x < width;) {
        level += waiting[static_cast<std::size_t>(x)];
        int e = x + 1;
        while (e < width && waiting[static_cast<std::size_t>(e)] == 0) ++e; // same level until the next change
        if (level > 0) {
            const int h = std::max(1, level * wait_band.height() / most);
            p.fillRect(QRect(wait_band.left() + x, wait_band.bottom() - h + 1, e - x, h), fill);
        }
        x = e;
    }
    p.setPen(text_color(pal));
    p.drawText(
        wait_band.adjusted(0, 0, -2, 0), Qt::AlignRight | Qt::AlignVCenter, QObject::tr("up to %1 waiting").arg(most));
}

// Without hold records: the share of hold time per caller across the band, and contention % over the history.
void paint_aggregate(QPainter& p, const QRect& band, const QRect& wait_band, const lane_input& in, const QPalette& pal)
{
    const sim::zone_snapshot& z = in.snap->zones[static_cast<std::size_t>(in.zi)];
    const sim::lock_metrics& m = z.lock.m;
    const QFontMetrics fm = p.fontMetrics();
    double total = 0;
    for (auto v : m.hold_ns_by_caller) total += static_cast<double>(v);
    if (total <= 0) {
        draw_message(p, band, QObject::tr("no holds yet"), pal);
    } else {
        int x = band.left();
        for (unsigned c = 0; c < m.hold_ns_by_caller.size(); ++c) {
            const double share = static_cast<double>(m.hold_ns_by_caller[c]) / total;
            const int w = static_cast<int>(share * band.width());
            if (w <= 0) continue;
            const QRect r(x, band.top(), w, band.height());
            p.fillRect(r, series_color(static_cast<int>(c), pal));
            const QString label = QStringLiteral("%1 %2%")
                                      .arg(caller_name(static_cast<mm::lock_caller>(c)))
                                      .arg(share * 100, 0, 'f', 0);
            if (w > fm.horizontalAdvance(label) + 6) {
                p.setPen(is_dark(pal) ? QColor(20, 20, 20) : QColor(255, 255, 255));
                p.drawText(r.adjusted(3, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, label);
            }
            x += w;
        }
    }
    // Contention over the whole history (recent % per sample), as an area.
    const auto& smp = in.hist->samples();
    QColor fill = warn_color(pal);
    fill.setAlpha(150);
    const std::size_t n = smp.size();
    const int width = wait_band.width();
    double most = 0;
    for (int x = 0; x < width && n; ++x) {
        const std::size_t i = n * static_cast<std::size_t>(x) / static_cast<std::size_t>(width);
        if (static_cast<std::size_t>(in.zi) >= smp[i].zones.size()) continue;
        const double v = smp[i].zones[static_cast<std::size_t>(in.zi)].contention_pct_recent;
        most = std::max(most, v);
        const int h = static_cast<int>(v / 100.0 * wait_band.height());
        if (h > 0) p.fillRect(QRect(wait_band.left() + x, wait_band.bottom() - h + 1, 1, h), fill);
    }
    p.setPen(text_color(pal));
    p.drawText(wait_band.adjusted(0, 0, -2, 0), Qt::AlignRight | Qt::AlignVCenter,
        QObject::tr("contention over the run, up to %1 %").arg(most, 0, 'f', 1));
}

} // namespace

void paint_lock_lanes(QPainter& p, const QRect& area, const std::vector<lane_input>& lanes, lane_window w,
    const QPalette& pal, std::vector<hold_hit>& hits)
{
    const QFontMetrics fm = p.fontMetrics();
    if (lanes.empty()) {
        draw_message(p, area, QObject::tr("No zone->lock to show yet"), pal);
        return;
    }
    const bool kept = lanes.front().snap->holds_kept;
    const int label_w = fm.horizontalAdvance(QStringLiteral("B node 00 Movable ")) + 4;
    const int axis_h = kept ? fm.height() + 4 : 0;
    const int lane_h = std::clamp((area.height() - axis_h) / static_cast<int>(lanes.size()), 14, 90);
    const QRect plot(
        area.left() + label_w, area.top(), area.width() - label_w, lane_h * static_cast<int>(lanes.size()));
    if (plot.width() < 8 * fm.horizontalAdvance(QLatin1Char('0'))) return; // no room yet (the window is laid out)
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        const lane_input& in = lanes[i];
        const sim::zone_snapshot& z = in.snap->zones[static_cast<std::size_t>(in.zi)];
        const int y = plot.top() + static_cast<int>(i) * lane_h;
        const QRect lane(plot.left(), y, plot.width(), lane_h - 3);
        p.fillRect(lane, panel_color(pal));
        const QRect band(lane.left(), lane.top() + 1, lane.width(), lane.height() * 62 / 100);
        const QRect wait_band(lane.left(), band.bottom() + 2, lane.width(), lane.bottom() - band.bottom() - 2);
        p.setPen(in.ab ? side_color(in.side, pal) : text_color(pal));
        const QString label = (in.ab ? (in.side == 0 ? QStringLiteral("A ") : QStringLiteral("B ")) : QString())
            + zone_label(z.node, z.zone);
        p.drawText(QRect(area.left(), y, label_w - 4, lane_h - 3), Qt::AlignLeft | Qt::AlignVCenter,
            fm.elidedText(label, Qt::ElideRight, label_w - 4));
        if (in.snap->holds_kept)
            paint_holds(p, band, wait_band, in, w, pal, hits);
        else
            paint_aggregate(p, band, wait_band, in, pal);
    }
    if (!kept) return;
    // Time axis under the lanes: relative to the window's end.
    const int ay = plot.bottom() + 2;
    const double span = static_cast<double>(w.t1 - w.t0);
    p.setPen(text_color(pal));
    for (int k = 0; k <= 4; ++k) {
        const int x = plot.left() + plot.width() * k / 4;
        p.drawLine(x, ay, x, ay + 3);
        const QString t = k == 4 ? QObject::tr("%1 s").arg(static_cast<double>(w.t1) / 1e9, 0, 'f', 6)
                                 : QStringLiteral("−") + format_ns(span * (4 - k) / 4);
        const int tw = fm.horizontalAdvance(t);
        const int tx = std::max(plot.left(), std::min(x - tw / 2, plot.right() - tw));
        p.drawText(QRect(tx, ay + 2, tw + 2, fm.height()), Qt::AlignLeft | Qt::AlignTop, t);
    }
}

} // namespace pcplab::ui
