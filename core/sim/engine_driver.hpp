// One engine and everything done to it between quanta: build and boot (publishing deferred-init progress),
// run whole quanta, apply the engine commands, build snapshots. Used by one thread at a time (the engine's).
#pragma once

#include "sim/boot_presenter.hpp"
#include "sim/engine.hpp"
#include "sim/engine_command.hpp"
#include "sim/snapshot_builder.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace pcplab::sim
{

class engine_driver
{
public:
    using publish_fn = std::function<void(std::shared_ptr<const snapshot>)>;

    // `make_load`: a workload of one's own (tests, custom workloads); empty = cfg.workload by name.
    engine_driver(engine_config cfg, workload_factory make_load, int side, snapshot_options opt);
    ~engine_driver();
    engine_driver(const engine_driver&) = delete;
    engine_driver& operator=(const engine_driver&) = delete;

    // Build a new engine from the current configuration and boot it. While deferred init runs, progress
    // snapshots go to `publish` every `interval`; with `pacing` set, the boot is presented on the modelled
    // timeline (boot_presenter.hpp), which may go on after the real boot is done, until `stop` says so.
    void boot(const publish_fn& publish, std::chrono::milliseconds interval, const run_info& run,
        const boot_pacing& pacing = {}, const std::function<bool()>& stop = {});

    bool failed() const { return !m_error.empty(); }
    void fail(std::string message); // the engine is unusable from here on (until the next boot)
    const std::string& error() const { return m_error; }
    bool finished() const { return m_finished || failed() || !m_engine; }
    bool reboot_requested() const { return m_reboot; }
    vtime_ns boundary() const { return m_boundary; }
    vtime_ns now() const;
    std::uint64_t events_processed() const;
    const engine_config& config() const { return m_cfg; }
    std::uint64_t generation() const { return m_generation; }

    // Run `quanta` whole quanta: engine::run_until at each following multiple of `quantum`. Stops early
    // when the workload finishes or `stop` becomes true (only a stop may break lockstep).
    void advance(std::uint64_t quanta, vtime_ns quantum, const std::function<bool()>& stop);
    // One action of the CPU furthest behind.
    void step_action();
    // set_patch, set_sysctl, set_intensity; reboot and set_workload only record the new configuration
    // (reboot_requested() turns true) so the caller can boot every engine of a lockstep group together.
    command_result apply(const engine_command& c);
    // The result of a command at this point of the run (for run-control commands the caller handles).
    command_result result_of(const engine_command& c, bool ok = true, std::string message = {}) const;

    // Frees the engine (on the thread that ran it); snapshots already published stay valid.
    void release() { m_engine.reset(); }

    std::shared_ptr<const snapshot> make_snapshot(run_state state, run_info run, std::vector<command_result> commands);

private:
    void fail(const std::string& what, const std::exception& e);

    engine_config m_cfg;
    workload_factory m_make_load;
    int m_side;
    snapshot_options m_opt;
    std::unique_ptr<engine> m_engine;
    snapshot_cursor m_cursor;
    vtime_ns m_boundary = 0;
    bool m_finished = false;
    bool m_reboot = false;
    std::uint64_t m_generation = 0;
    std::string m_error;
    // For the achieved rates shown in snapshots (display only; never enters the simulation).
    std::chrono::steady_clock::time_point m_rate_wall{};
    std::uint64_t m_rate_events = 0;
    vtime_ns m_rate_vt = 0;
    double m_events_per_s = 0, m_vns_per_s = 0;
};

} // namespace pcplab::sim
