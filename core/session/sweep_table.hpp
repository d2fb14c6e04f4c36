// A sweep's points gathered into the compare table (session/compare.hpp): one column per configuration of the grid,
// its runs the configuration's seeds that have a recording, in grid order (the first configuration is the baseline).
#pragma once

#include "session/compare.hpp"
#include "session/sweep_grid.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pcplab::session
{

struct sweep_columns {
    std::vector<compare_input> columns;
    std::vector<std::string> missing; // "p0007 (epyc2-256 v5.4 ... seed 3)": points without a recording
};

// `recording_of` gives a point's finished recording file, or nullopt when the point has none (not run yet, or
// failed). A recording that cannot be read throws recording_error.
sweep_columns gather_sweep(const sweep_grid& g, const std::vector<sweep_point>& points,
    const std::function<std::optional<std::string>(const sweep_point&)>& recording_of);

} // namespace pcplab::session
