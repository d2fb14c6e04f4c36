// A lesson step's pace on screen: even over the watch time, or watched first and then faster.
#include "ui/window/lesson_pacing.hpp"

#include <cmath>

namespace pcplab::ui
{

namespace
{
double per_wall_second(double vns, std::chrono::milliseconds wall)
{
    return vns * 1000.0 / static_cast<double>(wall.count());
}
} // namespace

double lesson_pacing::speed_at(std::optional<sim::vtime_ns> span_ns, std::chrono::milliseconds elapsed) const
{
    if (watch.count() <= 0) return 0;
    if (span_ns) return per_wall_second(static_cast<double>(*span_ns), watch);
    const double shown = per_wall_second(static_cast<double>(finish_shown_ns), watch);
    if (elapsed <= watch) return shown;
    // Doubling every second past the watch time: a 20 s build (RUN_FINISH_CAP_NS) is over about 9 s later.
    const double seconds_past = std::chrono::duration<double>(elapsed - watch).count();
    return shown * std::exp2(seconds_past);
}

bool lesson_pacing::speeds_up(std::optional<sim::vtime_ns> span_ns) const
{
    return watch.count() > 0 && !span_ns;
}

} // namespace pcplab::ui
