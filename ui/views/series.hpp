// From history samples to plottable points, cheaply: only the visible span, at most a few points per pixel.
// Step series keep only the points where the value changes; rates are exact over each bucket because they are
// computed from cumulative counters (difference / time) rather than averaged.
#pragma once

#include "ui/model/history.hpp"

#include <QVector>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

namespace pcplab::ui
{

struct xy {
    QVector<double> x, y;
    void clear()
    {
        x.clear();
        y.clear();
    }
    void add(double a, double b)
    {
        x.push_back(a);
        y.push_back(b);
    }
};

inline double seconds(std::int64_t ns)
{
    return static_cast<double>(ns) / 1e9;
}

// The newest sample time of A and B, in seconds (0 without samples).
inline double newest_time(const history* a, const history* b)
{
    double t = 0;
    for (const history* h : {a, b})
        if (h && !h->samples().empty()) t = std::max(t, seconds(h->samples().back().t_ns));
    return t;
}

// Samples [first, last) whose time lies in [lo_s, hi_s], widened by one on each side so lines reach the edges.
struct span {
    std::size_t first = 0, last = 0;
    std::size_t size() const { return last - first; }
};
inline span visible_span(const std::deque<sample>& s, double lo_s, double hi_s)
{
    auto lo = std::lower_bound(s.begin(), s.end(), lo_s, [](const sample& a, double t) { return seconds(a.t_ns) < t; });
    auto hi = std::upper_bound(s.begin(), s.end(), hi_s, [](double t, const sample& a) { return t < seconds(a.t_ns); });
    span out{static_cast<std::size_t>(lo - s.begin()), static_cast<std::size_t>(hi - s.begin())};
    if (out.first > 0) --out.first;
    if (out.last < s.size()) ++out.last;
    return out;
}

// A value that holds until it changes: one point per change (and the last sample), drawn with lsStepLeft.
// NaN where value() returns NaN (e.g. high 0 on a log axis).
template <typename F> void step_series(const std::deque<sample>& s, span sp, F value, xy& out)
{
    out.clear();
    double prev = std::numeric_limits<double>::quiet_NaN();
    bool have = false;
    for (std::size_t i = sp.first; i < sp.last; ++i) {
        const double v = value(s[i]);
        const bool same = have && (v == prev || (std::isnan(v) && std::isnan(prev)));
        if (!same || i + 1 == sp.last) out.add(seconds(s[i].t_ns), v);
        prev = v;
        have = true;
    }
}

// A level (gauge) decimated to at most `max_points` buckets, keeping each bucket's largest value so that
// spikes survive thinning.
template <typename F> void level_series(const std::deque<sample>& s, span sp, std::size_t max_points, F value, xy& out)
{
    out.clear();
    const std::size_t n = sp.size();
    if (!n) return;
    const std::size_t per = std::max<std::size_t>(1, (n + max_points - 1) / std::max<std::size_t>(1, max_points));
    for (std::size_t b = sp.first; b < sp.last; b += per) {
        const std::size_t e = std::min(sp.last, b + per);
        double m = -std::numeric_limits<double>::infinity();
        for (std::size_t i = b; i < e; ++i) m = std::max(m, value(s[i]));
        out.add(seconds(s[e - 1].t_ns), m);
    }
}

// The rate of a cumulative counter, per second of virtual time, over buckets of consecutive samples (at most
// `max_points`). A counter that went backwards (a reset) gives no point for that bucket.
template <typename F>
void rate_series(const std::deque<sample>& s, span sp, std::size_t max_points, F cumulative, double scale, xy& out)
{
    out.clear();
    if (sp.size() < 2) return;
    const std::size_t n = sp.size() - 1;
    const std::size_t per = std::max<std::size_t>(1, (n + max_points - 1) / std::max<std::size_t>(1, max_points));
    for (std::size_t b = sp.first; b + 1 < sp.last; b += per) {
        const std::size_t e = std::min(sp.last - 1, b + per);
        const double dt = seconds(s[e].t_ns - s[b].t_ns);
        const double c0 = cumulative(s[b]), c1 = cumulative(s[e]);
        if (dt <= 0 || c1 < c0) continue;
        out.add(seconds(s[e].t_ns), (c1 - c0) / dt * scale);
    }
}

// The share of one cumulative counter in another over each bucket (e.g. sys time in all accounted CPU time):
// (num(e) - num(b)) / (den(e) - den(b)) x scale. Buckets where den did not grow give no point.
template <typename N, typename D>
void share_series(const std::deque<sample>& s, span sp, std::size_t max_points, N num, D den, double scale, xy& out)
{
    out.clear();
    if (sp.size() < 2) return;
    const std::size_t n = sp.size() - 1;
    const std::size_t per = std::max<std::size_t>(1, (n + max_points - 1) / std::max<std::size_t>(1, max_points));
    for (std::size_t b = sp.first; b + 1 < sp.last; b += per) {
        const std::size_t e = std::min(sp.last - 1, b + per);
        const double d = den(s[e]) - den(s[b]);
        if (d <= 0) continue;
        out.add(seconds(s[e].t_ns), (num(s[e]) - num(s[b])) / d * scale);
    }
}

// Which history samples a view has not taken yet. `take` returns the index of the first new sample and whether
// everything must be rebuilt (another machine, a reboot, or the old samples were thinned).
class sample_cursor
{
public:
    struct news {
        bool rebuild = false;
        std::size_t first = 0; // index into samples() of the first new sample
    };
    news take(const history& h)
    {
        news n;
        const auto& s = h.samples();
        if (h.epoch() != m_epoch || h.thin_count() != m_thins || &h != m_source || h.samples_total() < m_seen) {
            n.rebuild = true;
            n.first = 0;
        } else {
            const std::uint64_t fresh = h.samples_total() - m_seen;
            n.first = s.size() - static_cast<std::size_t>(std::min<std::uint64_t>(fresh, s.size()));
        }
        m_source = &h;
        m_epoch = h.epoch();
        m_thins = h.thin_count();
        m_seen = h.samples_total();
        return n;
    }
    void reset() { m_source = nullptr; }

private:
    const history* m_source = nullptr;
    std::uint64_t m_epoch = 0, m_thins = 0, m_seen = 0;
};

// The same for the events (or holds) of a history: `total` is events_total() (or holds_total()), `size` the
// length of the deque; returns the index of the first new entry, or rebuild.
class entry_cursor
{
public:
    sample_cursor::news take(const history& h, std::uint64_t total, std::size_t size)
    {
        sample_cursor::news n;
        if (&h != m_source || h.epoch() != m_epoch || total < m_seen) {
            n.rebuild = true;
            n.first = 0;
        } else {
            n.first = size - static_cast<std::size_t>(std::min<std::uint64_t>(total - m_seen, size));
        }
        m_source = &h;
        m_epoch = h.epoch();
        m_seen = total;
        return n;
    }
    void reset() { m_source = nullptr; }

private:
    const history* m_source = nullptr;
    std::uint64_t m_epoch = 0, m_seen = 0;
};

// A step series built one sample at a time: a point where the value changes, and a trailing point that moves
// with the newest sample (so the line reaches "now" without one point per sample).
class step_builder
{
public:
    void clear()
    {
        m_pts.clear();
        m_tail = false;
    }
    void add(double t, double v)
    {
        if (!m_pts.x.isEmpty() && same(v, m_last)) {
            if (m_tail) {
                m_pts.x.back() = t;
            } else {
                m_pts.add(t, v);
                m_tail = true;
            }
            return;
        }
        m_pts.add(t, v);
        m_last = v;
        m_tail = false;
    }
    const xy& points() const { return m_pts; }

private:
    static bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }
    xy m_pts;
    double m_last = 0;
    bool m_tail = false;
};

} // namespace pcplab::ui
