#include "cmd_record_run.hpp"

#include "session/engine_sampler.hpp"
#include "session/recorder.hpp"
#include "session/recording_schema.hpp"
#include "session/recording_writer.hpp"

#include "sim/engine.hpp"
#include "sim/run_summary.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

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

recorded_run execute_recorded_run(
    const run_request& req, const std::string& path, int index, const session::hold_rule& holds)
{
    const auto wall_start = std::chrono::steady_clock::now();
    sim::engine_config ec = engine_config_of(req);
    ec.keep_events = true;

    const session::sampler_options so = sampling_for(req);
    session::recorder_options ro;
    ro.source = "pcplab-cli run";
    ro.snapshot_rule = session::describe_sampling(so);
    ro.procfs_rule = session::describe_procfs(so);
    ro.wait_when_full = true; // a CLI recording is complete: the run waits rather than drop a snapshot
    ro.holds = holds;
    ec.keep_holds = ro.holds.engine_must_keep_holds();
    ec.keep_plain_pcp_holds = ro.holds.engine_must_keep_plain_pcp_holds();

    make_configured_workload(req.workload, req.params);
    sim::engine e(ec, [&req] { return make_configured_workload(req.workload, req.params); });
    std::optional<session::recorder> rec_storage;
    try {
        rec_storage.emplace(path, ro, index > 0);
    } catch (const session::recording_error& err) {
        throw cli_error("--record " + std::string(err.what()));
    }
    session::recorder& rec = *rec_storage;
    recorded_run out;
    {
        session::run_header h = session::run_header_for(ec, req.preset);
        h.requested_era = req.cfg.requested.str();
        h.workload_params = req.params;
        rec.begin_run(h);
        session::engine_sampler sampler(e, rec, so);

        run_observer obs;
        obs.every_ns = so.interval_ns;
        obs.booted = [&](sim::engine&) { sampler.sample(sim::run_state::running); };
        obs.tick = obs.booted;
        obs.stopped = [&](sim::engine& en) {
            sampler.sample(en.finished() ? sim::run_state::finished : sim::run_state::stopped, true);
        };
        // A file that cannot be written (a full disk) ends the run at the next tick rather than at its end.
        obs.stop = [&rec] { return rec.failed(); };
        obs.stop_reason = "recording failed";
        out.summary = execute_run(req, e, obs, wall_start);
        rec.end_run(out.summary.stop_reason, sim::run_summary_json(out.summary));
    }
    try {
        rec.close();
    } catch (const session::recording_error& err) {
        out.error = "--record " + std::string(err.what());
    }
    return out;
}

} // namespace pcplab::cli
