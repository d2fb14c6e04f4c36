// The painting parts of the zone->lock view, as free functions over plain inputs (lock_lanes.cpp,
// hold_histogram.cpp): each returns the hit areas it drew so that the view can answer hover questions.
#pragma once

#include "ui/model/history.hpp"

#include "sim/snapshot.hpp"

#include <QPalette>
#include <QRect>
#include <QString>

#include <deque>
#include <vector>

class QPainter;

namespace pcplab::ui
{

// One lane: a zone of one machine.
struct lane_input {
    const sim::snapshot* snap = nullptr;
    const history* hist = nullptr;
    int zi = -1; // index into snap->zones (and the samples' zones)
    int side = 0;
    bool ab = false;
};

struct hold_hit {
    QRect r;
    sim::lock_hold_record h;
    int side;
};

// The time window the lanes show, in virtual ns.
struct lane_window {
    std::int64_t t0 = 0, t1 = 1;
};

// Paints the lanes into `area` (label column on the left, holds above, waiting CPUs below in each lane).
// With hold records: each pixel column shaded by the share of its time the lock was held (colour = the main
// holder's node; holds wide enough labelled with their caller), the waiting area by the mean CPUs waiting;
// without: the aggregate (holds by caller, contention over the run). `bands`, when given, gets each lane's
// holds band.
void paint_lock_lanes(QPainter& p, const QRect& area, const std::vector<lane_input>& lanes, lane_window w,
    const QPalette& pal, std::vector<hold_hit>& hits, std::vector<QRect>* bands = nullptr);

// Paints the hold-time histogram (log2 buckets) of one zone, A and B paired, with the threshold line.
void paint_hold_histogram(QPainter& p, const QRect& area, const QString& zone, const sim::lock_metrics* a,
    const sim::lock_metrics* b, std::int64_t threshold_ns, const QPalette& pal);

// A caller's short name for labels ("rmqueue_bulk").
QString caller_name(mm::lock_caller c);

} // namespace pcplab::ui
