// Soak: one machine under one workload for a long stretch of virtual time or engine events, with the patch
// switches flipped and vm.* sysctls written at random (seeded) moments, verify() every virtual second and after
// every flip and write, and the process's resident memory sampled each second. Shared by pcplab_soak
// (tests/bench/soak_main.cpp) and the soak smoke test (tests/robust/soak_test.cpp).
#pragma once

#include "sim/machine_config.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pcplab::soak
{

struct soak_options {
    sim::vtime_ns duration_ns = 3600 * sim::NS_PER_SEC; // virtual time per workload (default one hour)
    // Engine events per workload (0: none). With a target, the run ends at whichever of the two comes first and
    // the flips and writes are drawn over the events, not over the virtual time.
    std::uint64_t events = 0;
    std::uint64_t seed = 1; // the workload's seed and the flip schedule's
    int flips = 16; // switch flips at uniformly drawn moments of the run
    int sysctl_writes = 0; // vm.* sysctl writes (a sysctl the era has, a value it takes) at drawn moments
    // Called after each virtual second with a one-line progress note (nullptr: quiet).
    std::function<void(const std::string&)> progress;
};

struct soak_result {
    std::string workload;
    sim::vtime_ns virtual_ns = 0; // virtual time run, summed over reboots
    std::uint64_t events = 0;
    int verifies = 0;
    int flips = 0;
    int sysctl_writes = 0;
    int reboots = 0; // a finite workload that finished is rebooted (a fresh machine) to go on
    long rss_start_kib = 0; // after the first boot
    // After the first virtual second (the start when the run is shorter): by then the workload has built its
    // working set (its record of every block it holds, the PCP lists), so growth after it is the run's own.
    long rss_settled_kib = 0;
    long rss_max_kib = 0;
    long rss_end_kib = 0;
    double boot_wall_s = 0; // the first boot
    double run_wall_s = 0; // everything after it
    double run_cpu_s = 0; // the process's CPU time after the first boot (the engine is one thread; on a busy
                          // host it is the fairer measure of the rate)
    std::vector<std::string> errors; // verify() failures (first few) and where they happened
    bool ok() const { return errors.empty(); }
};

// The process's resident set now (/proc/self/statm), KiB. Under AddressSanitizer (the test build) without the
// sanitizer's shadow memory, which grows with where each reboot's machine is mapped (soak_run.cpp).
long rss_kib();

// Runs `workload` on the configured machine. Never throws for an invariant failure: it is in errors.
soak_result soak_workload(const sim::machine_config& cfg, const std::string& workload, const soak_options& opt);

// Memory stayed flat: the end within 64 MiB + 2% of the first virtual second (allocator caches and the odd
// page of the workload's own bookkeeping; a leak per event or per second is far larger over a soak). The
// first second is left out: a workload that fills memory (stress-vm on a terabyte) builds its record of the
// blocks it holds then, which is the size of the machine, not growth.
bool memory_flat(const soak_result& r);

// One line: workload, virtual time, events, rates, verifies, flips, reboots, RSS start/max/end.
std::string soak_line(const soak_result& r);

} // namespace pcplab::soak
