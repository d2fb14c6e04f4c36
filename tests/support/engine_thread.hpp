// An engine on its own std::thread, driven by commands and watched through immutable snapshots: the tests' and
// benchmarks' front over sim::lockstep_loop (the window drives the loop itself, ui/live/live_source).
//
//   test::engine_thread t(cfg);              // builds and boots on the new thread
//   t.set_patch(mm::patch::batched_bulk_free, true); // queued; applied at the next quantum boundary
//   auto s = t.latest();                    // the newest snapshot; never blocks the engine
//
// Readers load the newest snapshot from a latest_slot (a shared_ptr swapped under a pointer-copy lock): the engine
// never waits for a reader and a reader never waits for the engine (it may keep a snapshot as long as it likes).
// Commands travel through a queue whose mutex is never held while the engine computes. Pacing, determinism and the
// command semantics are described in lockstep_loop.hpp.
#pragma once

#include "support/latest_slot.hpp"

#include "sim/engine.hpp"
#include "sim/lockstep_loop.hpp"
#include "sim/snapshot.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <thread>

namespace pcplab::test
{

struct engine_thread_options : sim::loop_options {
    // Called on the engine's thread with every snapshot it publishes, before latest() returns it (a
    // recorder that must see every snapshot). Keep it short and never block in it.
    std::function<void(const std::shared_ptr<const sim::snapshot>&)> on_publish;
};

class engine_thread
{
public:
    explicit engine_thread(sim::engine_config cfg, engine_thread_options opt = {});
    ~engine_thread(); // stop()
    engine_thread(const engine_thread&) = delete;
    engine_thread& operator=(const engine_thread&) = delete;

    // The newest snapshot (null only before the engine thread published its first).
    std::shared_ptr<const sim::snapshot> latest() const { return m_latest.load(); }

    // Commands; each returns the command's id (see snapshot::commands and run_info::commands_done_through).
    std::uint64_t post(sim::engine_command c) { return m_loop->post(std::move(c)); }
    std::uint64_t pause() { return post(sim::make_pause()); }
    std::uint64_t resume() { return post(sim::make_resume()); }
    std::uint64_t step() { return post(sim::make_step_action()); } // one action
    std::uint64_t step_quantum() { return post(sim::make_step_quantum()); }
    std::uint64_t set_speed(double vns_per_wall_s) { return post(sim::make_set_speed(vns_per_wall_s)); }
    std::uint64_t reboot() { return post(sim::make_reboot()); } // same configuration, live settings kept
    std::uint64_t reboot(sim::engine_config cfg)
    {
        return post(sim::make_reboot(std::make_shared<const sim::engine_config>(std::move(cfg))));
    }
    std::uint64_t set_patch(mm::patch p, bool on) { return post(sim::make_set_patch(p, on)); }
    std::uint64_t set_sysctl(mm::vm_sysctl which, long value) { return post(sim::make_set_sysctl(which, value)); }
    std::uint64_t set_workload(std::string name) { return post(sim::make_set_workload(std::move(name))); }
    std::uint64_t set_intensity(double x) { return post(sim::make_set_intensity(x)); }
    // Stops between two quanta and joins the thread; latest() then shows run_state::stopped. Idempotent.
    void stop();

    // Polls latest() (without touching the engine) until `pred` holds; the snapshot that satisfied it, or
    // null after `timeout`.
    std::shared_ptr<const sim::snapshot> wait_for(
        const std::function<bool(const sim::snapshot&)>& pred, std::chrono::milliseconds timeout) const;
    // Waits until every command up to `id` has been handled and shows in a snapshot.
    std::shared_ptr<const sim::snapshot> wait_for_command(std::uint64_t id, std::chrono::milliseconds timeout) const;

private:
    latest_slot<sim::snapshot> m_latest;
    std::function<void(const std::shared_ptr<const sim::snapshot>&)> m_on_publish;
    std::unique_ptr<sim::lockstep_loop> m_loop; // last: its thread publishes into the members above
};

// Polls `latest` every millisecond until `pred` holds on a snapshot or `timeout` passes.
template <typename Latest, typename Pred>
auto poll_snapshot(const Latest& latest, const Pred& pred, std::chrono::milliseconds timeout) -> decltype(latest())
{
    const auto end = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        auto s = latest();
        if (s && pred(*s)) return s;
        if (std::chrono::steady_clock::now() >= end) return nullptr;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

} // namespace pcplab::test
