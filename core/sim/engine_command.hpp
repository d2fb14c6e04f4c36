// Commands to a running engine (pause, step, speed, reboot, switches, sysctls, workload, intensity) and the
// queue that carries them to the engine's thread. A command is a typed payload (command_payload): a switch
// travels as cmd::set_patch{mm::patch, on} from the window to the engine; names are parsed at the edges (CLI
// flags, lesson files, recordings), never here. The queue's mutex is held only to push or to take the whole
// batch, never while the engine computes.
#pragma once

#include "sim/command_result.hpp"
#include "sim/workload.hpp"

#include "mm/patch_switches.hpp"
#include "mm/sysctl_bounds.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace pcplab::sim
{

struct engine_config;

// Which engine of an A/B pair a command is for: the one side type from the window's controls to the engine
// (a single engine takes `both` and `a`; `b` is refused there).
enum class command_target : std::uint8_t { both, a, b };

// One payload per command_kind, with its argument typed.
namespace cmd
{
struct pause {
};
struct resume {
};
struct step_action { // pause, then run one action of the CPU furthest behind
};
struct step_quantum { // pause, then advance by one virtual quantum
};
struct set_speed {
    double vns_per_wall_s = 0; // virtual ns per wall second; <= 0 = as fast as possible
};
struct set_quantum {
    vtime_ns quantum = 0; // virtual ns between command boundaries (> 0)
};
struct reboot {
    std::shared_ptr<const engine_config> config; // a new configuration, or null = the same again
};
struct set_patch {
    mm::patch patch = mm::patch::pcp_update_after_deferred_init;
    bool on = false;
};
struct set_sysctl {
    mm::vm_sysctl sysctl = mm::vm_sysctl::min_free_kbytes;
    long value = 0;
};
struct set_workload { // reboots with the same configuration and this workload
    std::string name; // a registered workload (make_workload), as configurations name it
};
struct set_intensity {
    double intensity = 0;
};
struct set_continuous { // a finite workload starts a new round when it finishes (engine_config::continuous)
    bool on = false;
};
} // namespace cmd

// In command_kind's order: a payload's index is its kind.
using command_payload
    = std::variant<cmd::pause, cmd::resume, cmd::step_action, cmd::step_quantum, cmd::set_speed, cmd::set_quantum,
        cmd::reboot, cmd::set_patch, cmd::set_sysctl, cmd::set_workload, cmd::set_intensity, cmd::set_continuous>;
static_assert(std::variant_size_v<command_payload> == static_cast<std::size_t>(command_kind::set_continuous) + 1);

struct engine_command {
    command_payload payload;
    std::uint64_t id = 0; // assigned when queued; increases in queue order
    // Apply at the first quantum boundary >= at (a script or a replay); nullopt = at the next boundary.
    // Timed commands make a run independent of the wall clock: see lockstep_loop.hpp.
    std::optional<vtime_ns> at;
    command_target target = command_target::both;

    command_kind kind() const { return static_cast<command_kind>(payload.index()); }
    std::string describe() const; // "set_patch batched-bulk-free=on", for logs and results
};

// Builders for the common commands.
engine_command make_pause();
engine_command make_resume();
engine_command make_step_action();
engine_command make_step_quantum();
engine_command make_set_speed(double vns_per_wall_s);
engine_command make_set_quantum(vtime_ns quantum);
engine_command make_reboot(std::shared_ptr<const engine_config> cfg = nullptr);
engine_command make_set_patch(mm::patch p, bool on, command_target target = command_target::both);
engine_command make_set_sysctl(mm::vm_sysctl s, long value, command_target target = command_target::both);
engine_command make_set_workload(std::string name);
engine_command make_set_intensity(double x);
engine_command make_set_continuous(bool on);

// Many producers, one consumer (the engine's thread).
class command_queue
{
public:
    // Queue a command; returns its id (> 0).
    std::uint64_t push(engine_command c);
    // Take everything queued so far, in queue order, without waiting.
    std::vector<engine_command> take_all();
    // Wait until a command is queued, stop is requested or `deadline` passes (whichever first).
    template <typename TimePoint> void wait_until(const TimePoint& deadline)
    {
        std::unique_lock lk(m_mutex);
        m_cv.wait_until(lk, deadline, [&] { return !m_items.empty() || m_stop.load(); });
    }
    void wait(); // without a deadline
    void request_stop();
    bool stop_requested() const { return m_stop.load(std::memory_order_relaxed); } // cheap: checked per quantum
    std::uint64_t last_id() const;

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<engine_command> m_items;
    std::uint64_t m_next_id = 1;
    std::atomic<bool> m_stop{false}; // written under m_mutex so a waiter cannot miss it
};

} // namespace pcplab::sim
