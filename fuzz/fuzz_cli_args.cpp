// libFuzzer target: command-line arguments (one per line of the input) through pcplab-cli's flag parser
// and every value parser a flag reaches: --era, --patch, --init-threads, --at, --duration,
// --hold-threshold, --work, --intensity, --seed, --repeat, --cpus-per-node, --workload and --param.
// An input whose first line is `run` goes the way `pcplab-cli run` takes it instead: plan_run (every value, the
// preset by name, the workload's settings against the machine), then execute_run on the engine for at most 20
// virtual microseconds, with the preset's machine scaled down to a quarter GiB per node so that an execution
// stays short (--record is checked, not written). Usage errors are cli_error and a workload the booted machine
// refuses is sim::workload_error (exit status 2 in the real binary); anything else escaping is a bug.
#include "args.hpp"
#include "machine_args.hpp"
#include "run_engine.hpp"
#include "run_plan.hpp"

#include "sim/seed_scenarios.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace pcplab;

namespace
{

std::vector<cli::flag_spec> all_flags()
{
    std::vector<cli::flag_spec> f = cli::machine_flags();
    f.insert(f.end(),
        {{"--workload", true, false}, {"--duration", true, false}, {"--work", true, false}, {"--seed", true, false},
            {"--repeat", true, false}, {"--json", false, false}, {"--hold-threshold", true, false},
            {"--intensity", true, false}, {"--param", true, true}, {"--cpus-per-node", true, false},
            {"--only", true, false}, {"--quick", false, false}});
    return f;
}

void parse_values(const cli::parsed_args& a)
{
    if (auto e = a.get("--era")) (void)mm::choose_era(*e);
    (void)cli::machine_options_from_args(a); // --patch, --init-threads
    if (auto t = a.get("--at")) (void)sim::parse_boot_target(*t);
    if (auto d = a.get("--duration")) (void)cli::parse_duration_ns("--duration", *d);
    if (auto h = a.get("--hold-threshold")) (void)cli::parse_duration_ns("--hold-threshold", *h);
    if (auto w = a.get("--work")) (void)cli::parse_positive_real("--work", *w, 1e15);
    if (auto x = a.get("--intensity")) (void)cli::parse_positive_real("--intensity", *x, 100);
    if (auto s = a.get("--seed")) (void)cli::parse_u64("--seed", *s);
    if (auto r = a.get("--repeat")) (void)cli::parse_int("--repeat", *r, 1);
    if (auto c = a.get("--cpus-per-node")) (void)cli::parse_int_list("--cpus-per-node", *c, 0);
    if (auto w = a.get("--workload")) {
        // --param KEY=VALUE as `run` splits it; the workload then accepts or refuses each.
        std::vector<std::pair<std::string, double>> params;
        for (const auto& text : a.all("--param")) {
            auto eq = text.find('=');
            if (eq == std::string::npos || eq == 0) continue;
            std::string value = text.substr(eq + 1);
            char* end = nullptr;
            double v = std::strtod(value.c_str(), &end);
            if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(v)) continue;
            params.emplace_back(text.substr(0, eq), v);
        }
        (void)cli::make_configured_workload(*w, params);
    }
}

constexpr sim::vtime_ns k_run_ns = 20'000;

void run_to_engine(const std::vector<std::string>& args)
{
    cli::run_request req = cli::plan_run(args).req;
    req.cfg.spec = sim::scale_machine_memory(req.cfg.spec, 0.25);
    req.work_units.reset();
    req.duration_ns = std::min(req.duration_ns.value_or(k_run_ns), k_run_ns);
    try {
        (void)cli::execute_run(req);
    } catch (const sim::workload_error&) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const std::vector<cli::flag_spec> flags = all_flags();
    std::vector<std::string> args;
    std::string cur;
    for (std::size_t i = 0; i < size; ++i) {
        if (data[i] == '\n') {
            args.push_back(cur);
            cur.clear();
        } else {
            cur += static_cast<char>(data[i]);
        }
    }
    if (!cur.empty()) args.push_back(cur);
    try {
        if (!args.empty() && args.front() == "run")
            run_to_engine(std::vector<std::string>(args.begin() + 1, args.end()));
        else
            parse_values(cli::parse_args("fuzz", args, flags, 2));
    } catch (const cli::cli_error&) {
    }
    return 0;
}
