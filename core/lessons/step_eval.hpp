// Judging a step on a state: its checks, its figures (the paper's number beside the simulated one) and its
// reveal text. Shared by the headless runner and the GUI panel, so both say the same thing.
#pragma once

#include "lessons/lesson.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pcplab::lessons
{

struct check_outcome {
    int line = 0;
    std::string expr; // as written
    bool passed = false;
    std::string detail; // the values: "7 == 7", "all: 512 of 512 pagesets", or why there is no value
};

struct figure_outcome {
    std::string label;
    std::optional<double> paper;
    std::string paper_text;
    std::string paper_unit; // the paper's unit where it differs from `unit`
    std::optional<double> simulated;
    std::string error; // why the simulated value is missing
    std::string unit;
};

struct step_evaluation {
    std::vector<check_outcome> checks;
    std::vector<figure_outcome> figures;
    std::string reveal; // rendered
    bool reveal_complete = true; // every placeholder had a value
    // Every check passed, every figure and placeholder has a value.
    bool passed() const;
};

step_evaluation evaluate_step(const step& s, const eval_context& ctx);

} // namespace pcplab::lessons
