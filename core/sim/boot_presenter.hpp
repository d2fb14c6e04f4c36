// How a boot is shown while it runs, for the live views (display only: nothing here enters the simulation).
//
// Unpaced (no speed set, or nothing deferred): each node's progress is what its real init threads have
// done, read from their atomic counters every publish interval.
//
// Paced (the engine thread has a speed): the boot of a small preset takes a few host milliseconds, one
// frame at most, so it is presented on the modelled timeline instead. Every node starts its deferred init
// at modelled time 0, as the kernel's pgdatinit threads do, and initialises frames at the cost model's rate
// (deferred_init_ns_per_page for its thread count). The timeline is played at `boot_speed` modelled ns per
// wall second and a node's progress is what the timeline has done at that point, never more than its
// threads have really done. So no number is invented: each is either a real count or the model's.
#pragma once

#include "sim/cost_model.hpp"
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

struct boot_pacing {
    double speed = 0; // the run's speed (virtual ns per wall second); 0 = unpaced
    // Bounds on the wall time a one-thread-per-node boot of the machine would be shown for: the speed is
    // slowed so that it lasts at least min_wall and sped up so that it lasts at most max_wall (0: no bound).
    std::chrono::milliseconds min_wall{0};
    std::chrono::milliseconds max_wall{0};
};

// The presentation speed for a machine whose one-thread-per-node deferred init is modelled to take
// `one_thread_ns` (its slowest node): p.speed bounded by min_wall/max_wall; 0 = unpaced. The one-thread
// reference does not depend on switch 004, so two engines of one preset (A/B) share one time scale and a
// parallel init is seen to finish sooner.
double boot_presentation_speed(const boot_pacing& p, double one_thread_ns);

// What one node's init has really done, and its modelled rate.
struct node_boot_state {
    int node = 0;
    int threads = 0;
    unsigned long total = 0;
    unsigned long host_done = 0;
    bool host_finished = false;
    double ns_per_page = 0; // modelled
};

// The progress shown for a node at modelled time `modelled_ns` (ignored when not paced).
deferred_progress present_node(const node_boot_state& n, double modelled_ns, bool paced);

class boot_presenter
{
public:
    using clock = std::chrono::steady_clock;

    boot_presenter(const cost_rates& rates, const boot_pacing& pacing);

    // The init threads' counters now. The first call fixes the nodes, their totals and rates, the speed and
    // the start of the timeline.
    void observe(const mm::machine& m, const mm::deferred_init& di, clock::time_point now);
    // The boot is over: every node observed so far has all its frames.
    void host_finished();
    bool paced() const { return m_speed > 0; }
    double speed() const { return m_speed; }
    // Modelled ns of deferred init shown at `now`.
    double modelled_ns(clock::time_point now) const;
    std::vector<deferred_progress> progress(clock::time_point now) const;
    // Every node is really done and, when paced, the timeline has reached each node's modelled end.
    bool done(clock::time_point now) const;
    // Wall time until done (zero when done or when the threads are not finished).
    clock::duration remaining(clock::time_point now) const;

private:
    cost_rates m_rates;
    boot_pacing m_pacing;
    std::vector<node_boot_state> m_nodes;
    double m_speed = 0;
    bool m_started = false;
    clock::time_point m_start{};
};

} // namespace pcplab::sim
