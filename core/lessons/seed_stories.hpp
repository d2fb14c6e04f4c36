// The five seed stories: each seed's machine, era and workload as `pcplab-cli patches` scales them
// (sim::make_seed_scenario), run in A/B with the seed's switch off on A and on on B and nothing else differing,
// with the checkpoints where the run pauses to point at the view where the patch shows: a caption a teacher
// can read aloud and the figures that show the difference, evaluated on each machine. The stories are data
// (seed_stories.cpp, one table); the window plays them (ui/window/story_player).
#pragma once

#include "lessons/expr.hpp"

#include "sim/engine.hpp"
#include "sim/machine_config.hpp"
#include "sim/seed_reference.hpp"
#include "sim/seed_scenarios.hpp"

#include <string>
#include <vector>

namespace pcplab::lessons
{

struct story_figure {
    std::string label;
    compiled_expr expr; // a number, on one machine's snapshot
    std::string unit; // "ns" formats as a time, "%" as a share, "" as a count
};

struct story_checkpoint {
    // Virtual time after the boot (deferred init done) at which the run pauses; 0 = as soon as it is over.
    sim::vtime_ns after_boot_ns = 0;
    std::string view; // the view that shows it (lesson::view_ids())
    std::string title; // a few words
    std::string caption; // what to say, two or three sentences
    std::vector<story_figure> figures;
};

struct story {
    const sim::seed_reference* seed = nullptr;
    std::string title;
    std::string summary; // one line for menus and the start page
    double speed = 1e8; // virtual ns per wall second while it plays
    std::vector<story_checkpoint> checkpoints;
};

// Every story, in seed order. The table is compiled once; a table entry that does not compile (a misspelt
// field, an unknown view) throws std::logic_error naming it: a defect the tests catch.
const std::vector<story>& seed_stories();
// A story by seed id ("000", "0" ...); nullptr when there is none.
const story* find_story(const std::string& seed_id);

// The story's machines: the scaled scenario (full scale) with the seed's switch off (A) and on (B).
struct story_machines {
    sim::seed_scenario scenario;
    sim::engine_config a, b; // events and zone->lock holds kept (the views draw them)
    sim::workload_factory make_load; // the scenario's workload with its tunables
};
story_machines make_story_machines(const story& s);

} // namespace pcplab::lessons
