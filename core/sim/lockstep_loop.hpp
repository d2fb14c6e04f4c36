// The loop that runs one or more engines in lockstep, each on its own thread: commands between quanta,
// whole quanta per tick, snapshots at a steady wall-clock rate. The window drives it (ui/live/live_source), and
// so do the tests' engine_thread (one engine) and ab_runner (two), thin fronts in tests/support.
//
// Determinism. The engines only ever see this sequence of calls: run_until(b) for consecutive boundaries b
// (the multiples of the quantum after the boot, and the group's last workload start; virtual time since
// power-on), step() for single steps, and commands applied between two such calls. Pacing decides how
// many quanta a tick runs and when a snapshot is built, never where a quantum ends, and building a snapshot
// only reads. So the states an engine goes through are a function of its configuration and of the commands
// with the boundary at which each was applied, which every command_result records (applied_at_ns,
// applied_at_event). A command with `at` set is applied at the first boundary >= at, whatever the pacing:
// replaying a run's results as timed commands reproduces it exactly.
#pragma once

#include "sim/engine_command.hpp"
#include "sim/engine_driver.hpp"
#include "sim/pacing.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace pcplab::sim
{

struct loop_options {
    double publish_hz = 30; // snapshots per wall second while running
    double speed = 0; // virtual ns per wall second; 0 = as fast as possible
    vtime_ns quantum_ns = 100'000; // virtual time between command boundaries
    // Boot, play the boot, then pause exactly where the workloads start and wait for resume or step.
    bool start_paused = false;
    // With a speed set, the boot is played on the virtual time axis (boot_timeline.hpp, boot_presenter.hpp)
    // at a speed slowed or sped up so that a one-thread-per-node boot of the machine would be shown for at
    // least boot_min_wall and at most boot_max_wall (0: no bound); the run's own speed applies once the
    // workloads start. The classroom preset's boot is modelled at about 40 ms: without the lower bound it
    // would be over in one frame. No effect at speed 0. A lesson or story that wants the boot watched sets them.
    std::chrono::milliseconds boot_min_wall{1500};
    std::chrono::milliseconds boot_max_wall{6000};
    snapshot_options snapshots;
    workload_factory make_load; // a workload of one's own for every engine; empty = each config's by name
};

class lockstep_loop
{
public:
    // Receives one snapshot per engine (index = side). While an engine boots, the others' entries are
    // null (unchanged). Called on the engines' threads: keep it short and never block in it.
    using publish_fn = std::function<void(const std::vector<std::shared_ptr<const snapshot>>&)>;

    lockstep_loop(std::vector<engine_config> cfgs, loop_options opt, publish_fn publish);
    ~lockstep_loop(); // stop()
    lockstep_loop(const lockstep_loop&) = delete;
    lockstep_loop& operator=(const lockstep_loop&) = delete;

    std::uint64_t post(engine_command c);
    // Besides the wall-clock rate, a snapshot at every multiple of `every_ns` of virtual time (0: none), so that
    // a recording made at any speed is as dense in virtual time as `pcplab-cli run --record`. Only how many
    // quanta a tick runs changes, never where a quantum ends: the run stays the same. Any thread.
    void set_sample_interval(vtime_ns every_ns) { m_sample_ns.store(every_ns); }
    // Stops between two quanta (a boot in progress completes first), publishes a final `stopped` snapshot
    // per engine and joins every thread. Idempotent.
    void stop();

private:
    class worker;
    struct state;
    void run();
    void run_loop(state& st);
    void for_each_driver(const std::function<void(std::size_t)>& f);
    bool targets(const engine_command& c, std::size_t side) const;
    void apply(engine_command& c, state& st);
    void boot_all(state& st);
    void set_pace(state& st, vtime_ns boundary);
    // True when the boot has just ended (the group is at the last workload start).
    bool end_boot_if_over(state& st, vtime_ns boundary);
    void publish_round(state& st, bool stopping);
    void note(state& st, std::uint64_t id, const std::string& text);
    run_state state_of(const engine_driver& d, const state& st) const;

    std::vector<std::unique_ptr<engine_driver>> m_drivers;
    std::vector<std::unique_ptr<worker>> m_workers; // one per engine after the first
    loop_options m_opt;
    publish_fn m_publish;
    command_queue m_queue;
    std::atomic<vtime_ns> m_sample_ns{0};
    std::thread m_thread;
    bool m_joined = false;
};

} // namespace pcplab::sim
