// Ticks for the painted time axes (lock lanes, heatmap): steps of 1, 2 or 5 x 10^k in a unit that suits the
// step (ns, us, ms, s), the smallest step whose labels keep a gap between them. Labels are absolute ("1.25 s",
// "350 ms") or relative to an origin ("-1.5 ms" before the newest time).
#pragma once

#include <QFontMetrics>
#include <QString>

#include <vector>

namespace pcplab::ui
{

struct time_tick {
    double x; // pixel offset from the axis' left end
    QString label;
};

// Ticks over [t0_ns, t1_ns] drawn along `width` pixels. With `relative`, labels count back from t1 ("-2 ms");
// `reserve_right` pixels at the right end are kept free of labels (for a label of the axis' end).
std::vector<time_tick> time_ticks(
    double t0_ns, double t1_ns, int width, const QFontMetrics& fm, bool relative = false, int reserve_right = 0);

// A time in the unit of `step_ns` with as many decimals as the step needs: "1.5 ms", "2.0005 s", "750 ns".
QString time_label(double t_ns, double step_ns);

} // namespace pcplab::ui
