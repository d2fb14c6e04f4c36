// pcplab_soak: invariants and memory under load, run on demand (never by ctest; scripts/soak.sh runs the set).
//   build/tests/bench/pcplab_soak                       meta-1t-316, every workload, one virtual hour each
//   build/tests/bench/pcplab_soak --duration 60 --workload stress-vm --seed 3 --flips 16 --preset classroom
//   build/tests/bench/pcplab_soak --preset epyc2-256 --events 1e9 --flips 16 --sysctl-writes 8
// For each workload: boot, run for the virtual duration (or the engine events) with the patch switches flipped
// and vm.* sysctls written at random seeded moments, verify() every virtual second and after each flip and
// write, resident memory at start, max and end.
// Exit status 0 when every verify passed and memory stayed flat, 1 otherwise, 2 for bad arguments.
#include "soak_run.hpp"

#include "sim/host_malloc.hpp"
#include "sim/preset.hpp"
#include "sim/workload.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <variant>
#include <vector>

using namespace pcplab;

namespace
{

[[noreturn]] void usage(const std::string& why)
{
    std::fprintf(stderr,
        "pcplab_soak: %s\nusage: pcplab_soak [--preset NAME] [--duration VIRTUAL_SECONDS] [--workload W]... "
        "[--events N] [--seed N] [--flips K] [--sysctl-writes K] [--quiet] | --list-workloads\n",
        why.c_str());
    std::exit(2);
}

double number(const std::string& flag, const char* text, double lo, double hi)
{
    char* end = nullptr;
    double v = std::strtod(text, &end);
    if (!*text || *end || !(v >= lo && v <= hi))
        usage(flag + ": '" + text + "' is not a number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return v;
}

} // namespace

int main(int argc, char** argv)
{
    pcplab::sim::keep_freed_memory_for_reuse(); // as every program that runs the engine does
    std::string preset = "meta-1t-316";
    soak::soak_options opt;
    std::vector<std::string> workloads;
    bool quiet = false;
    bool duration_given = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> const char* {
            if (i + 1 >= argc) usage(a + ": missing value");
            return argv[++i];
        };
        if (a == "--preset")
            preset = value();
        else if (a == "--duration") {
            opt.duration_ns = static_cast<sim::vtime_ns>(number(a, value(), 0.001, 1e6) * 1e9);
            duration_given = true;
        } else if (a == "--workload")
            workloads.push_back(value());
        else if (a == "--seed")
            opt.seed = static_cast<std::uint64_t>(number(a, value(), 0, 1e15));
        else if (a == "--events") {
            opt.events = static_cast<std::uint64_t>(number(a, value(), 1, 1e15));
            if (!duration_given) opt.duration_ns = static_cast<sim::vtime_ns>(1e6 * 1e9); // the events decide
        } else if (a == "--sysctl-writes")
            opt.sysctl_writes = static_cast<int>(number(a, value(), 0, 1e6));
        else if (a == "--flips")
            opt.flips = static_cast<int>(number(a, value(), 0, 1e6));
        else if (a == "--quiet")
            quiet = true;
        else if (a == "--list-workloads") {
            // soak.sh asks for the registry's names, so a workload added later is soaked without editing the script.
            for (const auto& w : sim::workload_names()) std::printf("%s\n", w.c_str());
            return 0;
        } else
            usage("unknown argument '" + a + "'");
    }
    const auto names = sim::workload_names();
    if (workloads.empty()) workloads = names;
    for (const auto& w : workloads)
        if (std::find(names.begin(), names.end(), w) == names.end()) usage("--workload: unknown workload '" + w + "'");

    auto loaded = sim::load_preset(preset);
    if (auto* err = std::get_if<pcplab::error>(&loaded)) usage("--preset: " + err->str());
    auto resolved = sim::make_machine_config(std::get<mm::machine_spec>(loaded), {});
    if (auto* err = std::get_if<pcplab::error>(&resolved)) usage("--preset: " + err->str());
    const auto& cfg = std::get<sim::machine_config>(resolved);
    if (!quiet) opt.progress = [](const std::string& line) { std::fprintf(stderr, "  %s\n", line.c_str()); };

    std::printf("soak: %s (%s), %.3f virtual s%s per workload, seed %llu, %d switch flips, %d sysctl writes\n",
        preset.c_str(), cfg.era.str().c_str(), static_cast<double>(opt.duration_ns) / 1e9,
        opt.events ? (" or " + std::to_string(opt.events) + " events").c_str() : "",
        static_cast<unsigned long long>(opt.seed), opt.flips, opt.sysctl_writes);
    std::fflush(stdout);
    bool ok = true;
    for (const auto& w : workloads) {
        soak::soak_result r = soak::soak_workload(cfg, w, opt);
        std::printf("%s%s\n", soak::soak_line(r).c_str(), soak::memory_flat(r) ? "" : "  MEMORY GREW");
        for (const auto& e : r.errors) std::printf("  %s\n", e.c_str());
        std::fflush(stdout);
        ok = ok && r.ok() && soak::memory_flat(r);
    }
    return ok ? 0 : 1;
}
