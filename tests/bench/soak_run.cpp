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

#if defined(__SANITIZE_ADDRESS__)
#define PCPLAB_SOAK_UNDER_ASAN 1
#include <sstream>
#endif

namespace pcplab::soak
{

namespace
{

double wall_s()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A switch flip or a sysctl write at a moment of the run: virtual time since the start of the soak (summed over
// reboots), or the engine events done so far when the soak has an event target.
struct action {
    std::uint64_t at = 0;
    bool is_flip = true;
    mm::patch p = mm::patch::pcp_update_after_deferred_init;
    std::string sysctl;
    long value = 0;
};

// Values a sysctl takes on `era` that move the limits or watermarks noticeably (the fraction sysctls exist on
// one side of v5.14 each; min_free_kbytes from 16 MiB to 256 MiB).
std::vector<std::pair<std::string, std::vector<long>>> sysctl_choices(const mm::kernel_version& era)
{
    std::vector<std::pair<std::string, std::vector<long>>> out;
    out.push_back(
        {era.before(5, 14) ? "vm.percpu_pagelist_fraction" : "vm.percpu_pagelist_high_fraction", {0, 8, 16, 64, 256}});
    out.push_back({"vm.watermark_scale_factor", {10, 50, 200, 1000}});
    out.push_back({"vm.min_free_kbytes", {16384, 65536, 262144}});
    return out;
}

// K flips and W writes at moments drawn uniformly over [1, span), each flipping a switch or writing a value
// drawn uniformly; the same seed gives the same schedule.
std::vector<action> schedule(const soak_options& opt, std::uint64_t span, const mm::kernel_version& era)
{
    std::mt19937_64 rng(opt.seed * 0x9E3779B97F4A7C15ULL + 1);
    std::uniform_int_distribution<std::uint64_t> when(1, std::max<std::uint64_t>(span - 1, 1));
    std::uniform_int_distribution<unsigned> which(0, mm::NR_PATCHES - 1);
    std::vector<action> out;
    for (int i = 0; i < opt.flips; ++i) {
        action a;
        a.at = when(rng);
        a.p = static_cast<mm::patch>(which(rng));
        out.push_back(a);
    }
    const auto choices = sysctl_choices(era);
    for (int i = 0; i < opt.sysctl_writes; ++i) {
        action a;
        a.at = when(rng);
        a.is_flip = false;
        const auto& [name, values] = choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng)];
        a.sysctl = name;
        a.value = values[std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(rng)];
        out.push_back(a);
    }
    std::stable_sort(out.begin(), out.end(), [](const action& a, const action& b) { return a.at < b.at; });
    return out;
}

double cpu_s()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

} // namespace

#ifdef PCPLAB_SOAK_UNDER_ASAN
namespace
{
// The resident part of AddressSanitizer's shadow on x86-64 (LowShadow .. HighShadow, 0x7fff8000 ..
// 0x10007fff8000), from /proc/self/smaps. A machine's memmap is mmap'd; each reboot maps the new one at an address
// the kernel picks and touches the shadow of those bytes (an eighth of them), which munmap leaves resident: the
// resident set grows by it or not with where the mapping lands, a leak of the sanitizer's, not the program's.
long asan_shadow_rss_kib()
{
    constexpr unsigned long shadow_begin = 0x7fff8000UL, shadow_end = 0x10007fff8000UL;
    std::ifstream f("/proc/self/smaps");
    std::string line;
    bool in_shadow = false;
    long kib = 0;
    while (std::getline(f, line)) {
        unsigned long lo = 0, hi = 0;
        char dash = 0;
        std::istringstream head(line);
        if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
            in_shadow = lo >= shadow_begin && hi <= shadow_end;
            continue;
        }
        if (in_shadow && line.rfind("Rss:", 0) == 0) kib += std::stol(line.substr(4));
    }
    return kib;
}
} // namespace
#endif

