// One engine and everything done to it between quanta: build and boot (publishing deferred-init progress),
// run whole quanta, apply the engine commands, build snapshots. Used by one thread at a time (the engine's).
//
// The boot on the time axis: boot() builds the machine and runs its real boot, publishing snapshots whose
// time is the instant the boot_presenter shows (never past what the init threads have done), and returns
// once the threads are done, its boundary at the last instant shown. The rest of the boot, up to the
// workload's start, is then played by the run loop like any virtual time: advance() moves the boundary
// (the engine has nothing to run before its workload starts) and make_snapshot() shows the boot at the
// boundary (run_state::booting) until the workload starts.
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
    // snapshots go to `publish` every `interval`, on the virtual time axis (boot_presenter.hpp); `pacing`
    // bounds the speed at which the boot is shown (boot_speed()).
    void boot(const publish_fn& publish, std::chrono::milliseconds interval, const run_info& run,
        const boot_pacing& pacing = {});

    bool failed() const { return !m_error.empty(); }
    void fail(std::string message); // the engine is unusable from here on (until the next boot)
    const std::string& error() const { return m_error; }
    bool finished() const { return m_finished || failed() || !m_engine; }
    bool reboot_requested() const { return m_reboot; }
    vtime_ns boundary() const { return m_boundary; }
    // The instant the engine's workload starts (0 without an engine): until the boundary reaches it, the
    // boot is being played.
    vtime_ns workload_start() const;
    bool in_boot() const { return m_engine && !failed() && m_boundary < workload_start(); }
    // The speed at which this engine's boot is shown for a run at `run_speed` (boot_presentation_speed with
    // the boot's pacing bounds); 0 = unpaced.
    double boot_speed(double run_speed) const;
    // Lockstep after a boot: every engine of a group at the same boundary; `boot_end` (the group's last
    // workload start) is a boundary too, so a group can stop exactly where its workloads start.
    void set_boundary(vtime_ns b, vtime_ns boot_end);
    vtime_ns now() const;
    std::uint64_t events_processed() const;
    const engine_config& config() const { return m_cfg; }
    std::uint64_t generation() const { return m_generation; }

    // Run `quanta` whole quanta: engine::run_until at each following boundary (boundary_grid: the boot's
    // end, and whole quanta from there). Stops early when the workload finishes or `stop` becomes true (only a stop may
    // break lockstep).
    void advance(std::uint64_t quanta, vtime_ns quantum, const std::function<bool()>& stop);
    // A finished finite workload starts a new round (engine::start_round); false when it had not finished.
    bool start_round();
    // One action of the CPU furthest behind (after the boot: a boot being played is skipped to its end).
    void step_action();
    // set_patch (its result carries the engine's answer: why the switch means nothing on this era, or ""),
    // set_sysctl, set_intensity, set_continuous; reboot and set_workload only record the new configuration
    // (reboot_requested() turns true) so the caller can boot every engine of a lockstep group together.
    command_result apply(const engine_command& c);
    // The result of a command at this point of the run (for run-control commands the caller handles).
    command_result result_of(const engine_command& c, bool ok = true, std::string message = {}) const;

    // Frees the engine (on the thread that ran it); snapshots already published stay valid.
    void release() { m_engine.reset(); }

    std::shared_ptr<const snapshot> make_snapshot(run_state state, run_info run, std::vector<command_result> commands);

private:
    void fail(const std::string& what, const std::exception& e);
    std::shared_ptr<const snapshot> make_boot_snapshot(snapshot_context ctx);

    engine_config m_cfg;
    workload_factory m_make_load;
    int m_side;
    snapshot_options m_opt;
    std::unique_ptr<engine> m_engine;
    snapshot_cursor m_cursor;
    vtime_ns m_boundary = 0;
    vtime_ns m_boot_end = 0; // the group's last workload start (set_boundary)
    boot_pacing m_pacing; // the last boot's bounds
    double m_one_thread_ns = 0; // the boot's one-thread reference (one_thread_boot_ns)
    std::shared_ptr<const snapshot> m_at_setup; // the memory state deferred init starts from
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
