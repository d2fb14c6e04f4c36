// The headless lesson runner (`pcplab-cli lessons check`): every step's setup, actions, run and checks on a
// sim::engine driven directly (deterministic, no window, no threads but deferred init's), so that a lesson the
// program can no longer satisfy fails the build.
#pragma once

#include "lessons/lesson.hpp"
#include "lessons/step_eval.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pcplab::lessons
{

struct step_outcome {
    std::size_t index = 0;
    std::string title;
    int line = 0;
    bool used_machine = false; // false: a reading step
    bool booted = false;
    std::string machine; // "epyc2-256 (4 GiB/node), v5.4, kernbench, pcp-update-after-deferred-init=off"
    sim::vtime_ns time_ns = 0; // virtual time when judged
    std::string run; // "ran 500 ms", "finished at 104.2 ms", ""
    step_evaluation eval;
    std::string error; // the machine could not be set up / a write was refused
    double wall_ms = 0;

    bool passed() const { return error.empty() && eval.passed(); }
};

struct lesson_outcome {
    std::string file;
    std::string title;
    std::vector<step_outcome> steps;
    double wall_ms = 0;
    bool passed() const;
};

// Limits for running a lesson of unknown origin (the fuzz target runs what it generates): every machine scaled
// down to at most `node_gib` per node, every run cut to at most `run_ns` of virtual time. None by default.
struct run_bounds {
    std::optional<double> node_gib;
    std::optional<sim::vtime_ns> run_ns;
};

lesson_outcome run_lesson(const lesson& l, const run_bounds& bounds = {});

// "epyc2-256 (4 GiB/node), era 5.4.0-rc3, kernbench x0.25, seed 1, pcp-update-after-deferred-init=off"
std::string describe_setup(const step_setup& s);

} // namespace pcplab::lessons
