// One machine's part of one zone plot of the limits view: the step series of batch, high, high_min/high_max
// and the per-CPU high band, built sample by sample; the event markers with their hover texts; the limits
// set at boot; and the QCustomPlot graphs they are pushed into.
#pragma once

#include "ui/views/series.hpp"

#include "sim/metrics.hpp"

#include <QString>
#include <QStringList>

#include <limits>
#include <utility>
#include <vector>

class QCPGraph;

namespace pcplab::ui
{

struct limits_marker {
    double t, y; // y NaN: a full-height line
    QString text;
};

class limits_series
{
public:
    struct event_context {
        bool tuned; // v6.7+: high_min/high_max are limits of their own
        bool ab;
        int side;
        double first_sample_t; // events at or before it happened at boot
    };

    int zi = -1; // index into this side's snapshot zones / sample zones
    QCPGraph *g_batch = nullptr, *g_high = nullptr, *g_hmin = nullptr, *g_hmax = nullptr;
    QCPGraph *g_lo = nullptr, *g_hi = nullptr; // the band (g_hi is filled down to g_lo)
    QCPGraph *g_limit = nullptr, *g_highm = nullptr, *g_vline = nullptr;
    std::vector<limits_marker> markers;
    std::vector<std::pair<QString, QStringList>> boot_notes; // cause -> "batch 7 → 63", in order of arrival
    double ymin = std::numeric_limits<double>::infinity(), ymax = 0; // positive values seen (log axis)

    void add_sample(double t, const zone_sample& z);
    // An event of the history; `this_zone` / `this_node` say whether it concerns this plot's zone or node.
    void add_event(const sim::sim_event& e, bool this_zone, bool this_node, const event_context& c);
    void clear_samples();
    void clear_events();
    void push(); // into the graphs (when they exist)

private:
    void note_y(double v);
    void note_boot(const QString& cause, const QString& change);
    step_builder m_batch, m_high, m_hmin, m_hmax, m_band_lo, m_band_hi;
    xy m_limit_marks, m_high_marks, m_vlines;
};

// The "A: " / "B: " prefix of texts in A/B mode.
QString side_prefix(bool ab, int side);

} // namespace pcplab::ui