long rss_kib()
{
    std::ifstream f("/proc/self/statm");
    long size = 0, resident = 0;
    f >> size >> resident;
    const long kib = resident * (sysconf(_SC_PAGESIZE) / 1024);
#ifdef PCPLAB_SOAK_UNDER_ASAN
    return kib - asan_shadow_rss_kib();
#else
    return kib;
#endif
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

    const bool by_events = opt.events > 0;
    const auto actions = schedule(opt, by_events ? opt.events : opt.duration_ns, e.machine().era.version);
    std::size_t next_action = 0;
    sim::vtime_ns base = 0; // virtual time of the runs before the last reboot (workload time: boots not counted)
    std::uint64_t base_events = 0; // and their events
    // A slice: how far the loop runs between looks at the schedule (a moment in events is met within a slice).
    constexpr sim::vtime_ns slice = 1'000'000;
    auto events_now = [&] { return base_events + e.events_processed(); };
    auto over = [&] { return base + e.elapsed() >= opt.duration_ns || (by_events && events_now() >= opt.events); };
    while (!over()) {
        // The next stop: the next whole virtual second, the next flip or write (or the next slice when they are
        // drawn over events) or the end, whichever is first.
        const sim::vtime_ns now = base + e.elapsed();
        const sim::vtime_ns next_second = (now / sim::NS_PER_SEC + 1) * sim::NS_PER_SEC;
        sim::vtime_ns stop = std::min(opt.duration_ns, next_second);
        if (by_events)
            stop = std::min(stop, now + slice);
        else if (next_action < actions.size())
            stop = std::min(stop, std::max<sim::vtime_ns>(actions[next_action].at, now + 1));
        e.run_until(e.workload_start() + stop - base);
        const sim::vtime_ns reached = base + e.elapsed();
        const std::string at = "t=" + std::to_string(reached / 1'000'000) + "ms";

        const std::uint64_t moment = by_events ? events_now() : reached;
        while (next_action < actions.size() && actions[next_action].at <= moment) {
            const action& a = actions[next_action++];
            std::string what;
            if (a.is_flip) {
                const bool on = !e.machine().patches[a.p];
                e.set_patch(a.p, on);
                r.flips += 1;
                what = std::string(mm::patch_name(a.p)) + (on ? "=on" : "=off");
            } else {
                what = a.sysctl + "=" + std::to_string(a.value);
                if (auto why = e.set_sysctl(a.sysctl, a.value); !why) {
                    r.errors.push_back(at + ": writing " + what + " was refused: " + why.message());
                    return r;
                }
                r.sysctl_writes += 1;
            }
            if (!check(at + " after " + what)) return r;
        }
        // The end's verify comes after the loop: a step may overshoot the end from a flip's stop.
        if ((stop == next_second && stop < opt.duration_ns) || e.finished()) {
            if (!check(at)) return r;
            const long rss = rss_kib();
            r.rss_max_kib = std::max(r.rss_max_kib, rss);
            if (!settled) r.rss_settled_kib = rss;
            settled = true;
            if (opt.progress && stop == next_second)
                opt.progress(workload + " " + at + " events " + std::to_string(events_now()) + " rss "
                    + std::to_string(rss / 1024) + " MiB");
        }
        if (e.finished() && !over()) {
            // A finite workload (kernbench, boot) is done: a fresh machine with the current switches and sysctls
            // goes on.
            base = reached;
            base_events = events_now();
            e.reboot();
            r.reboots += 1;
            if (!check(at + " after reboot")) return r;
        }
    }
    const sim::vtime_ns end = base + e.elapsed();
    if (!check("t=" + std::to_string(end / 1'000'000) + "ms (end)")) return r;
    r.events = events_now();
    r.virtual_ns = std::min(opt.duration_ns, end);
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
        "  %5.2f M events/CPU s  %5d verifies %3d flips %3d sysctl writes %3d reboots"
        "  RSS start %ld / at 1 s %ld / max %ld / end %ld MiB  %s",
        r.workload.c_str(), vs, static_cast<unsigned long long>(r.events), r.run_wall_s, r.run_cpu_s, r.boot_wall_s,
        vs / cpu, static_cast<double>(r.events) / cpu / 1e6, r.verifies, r.flips, r.sysctl_writes, r.reboots,
        r.rss_start_kib / 1024, r.rss_settled_kib / 1024, r.rss_max_kib / 1024, r.rss_end_kib / 1024,
        r.ok() ? "ok" : "INVARIANT FAILURE");
    return buf;
}

} // namespace pcplab::soak
