#include "soak_run.hpp"

#include "sim/engine.hpp"

#include "mm/patch_switches.hpp"
#include "mm/verify.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <time.h>
#include <unistd.h>

namespace pcplab::soak
{

namespace
{

double wall_s()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct flip {
    sim::vtime_ns at = 0; // virtual time since the start of the soak (summed over reboots)
    mm::patch p = mm::patch::pcp_update_after_deferred_init;
};

// K moments drawn uniformly over the run, each flipping one switch drawn uniformly; the same seed gives
// the same schedule.
std::vector<flip> flip_schedule(const soak_options& opt)
{
    std::mt19937_64 rng(opt.seed * 0x9E3779B97F4A7C15ULL + 1);
    std::uniform_int_distribution<sim::vtime_ns> when(1, std::max<sim::vtime_ns>(opt.duration_ns - 1, 1));
    std::uniform_int_distribution<unsigned> which(0, mm::NR_PATCHES - 1);
    std::vector<flip> out;
    for (int i = 0; i < opt.flips; ++i) out.push_back({when(rng), static_cast<mm::patch>(which(rng))});
    std::sort(out.begin(), out.end(), [](const flip& a, const flip& b) { return a.at < b.at; });
    return out;
}

double cpu_s()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

} // namespace

long rss_kib()
{
    std::ifstream f("/proc/self/statm");
    long size = 0, resident = 0;
    f >> size >> resident;
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

soak_result soak_workload(const sim::machine_config& cfg, const std::string& workload, const soak_options& opt)
{
    soak_result r;
    r.workload = workload;
    sim::engine_config ec = sim::engine_config_for(cfg);
    ec.workload = workload;
    ec.seed = opt.seed;

    const double t0 = wall_s();
    sim::engine e(ec);
    e.boot();
    const double t1 = wall_s(), c1 = cpu_s();
    r.boot_wall_s = t1 - t0;

    auto check = [&](const std::string& where) {
        r.verifies += 1;
        auto v = mm::verify(e.machine());
        if (v.ok()) return true;
        for (std::size_t i = 0; i < v.errors.size() && i < 5; ++i) r.errors.push_back(where + ": " + v.errors[i]);
        return false;
    };
    // The start is measured after a first verify(): its working memory (one mark per frame, hundreds of
    // MiB on a terabyte machine) stays with the allocator and is not growth of the run.
    if (!check("t=0ms after boot")) return r;
    r.rss_start_kib = r.rss_max_kib = r.rss_settled_kib = rss_kib();
    bool settled = false;

    const auto flips = flip_schedule(opt);
    std::size_t next_flip = 0;
    sim::vtime_ns base = 0; // virtual time of the runs before the last reboot (workload time: boots not counted)
    while (base + e.elapsed() < opt.duration_ns) {
        // The next stop: the next whole virtual second, the next flip or the end, whichever is first.
        const sim::vtime_ns now = base + e.elapsed();
        const sim::vtime_ns next_second = (now / sim::NS_PER_SEC + 1) * sim::NS_PER_SEC;
        sim::vtime_ns stop = std::min(opt.duration_ns, next_second);
        if (next_flip < flips.size()) stop = std::min(stop, std::max(flips[next_flip].at, now + 1));
        e.run_until(e.workload_start() + stop - base);
        const sim::vtime_ns reached = base + e.elapsed();
        const std::string at = "t=" + std::to_string(reached / 1'000'000) + "ms";

        while (next_flip < flips.size() && flips[next_flip].at <= reached) {
            const mm::patch p = flips[next_flip++].p;
            const bool on = !e.machine().patches[p];
            e.set_patch(p, on);
            r.flips += 1;
            if (!check(at + " after " + std::string(mm::patch_name(p)) + (on ? "=on" : "=off"))) return r;
        }
        // The end's verify comes after the loop: a step may overshoot the end from a flip's stop.
        if ((stop == next_second && stop < opt.duration_ns) || e.finished()) {
            if (!check(at)) return r;
            const long rss = rss_kib();
            r.rss_max_kib = std::max(r.rss_max_kib, rss);
            if (!settled) r.rss_settled_kib = rss;
            settled = true;
            if (opt.progress)
                opt.progress(workload + " " + at + " events " + std::to_string(r.events + e.events_processed())
                    + " rss " + std::to_string(rss / 1024) + " MiB");
        }
        if (e.finished()) {
            // A finite workload (kernbench, boot) is done: a fresh machine with the current switches goes on.
            base = reached;
            r.events += e.events_processed();
            e.reboot();
            r.reboots += 1;
            if (!check(at + " after reboot")) return r;
        }
    }
    if (!check("t=" + std::to_string((base + e.elapsed()) / 1'000'000) + "ms (end)")) return r;
    r.events += e.events_processed();
    r.virtual_ns = std::min(opt.duration_ns, base + e.elapsed());
    r.rss_end_kib = rss_kib();
    r.rss_max_kib = std::max(r.rss_max_kib, r.rss_end_kib);
    r.run_wall_s = wall_s() - t1;
    r.run_cpu_s = cpu_s() - c1;
    return r;
}

bool memory_flat(const soak_result& r)
{
    return r.rss_end_kib - r.rss_settled_kib <= 64 * 1024 + r.rss_settled_kib / 50;
}

std::string soak_line(const soak_result& r)
{
    char buf[512];
    const double vs = static_cast<double>(r.virtual_ns) / 1e9;
    const double cpu = r.run_cpu_s > 0 ? r.run_cpu_s : 1e-9;
    std::snprintf(buf, sizeof buf,
        "%-12s %8.3f virtual s %12llu events  %7.1f s wall %7.1f s CPU (+%.1f s boot)  %7.4f virtual s/CPU s"
        "  %5.2f M events/CPU s  %5d verifies %3d flips %3d reboots"
        "  RSS start %ld / at 1 s %ld / max %ld / end %ld MiB  %s",
        r.workload.c_str(), vs, static_cast<unsigned long long>(r.events), r.run_wall_s, r.run_cpu_s, r.boot_wall_s,
        vs / cpu, static_cast<double>(r.events) / cpu / 1e6, r.verifies, r.flips, r.reboots, r.rss_start_kib / 1024,
        r.rss_settled_kib / 1024, r.rss_max_kib / 1024, r.rss_end_kib / 1024, r.ok() ? "ok" : "INVARIANT FAILURE");
    return buf;
}

} // namespace pcplab::soak
