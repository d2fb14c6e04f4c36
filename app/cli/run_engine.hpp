// Shared by `run` and `seeds`: value parsers for their flags, resolving a preset into a machine
// configuration, and one engine run (boot, run to a stop condition, summarise).
#pragma once

#include "args.hpp"

#include "sim/engine.hpp"
#include "sim/machine_config.hpp"
#include "sim/run_summary.hpp"
#include "sim/workload.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pcplab::cli
{

// "10s", "250ms", "5us", "100ns", "1.5s" (a bare number is seconds); > 0. Throws cli_error naming `flag`.
sim::vtime_ns parse_duration_ns(const std::string& flag, std::string_view text);
// A finite number > 0 and <= max_value.
double parse_positive_real(const std::string& flag, std::string_view text, double max_value);
// --param KEY=VALUE: the key and a finite number.
std::pair<std::string, double> parse_param(const std::string& text);
// A whole number >= 0 (64-bit).
std::uint64_t parse_u64(const std::string& flag, std::string_view text);

struct run_request {
    std::string preset; // as given (for the summary)
    sim::machine_config cfg;
    std::string workload;
    double intensity = 1.0;
    std::uint64_t seed = 1;
    sim::vtime_ns hold_threshold_ns = 1'000'000;
    std::optional<sim::vtime_ns> duration_ns; // stop after this much virtual time of the workload
    std::optional<double> work_units; // stop once the workload has done this much
    bool continuous = false; // a finite workload starts new rounds (engine_config::continuous)
    std::vector<int> cpus; // CPUs the workload runs on; empty = all
    std::vector<std::pair<std::string, double>> params; // workload tunables (workload::set_param), in order
};

// Without --duration or --work: one virtual second (a finite workload may finish first).
inline constexpr sim::vtime_ns DEFAULT_DURATION_NS = 1'000'000'000;
// A safety net for --work (a workload that stops producing work units would otherwise run forever).
inline constexpr sim::vtime_ns WORK_TIME_CAP_NS = 3600ULL * 1'000'000'000ULL;

// A fresh workload with `params` set; throws cli_error("--param KEY=VALUE: ...") for a parameter it refuses.
std::unique_ptr<sim::workload> make_configured_workload(
    const std::string& name, const std::vector<std::pair<std::string, double>>& params);

// The engine configuration of `req` (preset, era, switches, workload, seed, CPUs, threshold).
sim::engine_config engine_config_of(const run_request& req);

// What a caller watching a run (a recording) needs: called with the booted engine, then every
// `every_ns` of the workload's virtual time while it runs (0: never), then once when it has stopped, before the
// summary.
struct run_observer {
    sim::vtime_ns every_ns = 0;
    std::function<void(sim::engine&)> booted;
    std::function<void(sim::engine&)> tick;
    std::function<void(sim::engine&)> stopped;
    // Asked after every tick: true ends the run there, with `stop_reason` (a recording that cannot be written).
    std::function<bool()> stop;
    std::string stop_reason = "stopped";
};

// Boot, run until the first stop condition (the duration, the work, the workload finishing), summarise.
// Everything in the summary comes from the engine; the caller's configuration names are filled in.
sim::run_summary execute_run(const run_request& req);
// The same run on an engine the caller configured (engine_config_of plus its own keep_* choices), watched;
// the summary's wall time counts from `wall_start` (before the engine was made).
sim::run_summary execute_run(
    const run_request& req, sim::engine& e, const run_observer& obs, std::chrono::steady_clock::time_point wall_start);

} // namespace pcplab::cli
