#include "cmd_record_run.hpp"

#include "session/engine_sampler.hpp"
#include "session/recorder.hpp"
#include "session/recording_schema.hpp"
#include "session/recording_writer.hpp"

#include "sim/engine.hpp"
#include "sim/run_summary.hpp"

#include <algorithm>
#include <chrono>

namespace pcplab::cli
{

namespace
{

// About 200 snapshots per run: enough for smooth plots, few enough to keep recording cheap.
session::sampler_options sampling_for(const run_request& req)
{
    session::sampler_options o;
    constexpr sim::vtime_ns lo = 50'000, hi = 10'000'000;
    o.interval_ns = req.work_units
        ? 5'000'000
        : std::clamp<sim::vtime_ns>(req.duration_ns.value_or(DEFAULT_DURATION_NS) / 200, lo, hi);
    return o;
}

} // namespace

sim::run_summary execute_recorded_run(const run_request& req, const std::string& path, int index)
{
    const auto wall_start = std::chrono::steady_clock::now();
    sim::engine_config ec = sim::engine_config_for(req.cfg);
    ec.workload = req.workload;
    ec.intensity = req.intensity;
    ec.seed = req.seed;
    ec.cpus = req.cpus;
    ec.hold_threshold_ns = req.hold_threshold_ns;
    ec.keep_events = true;

    const session::sampler_options so = sampling_for(req);
    session::recorder_options ro;
    ro.source = "pcplab-cli run";
    ro.snapshot_rule = session::describe_sampling(so);
    ro.procfs_rule = session::describe_procfs(so);
    ro.wait_when_full = true; // a CLI recording is complete: the run waits rather than drop a snapshot
    ec.keep_holds = ro.holds.engine_must_keep_holds();

    make_configured_workload(req.workload, req.params);
    sim::engine e(ec, [&req] { return make_configured_workload(req.workload, req.params); });
    try {
        session::recorder rec(path, ro, index > 0);
        session::run_header h = session::run_header_for(ec, req.preset);
        h.requested_era = req.cfg.requested.str();
        h.workload_params = req.params;
        rec.begin_run(h);
        session::engine_sampler sampler(e, rec, so);

        e.boot();
        sampler.sample(sim::run_state::running);
        std::string stop = "duration";
        if (req.work_units) {
            stop = "work";
            sim::vtime_ns next = so.interval_ns;
            for (std::uint64_t n = 0; !e.finished();) {
                if (++n % 64 == 0 && (e.score().work_units >= *req.work_units || e.now() >= WORK_TIME_CAP_NS)) {
                    if (e.now() >= WORK_TIME_CAP_NS) stop = "time cap";
                    break;
                }
                if (!e.step()) break;
                if (e.now() >= next) {
                    sampler.sample(sim::run_state::running);
                    next += so.interval_ns;
                }
            }
        } else {
            const sim::vtime_ns end = req.duration_ns.value_or(DEFAULT_DURATION_NS);
            for (sim::vtime_ns t = so.interval_ns; !e.finished(); t += so.interval_ns) {
                e.run_until(std::min(t, end));
                if (t >= end || e.finished()) break;
                sampler.sample(sim::run_state::running);
            }
        }
        if (e.finished()) stop = "finished";
        sampler.sample(e.finished() ? sim::run_state::finished : sim::run_state::stopped, true);

        sim::run_summary s = sim::summarize_run(e);
        s.preset = req.preset;
        s.workload_params = req.params;
        s.requested_era = req.cfg.requested.str();
        for (unsigned i = 0; i < mm::NR_PATCHES; ++i)
            s.patch_origins.push_back(sim::switch_origin_name(req.cfg.origin[i]));
        s.stop_reason = stop;
        s.wall_ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - wall_start).count();
        rec.end_run(stop, sim::run_summary_json(s));
        rec.close();
        return s;
    } catch (const session::recording_error& err) {
        throw cli_error("--record " + std::string(err.what()));
    }
}

} // namespace pcplab::cli
