#include "run_plan.hpp"

#include "machine_args.hpp"

#include "session/recording_claim.hpp"

#include "sim/boot_sysctl.hpp"
#include "sim/workload.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace pcplab::cli
{

std::vector<flag_spec> run_flags()
{
    std::vector<flag_spec> flags;
    for (auto& f : machine_flags())
        if (f.name != "--at") flags.push_back(f); // a run always boots the whole way
    flags.insert(flags.end(),
        {
            {"--workload", true, false},
            {"--duration", true, false},
            {"--work", true, false},
            {"--continuous", false, false},
            {"--seed", true, false},
            {"--repeat", true, false},
            {"--json", false, false},
            {"--hold-threshold", true, false},
            {"--intensity", true, false},
            {"--param", true, true},
            {"--sysctl", true, true},
            {"--record", true, false},
            {"--record-holds", true, false},
        });
    return flags;
}

std::string workload_list()
{
    std::string names;
    for (const auto& n : sim::workload_names()) names += (names.empty() ? "" : ", ") + n;
    return names;
}

run_plan plan_run(const std::vector<std::string>& args)
{
    run_plan plan;
    parsed_args a = parse_args("run", args, run_flags(), 0);

    // Every value first (cheap), so a typo is reported before a large preset is booted.
    run_request& req = plan.req;
    auto workload = a.get("--workload");
    if (!workload) throw cli_error("--workload: required (one of: " + workload_list() + ")");
    const auto names = sim::workload_names();
    if (std::find(names.begin(), names.end(), *workload) == names.end())
        throw cli_error("--workload: unknown workload '" + *workload + "' (one of: " + workload_list() + ")");
    req.workload = *workload;
    if (a.has("--duration") && a.has("--work"))
        throw cli_error("--work: cannot be combined with --duration (stop on one or the other)");
    if (auto d = a.get("--duration")) req.duration_ns = parse_duration_ns("--duration", *d);
    if (auto w = a.get("--work")) req.work_units = parse_positive_real("--work", *w, 1e15);
    req.continuous = a.has("--continuous");
    if (auto s = a.get("--seed")) req.seed = parse_u64("--seed", *s);
    if (auto r = a.get("--repeat")) plan.repeat = parse_int("--repeat", *r, 1);
    if (plan.repeat > 1000) throw cli_error("--repeat: at most 1000 runs, not " + std::to_string(plan.repeat));
    if (req.seed > UINT64_MAX - static_cast<std::uint64_t>(plan.repeat))
        throw cli_error("--seed: too large for " + std::to_string(plan.repeat) + " runs");
    if (auto h = a.get("--hold-threshold")) req.hold_threshold_ns = parse_duration_ns("--hold-threshold", *h);
    if (auto x = a.get("--intensity")) req.intensity = parse_positive_real("--intensity", *x, 100);
    for (const auto& text : a.all("--param")) {
        auto param = parse_param(text);
        for (const auto& [earlier, _] : req.params)
            if (earlier == param.first)
                throw cli_error("--param " + param.first + ": given twice; give each parameter once");
        req.params.push_back(std::move(param));
    }
    if (auto r = a.get("--record")) {
        // Checked before the boot; the recording's claim (session::recording_claim) checks again when it opens.
        if (r->empty()) throw cli_error("--record: needs a file name, not an empty string");
        if (const status usable = session::recording_path_problem(*r); !usable)
            throw cli_error("--record " + *r + ": " + usable.message());
        plan.record = *r;
    }
    plan.holds = session::hold_rule::recording_default();
    if (auto h = a.get("--record-holds")) {
        if (!a.has("--record")) throw cli_error("--record-holds: needs --record FILE");
        auto rule = session::hold_rule::parse(*h);
        if (!rule)
            throw cli_error(
                "--record-holds: '" + *h + "' is not a rule (zone, all, none, 1/N or 1/N+over:T, e.g. 1/10+over:5us)");
        plan.holds = *rule;
    }
    sim::machine_options opts = machine_options_from_args(a);

    auto preset = a.get("--preset");
    if (!preset) throw cli_error("--preset: required (see pcplab-cli presets)");
    req.preset = *preset;
    mm::machine_spec spec = load_preset_or_throw(*preset);
    std::vector<std::pair<std::string, long>> sysctls;
    for (const auto& text : a.all("--sysctl")) {
        const auto eq = text.find('=');
        if (eq == std::string::npos || eq == 0)
            throw cli_error("--sysctl " + text + ": expected NAME=VALUE (e.g. vm.percpu_pagelist_high_fraction=8)");
        const std::string name = text.substr(0, eq);
        for (const auto& [earlier, _] : sysctls)
            if (earlier == name) throw cli_error("--sysctl " + name + ": given twice; give each sysctl once");
        const long value = parse_long("--sysctl " + text, text.substr(eq + 1));
        if (auto why = sim::set_boot_sysctl(spec, name, value); !why)
            throw cli_error("--sysctl " + text + ": " + why.message());
        sysctls.emplace_back(name, value);
    }
    req.cfg = resolve_config_or_throw(spec, opts);
    for (const auto& [name, value] : sysctls)
        if (auto why = sim::check_sysctl(name, value, req.cfg.era); !why)
            throw cli_error("--sysctl " + name + "=" + std::to_string(value) + ": " + why.message());
    if (!req.cfg.era_note.empty()) plan.notes.push_back(req.cfg.era_note);
    plan.notes.insert(plan.notes.end(), req.cfg.notes.begin(), req.cfg.notes.end());
    plan.json = a.has("--json");

    // What the settings ask of this machine, before the boot: the engine checks it again with the booted
    // machine's managed pages (workload_error).
    if (const status fits = make_configured_workload(req.workload, req.params)
                                ->settings_problem(sim::planned_workload_env(req.cfg, req.intensity, req.cpus));
        !fits)
        throw cli_error(req.workload + ": " + fits.message());
    return plan;
}

} // namespace pcplab::cli
