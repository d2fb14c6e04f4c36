// zone->lock lanes: per zone, the holds of the time window as rectangles (holder's node colour, caller label)
// over the number of CPUs waiting for the lock; or, without hold records, the aggregate per caller.
#include "ui/views/lock_paint.hpp"

#include "ui/views/time_ticks.hpp"
#include "ui/views/view_style.hpp"

#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>

namespace pcplab::ui
{

namespace
{

constexpr std::size_t k_max_hits = 4000;
constexpr int k_levels = 16; // shades of a lane's column, from a sliver held to held throughout

std::int64_t start_of(const sim::lock_hold_record& h)
{
    return static_cast<std::int64_t>(h.start);
}

// Holds of the lane's zone whose wait or hold overlaps [t0, t1], from the history's zone->lock holds (sorted
// by start). A hold that began before the window can reach into it, and so can a wait before a later start:
// the search starts early by the longest hold or wait the history has seen. (A fixed 10 ms left a 12.6 ms
// rmqueue_bulk hold out, and its lane looked idle while 55 CPUs waited on it.)
template <typename F> void for_each_hold(const history& hist, int node, int zone, lane_window w, F f)
{
    const auto& holds = hist.zone_lock_holds();
    const std::int64_t reach = hist.zone_lock_reach_ns();
    auto it = std::lower_bound(holds.begin(), holds.end(), w.t0 - reach,
        [](const sim::lock_hold_record& h, std::int64_t t) { return start_of(h) < t; });
    for (; it != holds.end(); ++it) {
        const sim::lock_hold_record& h = *it;
        const std::int64_t wait_from = start_of(h) - static_cast<std::int64_t>(h.wait_ns);
        if (wait_from > w.t1 && start_of(h) > w.t1 + reach) break; // sorted: nothing later can reach back
        if (h.node != node || h.zone != zone) continue;
        if (start_of(h) + static_cast<std::int64_t>(h.hold_ns) < w.t0 || wait_from > w.t1) continue;
        f(h);
    }
}

// Per pixel column: how much of its time the lock was held and by which node's CPUs, and how many CPU-ns were
// spent waiting in it. A hold adds the part of it that lies in each column it crosses, so a column is shaded by
// the share of its time the lock was held: a lock held 2 % of the time looks 2 % held, however many holds.
// An interval adds its two partial end columns directly and its whole columns through a difference array, so a
// wait across the whole window costs as little as a short one (316 CPUs queueing 1 ms each at ~1 us per pixel
// made the per-column loop the lanes' largest cost).
struct columns {
    static constexpr int k_nodes = 8; // node colours cycle after 8
    int width = 0;
    double ns_per_px = 1;
    std::vector<double> held, waiting;
    std::vector<float> by_node; // width x k_nodes: held ns per holder's node
    std::vector<double> d_held, d_waiting, d_by_node; // whole-column counts starting (+1) / ending (-1) there
    void reset(int w, double px_ns)
    {
        width = w;
        ns_per_px = px_ns;
        const auto n = static_cast<std::size_t>(w) + 1;
        for (auto* v : {&held, &waiting, &d_held, &d_waiting}) v->assign(n, 0);
        by_node.assign(n * k_nodes, 0);
        d_by_node.assign(n * k_nodes, 0);
    }
    void add_wait(double a, double b) { add(a, b, waiting, d_waiting, 1, 0); }
    void add_hold(double a, double b, std::size_t node)
    {
        add(a, b, held, d_held, 1, 0);
        add_node(a, b, node);
    }
    // Folds the whole columns into the totals: call once, after the last add.
    void finish()
    {
        double h = 0, wt = 0;
        std::array<double, k_nodes> bn{};
        for (std::size_t x = 0; x < static_cast<std::size_t>(width); ++x) {
            h += d_held[x];
            wt += d_waiting[x];
            held[x] += h * ns_per_px;
            waiting[x] += wt * ns_per_px;
            for (std::size_t n = 0; n < k_nodes; ++n) {
                bn[n] += d_by_node[x * k_nodes + n];
                by_node[x * k_nodes + n] += static_cast<float>(bn[n] * ns_per_px);
            }
        }
    }

private:
    // [a, b) in ns from the window start, into dst[x * stride + off] (partial end columns) and diff (whole ones).
    template <typename V>
    void add(double a, double b, V& dst, std::vector<double>& diff, std::size_t stride, std::size_t off)
    {
        a = std::max(a, 0.0);
        b = std::min(b, ns_per_px * width);
        if (!(b > a)) return;
        const auto xa = static_cast<std::size_t>(a / ns_per_px);
        const auto xb = std::min(static_cast<std::size_t>(b / ns_per_px), static_cast<std::size_t>(width));
        using T = typename V::value_type;
        if (xa == xb) {
            dst[xa * stride + off] += static_cast<T>(b - a);
            return;
        }
        dst[xa * stride + off] += static_cast<T>((xa + 1) * ns_per_px - a);
        dst[xb * stride + off] += static_cast<T>(b - xb * ns_per_px); // xb == width: the spare slot
        diff[(xa + 1) * stride + off] += 1;
        diff[xb * stride + off] -= 1;
    }
    void add_node(double a, double b, std::size_t node) { add(a, b, by_node, d_by_node, k_nodes, node); }
};

QColor blend(const QColor& bg, const QColor& fg, double f)
{
    return QColor::fromRgbF(static_cast<float>(bg.redF() + (fg.redF() - bg.redF()) * f),
        static_cast<float>(bg.greenF() + (fg.greenF() - bg.greenF()) * f),
        static_cast<float>(bg.blueF() + (fg.blueF() - bg.blueF()) * f));
}

void paint_holds(QPainter& p, const QRect& band, const QRect& wait_band, const lane_input& in, lane_window w,
    const QPalette& pal, std::vector<hold_hit>& hits)
{
    const sim::zone_snapshot& z = in.snap->zone_at(in.zi);
    const double span = static_cast<double>(w.t1 - w.t0);
    const int width = band.width();
    if (width <= 0 || span <= 0) return; // a window too small to draw in (it is being laid out)
    const QFontMetrics fm = p.fontMetrics();
    thread_local columns c;
    c.reset(width, span / width);
    struct wide {
        QRect r;
        sim::lock_hold_record h;
    };
    std::vector<wide> wides;
    for_each_hold(*in.hist, z.node, z.zone, w, [&](const sim::lock_hold_record& h) {
        const double start = static_cast<double>(start_of(h) - w.t0);
        const double end = start + h.hold_ns;
        if (h.wait_ns) c.add_wait(start - static_cast<double>(h.wait_ns), start);
        const auto node = static_cast<std::size_t>(std::clamp(in.snap->node_of_cpu(h.cpu), 0, columns::k_nodes - 1));
        c.add_hold(start, end, node);
        // Holds wide enough to see get a gap before them, their caller's name and a hover text.
        const int x0 = static_cast<int>(start / c.ns_per_px), x1 = static_cast<int>(end / c.ns_per_px);
        if (x1 - x0 >= 3 && x1 > 0 && x0 < width) {
            const int l = std::max(0, x0), r = std::min(width, x1);
            wides.push_back({QRect(band.left() + l, band.top(), r - l, band.height()), h});
        }
    });
    c.finish();
    // Each column in its main holder's node colour, as strong as the share of its time the lock was held (in
    // k_levels steps, so that equal neighbours merge into one rectangle; a column held at all shows at least one).
    const QColor bg = panel_color(pal);
    auto level_at = [&](int x, int* node) {
        const auto i = static_cast<std::size_t>(x);
        const double share = std::min(1.0, c.held[i] / c.ns_per_px);
        int best = 0;
        for (int n = 1; n < columns::k_nodes; ++n)
            if (c.by_node[i * columns::k_nodes + static_cast<std::size_t>(n)]
                > c.by_node[i * columns::k_nodes + static_cast<std::size_t>(best)])
                best = n;
        *node = best;
        return share > 0 ? std::max(1, static_cast<int>(std::lround(share * k_levels))) : 0;
    };
    for (int x = 0; x < width;) {
        int node = 0, n2 = 0;
        const int level = level_at(x, &node);
        int e = x + 1;
        while (e < width && level_at(e, &n2) == level && (level == 0 || n2 == node)) ++e;
        if (level > 0)
            p.fillRect(QRect(band.left() + x, band.top(), e - x, band.height()),
                blend(bg, node_color(node, pal), static_cast<double>(level) / k_levels));
        x = e;
    }
    // The few callers' names measured once per lane, not once per hold (text shaping is slow).
    std::vector<std::pair<QString, int>> names;
    auto name_of = [&](unsigned caller) -> const std::pair<QString, int>& {
        if (caller >= names.size()) names.resize(caller + 1, {QString(), -1});
        auto& n = names[caller];
        if (n.second < 0) {
            n.first = caller_name(static_cast<mm::lock_caller>(caller));
            n.second = fm.horizontalAdvance(n.first);
        }
        return n;
    };
    for (const wide& wd : wides) {
        p.setPen(QPen(pal.color(QPalette::Window), 1));
        p.drawLine(wd.r.topLeft(), wd.r.bottomLeft()); // a gap between consecutive holds
        const auto& [label, label_w] = name_of(static_cast<unsigned>(wd.h.caller));
        if (wd.r.width() > label_w + 6 && wd.r.height() >= fm.height()) {
            p.setPen(is_dark(pal) ? QColor(20, 20, 20) : QColor(255, 255, 255));
            p.drawText(wd.r.adjusted(3, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter, label);
        }
        if (hits.size() < k_max_hits) hits.push_back({wd.r, wd.h, in.side});
    }

    // CPUs waiting, the mean over each column, scaled to the most of the window.
    double most = 0;
    for (int x = 0; x < width; ++x) most = std::max(most, c.waiting[static_cast<std::size_t>(x)] / c.ns_per_px);
    if (most <= 0) {
        p.setPen(faint_color(pal));
        p.drawLine(wait_band.left(), wait_band.bottom(), wait_band.right(), wait_band.bottom());
        return;
    }
    const QColor fill = blend(bg, warn_color(pal), 0.6);
    for (int x = 0; x < width;) {
        auto height_at = [&](int i) {
            const double v = c.waiting[static_cast<std::size_t>(i)] / c.ns_per_px;
            return v > 0 ? std::max(1, static_cast<int>(v / most * wait_band.height() + 0.5)) : 0;
        };
        const int h = height_at(x);
        int e = x + 1;
        while (e < width && height_at(e) == h) ++e;
        if (h > 0) p.fillRect(QRect(wait_band.left() + x, wait_band.bottom() - h + 1, e - x, h), fill);
        x = e;
    }
    const QString most_text = QObject::tr("up to %1 CPUs waiting").arg(most, 0, 'f', most < 10 ? 1 : 0);
    const int tw = fm.horizontalAdvance(most_text) + 4;
    if (wait_band.height() >= fm.height() - 2 && tw < wait_band.width() / 3) {
        // A backdrop: the label sits on the waiting area's right end, where bars may reach.
        const QRect lr(wait_band.right() - tw, wait_band.center().y() - fm.height() / 2, tw, fm.height());
        QColor back = bg;
        back.setAlpha(220);
        p.fillRect(lr, back);
        p.setPen(text_color(pal));
        p.drawText(lr, Qt::AlignCenter, most_text);
    }
}

// Without hold records: the share of hold time per caller across the band, and contention % over the history.
void paint_aggregate(QPainter& p, const QRect& band, const QRect& wait_band, const lane_input& in, const QPalette& pal)
{
    const sim::zone_snapshot& z = in.snap->zone_at(in.zi);
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
    // Contention over the run so far (the history's time bins: the share of each bin's time during which some
    // CPU waited, the figure sim::contention_pct gives for the whole run), as an area.
    const activity_bins& bins = in.hist->bins();
    const int zi = bins.zone_index(z.node, z.zone);
    const std::size_t n = bins.bins();
    const QColor fill = blend(panel_color(pal), warn_color(pal), 0.6);
    const int width = wait_band.width();
    double most = 0;
    for (int x = 0; x < width && n && zi >= 0; ++x) {
        const std::size_t b = n * static_cast<std::size_t>(x) / static_cast<std::size_t>(width);
        const double v = bins.zone_contention_share(static_cast<std::size_t>(zi), b);
        most = std::max(most, v);
        const int h = static_cast<int>(v * wait_band.height());
        if (h > 0) p.fillRect(QRect(wait_band.left() + x, wait_band.bottom() - h + 1, 1, h), fill);
    }
    p.setPen(text_color(pal));
    p.drawText(wait_band.adjusted(0, 0, -2, 0), Qt::AlignRight | Qt::AlignVCenter,
        QObject::tr("time some CPU waited, up to %1 %").arg(most * 100, 0, 'f', 1));
}

} // namespace

void paint_lock_lanes(QPainter& p, const QRect& area, const std::vector<lane_input>& lanes, lane_window w,
    const QPalette& pal, std::vector<hold_hit>& hits, std::vector<QRect>* bands)
{
    const QFontMetrics fm = p.fontMetrics();
    if (lanes.empty()) {
        draw_message(p, area, QObject::tr("No zone->lock to show yet"), pal);
        return;
    }
    const bool kept = lanes.front().snap->holds_kept;
    const int label_w = fm.horizontalAdvance(QStringLiteral("B node 00 Movable ")) + 4;
    const int axis_h = kept ? fm.height() + 4 : 0;
    const int lane_h = std::clamp((area.height() - axis_h) / static_cast<int>(lanes.size()), fm.height() + 4, 90);
    const QRect plot(
        area.left() + label_w, area.top(), area.width() - label_w, lane_h * static_cast<int>(lanes.size()));
    if (plot.width() < 8 * fm.horizontalAdvance(QLatin1Char('0'))) return; // no room yet (the window is laid out)
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        const lane_input& in = lanes[i];
        const sim::zone_snapshot& z = in.snap->zone_at(in.zi);
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
        if (bands) bands->push_back(band);
        if (in.snap->holds_kept)
            paint_holds(p, band, wait_band, in, w, pal, hits);
        else
            paint_aggregate(p, band, wait_band, in, pal);
    }
    if (!kept) return;
    // Time axis under the lanes: ticks counting back from the window's end, which is labelled with its time.
    const int ay = plot.bottom() + 2;
    const double span = static_cast<double>(w.t1 - w.t0);
    p.setPen(text_color(pal));
    const QString end_label = QObject::tr("at %1").arg(time_label(static_cast<double>(w.t1), span / 10));
    const int end_w = fm.horizontalAdvance(end_label);
    p.drawText(QRect(plot.right() - end_w, ay + 2, end_w + 1, fm.height()), Qt::AlignRight | Qt::AlignTop, end_label);
    p.drawLine(plot.right(), ay, plot.right(), ay + 3);
    for (const time_tick& t :
        time_ticks(static_cast<double>(w.t0), static_cast<double>(w.t1), plot.width(), fm, true, end_w + fm.height())) {
        const int x = plot.left() + static_cast<int>(t.x);
        p.drawLine(x, ay, x, ay + 3);
        const int tw = fm.horizontalAdvance(t.label);
        const int tx = std::clamp(x - tw / 2, plot.left(), plot.right() - tw);
        p.drawText(QRect(tx, ay + 2, tw + 1, fm.height()), Qt::AlignLeft | Qt::AlignTop, t.label);
    }
}

} // namespace pcplab::ui
