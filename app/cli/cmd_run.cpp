// pcplab-cli run: boot a preset in virtual time, run a workload on it and print what the allocator did:
// totals, a per-zone table with the zone->lock figures, the workload's score. --repeat K runs seeds
// seed .. seed+K-1 and reports mean and standard deviation of every figure.
#include "args.hpp"
#include "cmd_record_run.hpp"
#include "commands.hpp"
#include "machine_args.hpp"
#include "run_engine.hpp"

#include "session/hold_sampling.hpp"
#include "session/recording_claim.hpp"

#include "sim/boot_sysctl.hpp"
#include "sim/run_summary.hpp"
#include "sim/workload.hpp"

#include "mm/patch_switches.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace pcplab::cli
{

namespace
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

} // namespace

std::string run_help()
{
    std::string names;
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i)
        names += "\n      " + std::string(mm::patch_name(static_cast<mm::patch>(i)));
    return "Usage: pcplab-cli run --preset NAME --workload W [--duration T | --work N] [OPTIONS]\n"
           "\n"
           "Boots the preset in virtual time, runs the workload on every CPU and prints the totals, a per-zone\n"
           "table (batch, high, zone->lock acquisitions, waits, holds, contention %) and the workload's score.\n"
           "The same preset, era, switches, workload and seed give the same figures on any machine.\n"
           "\n"
           "  --preset NAME            the machine (see `pcplab-cli presets`), or a path to a preset .json\n"
           "  --workload W             "
        + workload_list()
        + "\n"
          "  --duration T             virtual time to run: 10s, 250ms, 50us, 1000ns (a bare number is seconds);\n"
          "                           default 1s; a finite workload (kernbench, boot) may finish first\n"
          "  --work N                 run until the workload has done N work units (its score unit)\n"
          "  --seed N                 the workload's random seed (default 1)\n"
          "  --repeat K               K runs with seeds N .. N+K-1: every figure as mean and standard deviation\n"
          "  --intensity X            scales the workload's tasks or sizes (default 1)\n"
          "  --hold-threshold T       count zone->lock holds longer than T (default 1ms)\n"
          "  --param KEY=VALUE        set a workload parameter (repeatable; an unknown key lists them)\n"
          "  --sysctl NAME=VALUE      boot with a vm.* sysctl set (repeatable): vm.percpu_pagelist_high_fraction\n"
          "                           (v5.14+), vm.percpu_pagelist_fraction (up to v5.13), vm.min_free_kbytes,\n"
          "                           vm.watermark_scale_factor\n"
          "  --era VERSION            run as this kernel version (v5.4, 6.8, 5.4.0-rc3); default: the preset's\n"
          "  --patch NAME=on|off      turn a seed patch's switch on or off (repeatable)\n"
          "  --init-threads N         deferred-init threads per node (needs parallel-deferred-init)\n"
          "  --json                   one JSON object (see README, \"pcplab-cli run\")\n"
          "  --record FILE            also record the run(s) to FILE (SQLite; docs/recording-schema.md)\n"
          "  --record-holds RULE      which lock holds the recording keeps: zone (default: every zone->lock hold\n"
          "                           and the pcp->lock holds that waited or drained another CPU's pageset),\n"
          "                           all (also the uncontended local pcp->lock holds, one per PCP allocation\n"
          "                           and free from v6.0), none, 1/N, or 1/N+over:T (one in N plus every hold of\n"
          "                           at least T, e.g. 1/10+over:5us)\n"
          "\n"
          "Switches:"
        + names + "\n";
}

int cmd_run(const std::vector<std::string>& args)
{
    parsed_args a = parse_args("run", args, run_flags(), 0);

    // Every value first (cheap), so a typo is reported before a large preset is booted.
    run_request req;
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
    if (auto s = a.get("--seed")) req.seed = parse_u64("--seed", *s);
    int repeat = 1;
    if (auto r = a.get("--repeat")) repeat = parse_int("--repeat", *r, 1);
    if (repeat > 1000) throw cli_error("--repeat: at most 1000 runs, not " + std::to_string(repeat));
    if (req.seed > UINT64_MAX - static_cast<std::uint64_t>(repeat))
        throw cli_error("--seed: too large for " + std::to_string(repeat) + " runs");
    if (auto h = a.get("--hold-threshold")) req.hold_threshold_ns = parse_duration_ns("--hold-threshold", *h);
    if (auto x = a.get("--intensity")) req.intensity = parse_positive_real("--intensity", *x, 100);
    for (const auto& text : a.all("--param")) req.params.push_back(parse_param(text));
    if (auto r = a.get("--record")) {
        // Checked before the boot; the recording's claim (session::recording_claim) checks again when it opens.
        if (r->empty()) throw cli_error("--record: needs a file name, not an empty string");
        const std::string problem = session::recording_path_problem(*r);
        if (!problem.empty()) throw cli_error("--record " + *r + ": " + problem);
    }
    session::hold_rule holds = session::hold_rule::recording_default();
    if (auto h = a.get("--record-holds")) {
        if (!a.has("--record")) throw cli_error("--record-holds: needs --record FILE");
        auto rule = session::hold_rule::parse(*h);
        if (!rule)
            throw cli_error(
                "--record-holds: '" + *h + "' is not a rule (zone, all, none, 1/N or 1/N+over:T, e.g. 1/10+over:5us)");
        holds = *rule;
    }
    make_configured_workload(req.workload, req.params); // a refused parameter is a usage error
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
        const long value = parse_long("--sysctl " + text, text.substr(eq + 1));
        if (auto why = sim::set_boot_sysctl(spec, text.substr(0, eq), value); !why.empty())
            throw cli_error("--sysctl " + text + ": " + why);
        sysctls.emplace_back(text.substr(0, eq), value);
    }
    req.cfg = resolve_config_or_throw(spec, opts);
    for (const auto& [name, value] : sysctls)
        if (auto why = sim::check_sysctl(name, value, req.cfg.era); !why.empty())
            throw cli_error("--sysctl " + name + "=" + std::to_string(value) + ": " + why);
    std::vector<std::string> notes;
    if (!req.cfg.era_note.empty()) notes.push_back(req.cfg.era_note);
    notes.insert(notes.end(), req.cfg.notes.begin(), req.cfg.notes.end());

    std::vector<sim::run_summary> runs;
    const std::uint64_t first_seed = req.seed;
    for (int i = 0; i < repeat; ++i) {
        req.seed = first_seed + static_cast<std::uint64_t>(i);
        runs.push_back(a.has("--record") ? execute_recorded_run(req, *a.get("--record"), i, holds) : execute_run(req));
    }

    std::string out;
    if (repeat == 1)
        out = a.has("--json") ? sim::run_summary_json(runs.front()) : sim::run_summary_text(runs.front());
    else
        out = a.has("--json") ? sim::run_repeat_json(runs) : sim::run_repeat_text(runs);
    print_notes(notes);
    write_stdout(out);
    return 0;
}

} // namespace pcplab::cli
