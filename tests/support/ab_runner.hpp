// A/B mode: two engines (same seed and workload, usually differing only in their switches) in lockstep.
// Each tick advances both by the same whole quanta, each on its own thread, and publishes the pair, so a
// reader always sees A and B at the same quantum boundary. Commands go to both engines or to one side;
// run control (pause, step, speed, quantum) always applies to the pair, and a reboot of either reboots both
// so they restart at virtual time 0 together. The tests' front over sim::lockstep_loop for two engines (the
// window drives the loop itself, ui/live/live_source).
#pragma once

#include "support/latest_slot.hpp"

#include "sim/engine.hpp"
#include "sim/lockstep_loop.hpp"
#include "sim/snapshot.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>

namespace pcplab::test
{

struct ab_snapshot {
    std::shared_ptr<const sim::snapshot> a, b;
};

class ab_runner
{
public:
    ab_runner(sim::engine_config a, sim::engine_config b, sim::loop_options opt = {});
    ~ab_runner();
    ab_runner(const ab_runner&) = delete;
    ab_runner& operator=(const ab_runner&) = delete;

    // The newest pair (null before the first). Both halves come from the same publish round, except while
    // the engines boot, when each half shows its own progress.
    std::shared_ptr<const ab_snapshot> latest() const { return m_latest.load(); }

    std::uint64_t post(sim::engine_command c) { return m_loop->post(std::move(c)); }
    std::uint64_t pause() { return post(sim::make_pause()); }
    std::uint64_t resume() { return post(sim::make_resume()); }
    std::uint64_t step() { return post(sim::make_step_action()); } // one action of each engine
    std::uint64_t step_quantum() { return post(sim::make_step_quantum()); }
    std::uint64_t reboot() { return post(sim::make_reboot()); }
    std::uint64_t set_speed(double vns_per_wall_s) { return post(sim::make_set_speed(vns_per_wall_s)); }
    std::uint64_t set_patch(sim::command_target side, mm::patch p, bool on);
    std::uint64_t set_sysctl(sim::command_target side, mm::vm_sysctl which, long value);
    std::uint64_t set_intensity(sim::command_target side, double x);
    std::uint64_t set_workload(sim::command_target side, std::string name);
    void stop();

    std::shared_ptr<const ab_snapshot> wait_for(
        const std::function<bool(const ab_snapshot&)>& pred, std::chrono::milliseconds timeout) const;

private:
    std::mutex m_publish_mutex; // between the two engines' threads while both boot; readers never take it
    latest_slot<ab_snapshot> m_latest;
    std::unique_ptr<sim::lockstep_loop> m_loop; // last: its threads publish into the members above
};

} // namespace pcplab::test
