// The figure of a sweep (pcplab-cli sweep): one metric of the compare table per configuration, the mean as a bar
// and the standard deviation over the seeds as an error bar. Free of Q_OBJECT: the CLI compiles it without moc.
#pragma once

#include "session/compare.hpp"
#include "ui/session/figure_export.hpp"

#include <string>

namespace pcplab::ui
{

// Draws the metric (e.g. "score"; its mean row and its Stddev row) and saves it at w x h pixels. "" or the problem
// (no such metric, or the file cannot be written).
std::string save_sweep_figure(
    const session::compare_table& t, const std::string& metric, const std::string& path, figure_format f, int w, int h);

} // namespace pcplab::ui
