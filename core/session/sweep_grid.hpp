// A sweep: one workload run at every point of a grid (presets x eras x switch settings x sysctls x seeds), each
// point a separate `pcplab-cli run` process with its own recording. This file is the grid alone: its axes, the
// points in a fixed order (seeds innermost, so that a configuration's seeds are neighbours), the run arguments of
// each point, the slice a shard takes, and the manifest that every shard writes so that `sweep merge` can check
// that the shards ran the same grid. No processes here (app/cli/cmd_sweep.cpp starts them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pcplab::session
{

// One axis value of a switch: the switch left to the era's default (nullopt), or set.
struct sweep_switch_axis {
    std::string name; // "pcp-update-after-deferred-init"
    std::vector<bool> values; // e.g. {false, true}
};

struct sweep_sysctl_axis {
    std::string name; // "vm.percpu_pagelist_high_fraction"
    std::vector<long> values;
};

struct sweep_grid {
    // Axes, outermost first.
    std::vector<std::string> presets;
    std::vector<std::string> eras; // empty: each preset's own era
    std::vector<sweep_switch_axis> switches;
    std::vector<sweep_sysctl_axis> sysctls;
    std::vector<std::uint64_t> seeds = {1};
    // The same for every point: `run` arguments (--workload W, --duration T, --param K=V, --intensity X ...).
    std::vector<std::string> common_args;

    std::size_t configurations() const; // points / seeds
    std::size_t points() const;
};

// One run of the grid.
struct sweep_point {
    std::size_t index = 0; // in the whole grid, 0-based
    std::size_t configuration = 0; // index / seeds
    std::string id; // "p0007": the stem of its files
    std::string preset;
    std::optional<std::string> era;
    std::vector<std::pair<std::string, bool>> switches;
    std::vector<std::pair<std::string, long>> sysctls;
    std::uint64_t seed = 1;

    // "epyc2-256 v5.4 pcp-update-after-deferred-init=off": what tells its configuration from the others (the
    // axes with more than one value), for table headers; `full` names every axis.
    std::string label(const sweep_grid& g, bool full = false) const;
};

// Every point, in grid order.
std::vector<sweep_point> expand(const sweep_grid& g);

// The `pcplab-cli run` arguments of a point (without the program name), recording to `db`.
std::vector<std::string> run_args(const sweep_grid& g, const sweep_point& p, const std::string& db);

// "--shard I/N": the points whose index is I modulo N (round robin, so that every shard gets a like mix).
struct sweep_shard {
    std::size_t index = 0, count = 1;
    bool takes(const sweep_point& p) const { return p.index % count == index; }
    std::string str() const; // "2/8"
};
// Parses "I/N" (0 <= I < N); nullopt on anything else.
std::optional<sweep_shard> parse_shard(const std::string& text);

// The manifest (DIR/sweep.json): the grid and its points' labels. Shards of one sweep write equal manifests.
std::string manifest_json(const sweep_grid& g);
// Reads a manifest; throws std::invalid_argument with the problem.
sweep_grid parse_manifest(const std::string& json_text);

} // namespace pcplab::session
