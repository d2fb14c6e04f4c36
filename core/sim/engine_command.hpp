// Commands to a running engine (pause, step, speed, reboot, switches, sysctls, workload, intensity) and the
// queue that carries them to the engine's thread. The queue's mutex is held only to push or to take the
// whole batch, never while the engine computes.
#pragma once

#include "sim/workload.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace pcplab::sim
{

struct engine_config;

enum class command_kind : std::uint8_t {
    pause,
    resume,
    step_action, // pause, then run one action of the CPU furthest behind
    step_quantum, // pause, then advance by one virtual quantum
    set_speed, // number: virtual ns per wall second; <= 0 = as fast as possible
    set_quantum, // value: virtual ns between command boundaries (> 0)
    reboot, // config: a new configuration (preset, era, switches ...), or null = the same again
    set_patch, // name, on
    set_sysctl, // name, value
    set_workload, // name: reboots with the same configuration and this workload
    set_intensity, // number
    set_continuous, // on: a finite workload starts a new round when it finishes (engine_config::continuous)
};
const char* command_kind_name(command_kind k);

// Which engine of an A/B pair a command is for (a single engine thread takes every command).
enum class command_target : std::uint8_t { both, a, b };

struct engine_command {
    command_kind kind = command_kind::pause;
    std::uint64_t id = 0; // assigned when queued; increases in queue order
    // Apply at the first quantum boundary >= at (a script or a replay); nullopt = at the next boundary.
    // Timed commands make a run independent of the wall clock: see lockstep_loop.hpp.
    std::optional<vtime_ns> at;
    command_target target = command_target::both;
    std::string name;
    bool on = false;
    long value = 0;
    double number = 0;
    std::shared_ptr<const engine_config> config;

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
engine_command make_set_patch(std::string name, bool on);
engine_command make_set_sysctl(std::string name, long value);
engine_command make_set_workload(std::string name);
engine_command make_set_intensity(double x);
engine_command make_set_continuous(bool on);

// What became of a command: where in the run it was applied (the log that replays it exactly).
struct command_result {
    std::uint64_t id = 0;
    command_kind kind = command_kind::pause;
    std::string what; // engine_command::describe()
    bool ok = true;
    std::string message; // why it was refused, or a note ("late: its time had passed")
    vtime_ns applied_at_ns = 0; // the quantum boundary at which it took effect
    std::uint64_t applied_at_event = 0; // engine events processed before it took effect
};

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
