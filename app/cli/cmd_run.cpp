// pcplab-cli run: boot a preset in virtual time, run a workload on it and print what the allocator did:
// totals, a per-zone table with the zone->lock figures, the workload's score. --repeat K runs seeds
// seed .. seed+K-1 and reports mean and standard deviation of every figure.
#include "args.hpp"
#include "cmd_record_run.hpp"
#include "commands.hpp"
#include "machine_args.hpp"
#include "run_engine.hpp"
#include "run_plan.hpp"

#include "sim/boot_sysctl.hpp"
#include "sim/run_summary.hpp"
#include "sim/workload.hpp"

#include "mm/patch_switches.hpp"

namespace pcplab::cli
{

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
          "  --duration T             virtual time of the workload, after the boot: 10s, 250ms, 50us, 1000ns (a\n"
          "                           bare number is seconds); default 1s; a finite workload (kernbench, boot)\n"
          "                           may finish first. The boot's modelled time is reported apart (boot_times)\n"
          "  --work N                 run until the workload has done N work units (its score unit)\n"
          "  --continuous             a finite workload that finishes starts again on the same machine (a new\n"
          "                           round; virtual time goes on) until --duration or --work is reached\n"
          "  --seed N                 the workload's random seed (default 1)\n"
          "  --repeat K               K runs with seeds N .. N+K-1: every figure as mean and standard deviation\n"
          "  --intensity X            scales the workload's tasks or sizes (default 1)\n"
          "  --hold-threshold T       count zone->lock holds longer than T (default 1ms)\n"
          "  --param KEY=VALUE        set a workload parameter (repeatable; an unknown key lists them)\n"
          "  --sysctl NAME=VALUE      boot with a vm.* sysctl set (repeatable): vm.percpu_pagelist_high_fraction\n"
          "                           (v5.14+), vm.percpu_pagelist_fraction (up to v5.13), vm.min_free_kbytes,\n"
          "                           vm.watermark_scale_factor, vm.pcp_batch_scale_max (v6.7+, 0 .. 6; a proposal:\n"
          "                           the kernel's CONFIG_PCP_BATCH_SCALE_MAX as a sysctl)\n"
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
    run_plan plan = plan_run(args);
    run_request& req = plan.req;

    std::vector<sim::run_summary> runs;
    std::string record_error; // the recording could not be written: the series stops at that run
    const std::uint64_t first_seed = req.seed;
    try {
        for (int i = 0; i < plan.repeat && record_error.empty(); ++i) {
            req.seed = first_seed + static_cast<std::uint64_t>(i);
            if (!plan.record) {
                runs.push_back(execute_run(req));
                continue;
            }
            recorded_run r = execute_recorded_run(req, *plan.record, i, plan.holds);
            runs.push_back(std::move(r.summary));
            record_error = std::move(r.error);
        }
    } catch (const sim::workload_error& e) {
        throw cli_error(e.what());
    }

    std::string out;
    if (runs.size() == 1)
        out = plan.json ? sim::run_summary_json(runs.front()) : sim::run_summary_text(runs.front());
    else
        out = plan.json ? sim::run_repeat_json(runs) : sim::run_repeat_text(runs);
    print_notes(plan.notes);
    // What ran is shown even when its recording failed (the runs happened; the line on stderr says what the file
    // keeps), and the command then fails.
    write_stdout(out);
    if (!record_error.empty()) throw cli_error(record_error);
    return 0;
}

} // namespace pcplab::cli
