// How a boot is shown while its init threads run on the host, for the live views (display only: nothing
// here enters the simulation).
//
// The boot is played on the virtual time axis (boot_timeline.hpp) from power-on, at `speed` virtual ns per
// wall second (boot_presentation_speed: the run's speed, bounded so that the boot stays watchable), but
// never past what the real init threads have done: the instant shown is at most the point of each unfinished
// node's modelled timeline that its threads have reached. Unpaced (speed 0) the shown instant follows the
// threads alone. A node's progress at an instant is its modelled timeline's, capped by its threads' count.
// So no number is invented: each is either a real count or the model's. Once the threads are done the
// engine's driver plays the rest of the boot in its run loop (lockstep_loop.hpp).
#pragma once

#include "sim/snapshot.hpp"

#include <chrono>
#include <vector>

namespace pcplab::mm
{
class machine;
class deferred_init;
} // namespace pcplab::mm

namespace pcplab::sim
{

class engine;

struct boot_pacing {
    double speed = 0; // the run's speed (virtual ns per wall second); 0 = unpaced
    // Bounds on the wall time a one-thread-per-node boot of the machine would be shown for: the speed is
    // slowed so that it lasts at least min_wall and sped up so that it lasts at most max_wall (0: no bound).
    std::chrono::milliseconds min_wall{0};
    std::chrono::milliseconds max_wall{0};
};

// The presentation speed for a machine whose one-thread-per-node boot is modelled to take `one_thread_ns`
// (one_thread_boot_ns): p.speed bounded by min_wall/max_wall; 0 = unpaced. The one-thread reference does not
// depend on switch 004, so two engines of one preset (A/B) share one time scale and a parallel init is seen to
// finish sooner.
double boot_presentation_speed(const boot_pacing& p, double one_thread_ns);
// An engine's boot as if every node had one init thread: the early part plus the slowest node's frames at
// the one-thread rate (engine::boot_report must be known, i.e. from boot_observer::on_setup on).
double one_thread_boot_ns(const engine& e);

// One node's deferred init: its modelled timeline and what its real threads have done.
struct node_boot_state {
    int node = 0;
    int threads = 0;
    unsigned long total = 0;
    double modelled_ms = 0;
    vtime_ns start_ns = 0, done_at_ns = 0; // its modelled timeline on the virtual time axis
    unsigned long host_done = 0;
    bool host_finished = false;
};
// The instant of the node's modelled timeline its threads have reached (done_at once they are finished).
vtime_ns host_reached(const node_boot_state& n);
// The node's progress shown at virtual time t: the modelled timeline's frames, never more than the threads'.
deferred_progress present_node(const node_boot_state& n, vtime_ns t, bool paced);
// Every node of an engine's boot plan, with its threads all done (`host_done`) or none started.
std::vector<node_boot_state> planned_nodes(const engine& e, bool host_done);

class boot_presenter
{
public:
    using clock = std::chrono::steady_clock;

    // From the engine's boot plan (boot_observer::on_setup); the timeline starts at power-on at `start`.
    boot_presenter(const engine& e, double speed, clock::time_point start);
    // The init threads' counters now.
    void observe(const mm::machine& m, const mm::deferred_init& di);
    // The threads are done: every node has all its frames.
    void host_finished();
    bool paced() const { return m_speed > 0; }
    double speed() const { return m_speed; }
    // The instant shown at `now` (never earlier than one shown before, never past the workload's start).
    vtime_ns position(clock::time_point now);
    std::vector<deferred_progress> progress(vtime_ns t) const;

private:
    std::vector<node_boot_state> m_nodes;
    double m_speed = 0;
    clock::time_point m_start{};
    vtime_ns m_shown = 0;
    vtime_ns m_end = 0; // the workload's start: the boot is over
};

} // namespace pcplab::sim
