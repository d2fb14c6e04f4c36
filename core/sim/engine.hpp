// The machine in virtual time: every simulated CPU has its own clock; the engine always advances the CPU
// that is furthest behind, performs its next action on the real allocator and charges its cost. Locks are
// granted in request order in virtual time, so contention emerges from queueing. One engine = one host
// thread; several engines can run side by side. Deterministic: wall-clock time never enters the logic.
#pragma once

#include "sim/cost_model.hpp"
#include "sim/metrics.hpp"
#include "sim/workload.hpp"

#include "mm/machine.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pcplab::sim {

struct engine_config {
    mm::machine_spec spec;
    mm::kernel_version era;
    mm::patch_set patches;
    std::string workload = "kernbench";
    double intensity = 1.0;
    std::uint64_t seed = 1;
    std::vector<int> cpus;                    // CPUs the workload runs on; empty = all
    vtime_ns hold_threshold_ns = 1'000'000;   // a "softlockup-like" hold length (settable)
    bool keep_holds = false;                  // keep every lock_hold_record (lanes view, traces)
    bool keep_events = true;
};

class engine {
public:
    explicit engine(const engine_config& cfg);
    ~engine();
    engine(const engine&) = delete;
    engine& operator=(const engine&) = delete;

    // Boot the allocator (real deferred-init threads) and attach the workload. Modelled deferred-init time
    // per node is reported in boot_report().
    void boot();
    struct boot_node_report {
        int node = 0;
        int threads = 0;
        unsigned long pages = 0;
        double modelled_ms = 0;
        double host_ms = 0;
    };
    const std::vector<boot_node_report>& boot_report() const;

    // Run one action of the CPU furthest behind; false when the workload has finished everywhere.
    bool step();
    // Run until the slowest CPU's clock reaches `t` (or the workload finishes).
    void run_until(vtime_ns t);
    vtime_ns now() const; // the smallest CPU clock
    std::uint64_t events_processed() const;

    // Live control (call from the engine's thread; the engine thread wrapper queues them).
    void set_patch(mm::patch p, bool on);      // semantics documented in engine.cpp
    void set_intensity(double intensity);
    std::string set_sysctl(const std::string& name, long value); // "" on success

    const engine_config& config() const;
    mm::machine& machine();
    const cost_model& costs() const;
    const std::vector<lock_metrics>& zone_locks() const; // one per populated zone
    const std::vector<cpu_metrics>& cpus() const;
    const global_metrics& totals() const;
    const std::vector<sim_event>& events() const;
    const std::vector<lock_hold_record>& holds() const;
    workload_score score() const;
    const workload& load() const;

private:
    struct impl;
    std::unique_ptr<impl> m_impl;
};

} // namespace pcplab::sim
