// The output of `pcplab-cli seeds`: for each seed, the published figures beside the simulated ones (switch
// off and on), the ratio of the changes and a "model disagrees: ..." line wherever they part.
#pragma once

#include "sim/run_summary.hpp"
#include "sim/seed_reference.hpp"
#include "sim/seed_scenarios.hpp"

#include <string>
#include <vector>

namespace pcplab::cli
{

struct seed_outcome {
    const sim::seed_reference* ref = nullptr;
    sim::seed_plan plan;
    double preset_gib_per_node = 0; // the preset's own size, for the scale line
    std::string modelled_era;
    sim::run_summary off, on;
    std::vector<sim::figure_comparison> figures; // point into ref->figures
};

std::string seeds_text(const std::vector<seed_outcome>& seeds, bool quick);
// {"quick": bool, "seeds": [{id, title, ..., "figures": [...], "runs": {"off": {...}, "on": {...}}}],
//  "figures": N, "agree": A, "disagree": D}
std::string seeds_json(const std::vector<seed_outcome>& seeds, bool quick);

} // namespace pcplab::cli
