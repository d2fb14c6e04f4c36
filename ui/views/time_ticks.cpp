// Time axis ticks for the painted views (time_ticks.hpp).
#include "ui/views/time_ticks.hpp"

#include <cmath>

namespace pcplab::ui
{

namespace
{

struct unit {
    double ns;
    const char* name;
};

// The unit a step is written in: the largest one the step is at least one of.
unit unit_for(double step_ns)
{
    if (step_ns >= 1e9) return {1e9, "s"};
    if (step_ns >= 1e6) return {1e6, "ms"};
    if (step_ns >= 1e3) return {1e3, "us"};
    return {1, "ns"};
}

} // namespace

QString time_label(double t_ns, double step_ns)
{
    // A time of a thousand units or more is written in the next larger unit with more decimals, so that a window
    // late in a run reads "2.0005 s", not "2000.5 ms", and "100.0 ms", not "100000 us".
    unit u = unit_for(step_ns);
    while (u.ns < 1e9 && std::fabs(t_ns) >= 1000 * u.ns) u = unit_for(u.ns * 1000);
    const double step_in_unit = step_ns / u.ns;
    const int decimals = step_in_unit >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step_in_unit) - 1e-9));
    const double v = t_ns / u.ns;
    // A minus sign, not a hyphen, and no "-0".
    const QString num = QString::number(std::fabs(v), 'f', decimals);
    const bool negative = v < 0 && num.toDouble() != 0;
    return (negative ? QStringLiteral("−") : QString()) + num + QLatin1Char(' ') + QLatin1String(u.name);
}

std::vector<time_tick> time_ticks(
    double t0_ns, double t1_ns, int width, const QFontMetrics& fm, bool relative, int reserve_right)
{
    std::vector<time_tick> best, ticks;
    const double span = t1_ns - t0_ns;
    if (width <= 0 || !(span > 0)) return best;
    const double gap = fm.horizontalAdvance(QStringLiteral("0000"));
    for (double decade = std::pow(10.0, std::floor(std::log10(span / 50))); decade < span * 10; decade *= 10) {
        for (double m : {1.0, 2.0, 5.0}) {
            const double step = m * decade;
            // Relative ticks count back from t1 in whole steps; absolute ones sit on multiples of the step.
            const auto first = static_cast<long long>(relative ? -std::floor(span / step) : std::ceil(t0_ns / step));
            const auto last = static_cast<long long>(relative ? 0 : std::floor(t1_ns / step));
            if (last - first > 200) continue;
            ticks.clear();
            bool ok = true;
            double last_right = -1e9;
            for (long long k = first; k <= last; ++k) {
                const double t = relative ? t1_ns + static_cast<double>(k) * step : static_cast<double>(k) * step;
                const double x = (t - t0_ns) / span * width;
                const QString label = time_label(relative ? t - t1_ns : t, step);
                const double w = fm.horizontalAdvance(label);
                // Centred on its tick, moved inside the axis at either end; none in the reserved right end.
                const double left = std::clamp(x - w / 2, 0.0, std::max(0.0, width - w));
                if (left + w > width - reserve_right) continue;
                if (left < last_right + gap) {
                    ok = false;
                    break;
                }
                last_right = left + w;
                ticks.push_back({x, label});
            }
            if (!ok) continue;
            if (ticks.size() >= 2) return ticks;
            if (best.empty()) best = ticks;
        }
    }
    return best;
}

} // namespace pcplab::ui
