// The engine's speed on the seed machines: boot once (host time reported apart), then run the seed's
// workload for a fixed slice of wall time and report engine events per second (goal: >= 20 M per CPU second)
// and virtual seconds per wall second.
#include "engine_bench.hpp"

#include "sim/engine.hpp"
#include "sim/machine_config.hpp"
#include "sim/preset.hpp"
#include "sim/seed_reference.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <sys/resource.h>

using namespace pcplab;

namespace
{

double wall_s()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// CPU time of this thread: on a shared host (other builds running) the wall-clock rate says more about the
// neighbours than about the engine.
double cpu_s()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

// System time of this thread (RUSAGE_THREAD): page faults on memory first touched during the run.
double thread_sys_s()
{
    rusage ru{};
    getrusage(RUSAGE_THREAD, &ru);
    return static_cast<double>(ru.ru_stime.tv_sec) + static_cast<double>(ru.ru_stime.tv_usec) / 1e6;
}

long peak_rss_mib()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024;
}

// The workload of the seed whose preset this is (seed_reference), kernbench otherwise.
std::string seed_workload(const std::string& preset)
{
    for (const auto& s : sim::seed_references())
        if (s.preset == preset) return s.workload;
    return "kernbench";
}

void bench_one(const std::string& preset, double budget_s)
{
    auto loaded = sim::load_preset(preset);
    if (auto* err = std::get_if<pcplab::error>(&loaded)) {
        std::printf("engine %-14s: %s\n", preset.c_str(), err->str().c_str());
        return;
    }
    auto resolved = sim::make_machine_config(std::get<mm::machine_spec>(loaded), {});
    if (auto* err = std::get_if<pcplab::error>(&resolved)) {
        std::printf("engine %-14s: %s\n", preset.c_str(), err->str().c_str());
        return;
    }
    const auto& mc = std::get<sim::machine_config>(resolved);
    sim::engine_config cfg;
    cfg.spec = mc.spec;
    cfg.era = mc.era;
    cfg.patches = mc.patches;
    cfg.workload = seed_workload(preset);
    if (!sim::make_workload(cfg.workload)) cfg.workload = "kernbench";

    const double b0 = wall_s();
    sim::engine e(cfg);
    e.boot();
    const double boot_s = wall_s() - b0;

    // Warm-up (not measured): the first virtual millisecond, where workloads set up their tasks.
    const double w0 = wall_s();
    e.run_for(1'000'000);
    const double warm_s = wall_s() - w0;

    // Run in slices of virtual time until the wall budget is spent (the slice grows with the measured speed).
    const double t0 = wall_s();
    const double c0 = cpu_s();
    const double s0 = thread_sys_s();
    const std::uint64_t ev0 = e.events_processed();
    const sim::vtime_ns v0 = e.now();
    sim::vtime_ns slice = 100'000; // 100 us
    while (wall_s() - t0 < budget_s && !e.finished()) {
        e.run_until(e.now() + slice);
        if (wall_s() - t0 < budget_s / 8) slice *= 2;
    }
    const double dt = wall_s() - t0;
    const double dc = cpu_s() - c0;
    const double ds = thread_sys_s() - s0;
    const double events = static_cast<double>(e.events_processed() - ev0);
    const double vsec = static_cast<double>(e.now() - v0) / 1e9;
    std::printf("engine %-14s %-11s %4d CPUs: %6.2f M events/s, %8.5f virtual s per wall s; per CPU s: %6.2f M "
                "events, %8.5f virtual s (%.1f M events in %.2f s wall, %.2f s CPU of which %.2f s system; boot "
                "%.2f s, warm-up %.2f s host), peak RSS %ld MiB\n",
        preset.c_str(), cfg.workload.c_str(), e.machine().nr_cpu_ids(), events / dt / 1e6, vsec / dt, events / dc / 1e6,
        vsec / dc, events / 1e6, dt, dc, ds, boot_s, warm_s, peak_rss_mib());
}

} // namespace

void bench_engine(const std::vector<std::string>& presets)
{
    std::vector<std::string> list = presets;
    if (list.empty()) list = {"epyc2-256", "skylake-4s", "intel-2s-224", "meta-1t-316", "xeon-88-503g"};
    for (const auto& p : list) bench_one(p, 3.0);
}
