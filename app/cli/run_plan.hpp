// `pcplab-cli run`'s arguments turned into what it will run: every value checked, the preset resolved and the
// workload's settings checked against its machine, before anything boots. cmd_run executes the plan; the
// fuzz target fuzz_cli_args runs the same path to the engine.
#pragma once

#include "args.hpp"
#include "run_engine.hpp"

#include "session/hold_sampling.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pcplab::cli
{

struct run_plan {
    run_request req;
    int repeat = 1; // runs with seeds req.seed .. req.seed + repeat - 1
    std::optional<std::string> record; // --record FILE
    session::hold_rule holds; // --record-holds
    bool json = false;
    std::vector<std::string> notes; // the era a version maps to, preset settings the era leaves out
};

std::vector<flag_spec> run_flags();
std::string workload_list(); // "kernbench, page-fault1, ..."
// Throws cli_error for the first argument at fault.
run_plan plan_run(const std::vector<std::string>& args);

} // namespace pcplab::cli
