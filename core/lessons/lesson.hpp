// A lesson: Markdown prose and steps, loaded from a plain file in lessons/ (format: lessons/README.md).
// Each step may set up a machine, ask for a prediction, run for a virtual duration, point at a view, check
// a condition on the live state and reveal the answer beside the paper's number.
#pragma once

#include "lessons/expr.hpp"
#include "lessons/text_template.hpp"

#include "sim/workload.hpp"

#include "mm/patch_switches.hpp"
#include "mm/sysctl_bounds.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pcplab::lessons
{

// The machine a step runs on: accumulated over a lesson's steps (a step names only what it changes).
struct step_setup {
    std::string preset = "classroom";
    std::optional<double> node_gib; // memory of every node, scaled down (GiB); nullopt: the preset's own
    std::optional<std::string> era; // nullopt: the preset's
    std::vector<std::pair<mm::patch, bool>> switches; // in order; a later one wins
    std::optional<int> init_threads;
    std::string workload = "kernbench";
    std::vector<std::pair<std::string, double>> params; // workload tunables, in order
    double intensity = 1.0;
    std::uint64_t seed = 1;
    std::vector<std::pair<std::string, long>> sysctls; // "vm.percpu_pagelist_fraction", applied at boot
    sim::vtime_ns hold_threshold_ns = 1'000'000;
    double drain_hz = 0; // forced __drain_all_pages(NULL, true) a virtual second from CPU 0 (scenario 006)
    double speed = 0; // GUI pacing: virtual seconds per wall second; 0 = as fast as possible
    bool operator==(const step_setup&) const = default;
};

// "Until the workload finishes" for `run: finish`: at most this much virtual time.
inline constexpr sim::vtime_ns RUN_FINISH_CAP_NS = 20'000'000'000ULL;

// What a prediction is answered with: one of its choices, a whole number (a batch, a count of pages), or a
// decimal with as many decimals as the lesson writes its answer with ("0.25": two). The answer box follows it.
enum class answer_kind { choice, whole_number, decimal };

struct prediction {
    std::string question; // Markdown
    answer_kind kind = answer_kind::choice;
    std::vector<std::string> choices; // of a choice
    std::string answer; // the right choice's text (choices) or the number as written
    double answer_number = 0;
    int decimals = 0; // of a decimal answer, as written in the lesson; 0 for the others
    double tolerance = 0; // absolute; for a number
    bool tolerance_pct = false; // tolerance is a percentage of the answer
    int line = 0;

    bool is_choice() const { return kind == answer_kind::choice; }
    // Whether a student's number / choice index is right.
    bool accepts(double v) const;
    bool accepts_choice(std::size_t index) const;
};

struct check {
    compiled_expr expr; // a truth value
    int line = 0;
};

// "the paper's number next to the simulated one".
struct figure {
    std::string label;
    std::optional<double> paper; // nullopt: the paper gives none ("-")
    std::string paper_text; // as written ("-69.16", "14760.30 s")
    std::string paper_unit; // "s" of "14760.30 s"; empty: the same as unit
    compiled_expr simulated; // a number
    std::string unit; // of the simulated value
    int line = 0;
};

struct step {
    std::string title; // the "## " heading
    int line = 0; // of the heading
    std::string prose; // Markdown around the step block
    bool has_block = false; // false: a reading step (prose only)
    int block_line = 0;

    bool boots = false; // the step names setup keys: a new machine with `setup`
    step_setup setup; // the accumulated setup in force for this step
    std::vector<std::pair<mm::patch, bool>> flips; // live switch changes before the run
    std::vector<std::pair<mm::vm_sysctl, long>> writes; // live sysctl writes before the run
    std::optional<sim::vtime_ns> run_ns; // run for this long (virtual)
    bool run_to_finish = false; // run: finish
    std::string highlight; // a view id ("limits"), or ""
    std::string keep; // keep the final state under this name, or ""
    std::optional<prediction> predict;
    std::vector<check> checks;
    std::vector<figure> figures;
    text_template reveal;

    // Whether the runner needs a machine for this step.
    bool needs_machine() const;
};

struct lesson {
    std::string file; // path as loaded
    std::string id; // file stem: "03-seed-000"
    std::string title;
    std::string summary;
    std::string seed; // "000" .. "004", or ""
    std::string intro; // prose before the first step
    std::vector<step> steps;
};

struct lesson_set {
    std::string dir;
    std::vector<lesson> lessons; // the files that loaded, in file-name order
    std::vector<pcplab::error> errors; // of every file that did not (one file may have several)
    std::vector<std::string> failed_files; // the files with errors, in order
};

// The view ids a step may highlight (the GUI's view::view_id values).
const std::vector<std::string>& view_ids();

} // namespace pcplab::lessons
