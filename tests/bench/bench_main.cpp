// pcplab_bench: allocator-core benchmarks, run on demand (never by ctest).
//   build/tests/bench/pcplab_bench            all
//   build/tests/bench/pcplab_bench pcp buddy  some: pcp, buddy, deferred, metadata, boot-meta, engine
// Figures are printed as rates and as ratios measured in the same run.
#include "engine_bench.hpp"
#include "mm/boot.hpp"
#include "mm/buddy.hpp"
#include "mm/page_alloc.hpp"
#include "mm/pcp.hpp"
#include "mm/pcp_limits.hpp"
#include "mm/verify.hpp"
#include "sim/host_malloc.hpp"
#include "sim/preset.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <sys/mman.h>
#include <sys/resource.h>
#include <thread>
#include <vector>

using namespace pcplab;
using namespace pcplab::mm;

namespace
{

double now_s()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

long peak_rss_mib()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024;
}

machine_spec preset(const char* name)
{
    auto r = sim::load_preset(name);
    if (auto* e = std::get_if<pcplab::error>(&r)) {
        std::fprintf(stderr, "%s\n", e->str().c_str());
        std::exit(1);
    }
    return std::get<machine_spec>(r);
}

std::unique_ptr<machine> booted(const char* name, const char* era_text)
{
    machine_spec spec = preset(name);
    kernel_version era = *kernel_version::parse(era_text);
    auto m = std::make_unique<machine>(spec, era, default_patches(era));
    boot(*m);
    return m;
}

void bench_pcp()
{
    auto m = booted("classroom", "v6.7");
    mm_ctx c = m->ctx(0);
    alloc_request req;
    const int pairs = 4'000'000;
    std::vector<pfn_t> held;
    held.reserve(64);
    double t0 = now_s();
    for (int i = 0; i < pairs / 32; ++i) {
        for (int k = 0; k < 32; ++k) held.push_back(alloc_pages(c, req));
        for (pfn_t p : held) free_pages(c, p, 0);
        held.clear();
    }
    double dt = now_s() - t0;
    std::printf("pcp: %.1f M alloc+free pairs/s (order 0, classroom, v6.7, 32 in flight)\n", pairs / dt / 1e6);
}

void bench_buddy()
{
    auto m = booted("classroom", "v6.7");
    mm_ctx c = m->ctx(0);
    zone& z = m->nodes[0]->z(ZONE_NORMAL);
    std::mt19937 rng(1);
    std::vector<std::pair<pfn_t, unsigned>> held;
    const int ops = 2'000'000;
    mm_work before = c.work;
    double t0 = now_s();
    for (int i = 0; i < ops; ++i) {
        if (held.size() < 256 && (held.empty() || rng() % 2)) {
            unsigned order = rng() % NR_PAGE_ORDERS;
            pfn_t p = rmqueue_buddy(c, z, order, static_cast<int>(rng() % MIGRATE_PCPTYPES), ALLOC_WMARK_MIN);
            if (p != NO_PFN) held.push_back({p, order});
        } else {
            std::size_t k = rng() % held.size();
            auto [p, order] = held[k];
            held[k] = held.back();
            held.pop_back();
            free_one_page(c, z, p, order, m->get_pageblock_migratetype(p), FPI_NONE, lock_caller::free_one_page);
        }
    }
    double dt = now_s() - t0;
    mm_work w = c.work - before;
    std::printf("buddy: %.2f M alloc/free ops/s; %.2f M split+merge steps/s\n", ops / dt / 1e6,
        static_cast<double>(w.split_steps + w.merge_steps) / dt / 1e6);
}

// A memset of `bytes` into a new anonymous mapping (transparent huge pages where allowed, as machine.cpp maps
// the memmap) by `threads` threads, each its share: seconds, first-touch faults included.
double fresh_memset_s(std::size_t bytes, unsigned threads = 1)
{
    void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED) {
        // Both references divide by this time: a silent 0 would print ratios of infinity.
        std::fprintf(
            stderr, "pcplab_bench: cannot map %zu bytes for the memset reference: %s\n", bytes, std::strerror(errno));
        std::exit(1);
    }
    madvise(mem, bytes, MADV_HUGEPAGE);
    const double t0 = now_s();
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            const std::size_t lo = bytes / threads * t, hi = t + 1 == threads ? bytes : bytes / threads * (t + 1);
            std::memset(static_cast<char*>(mem) + lo, 1, hi - lo);
        });
    for (auto& th : pool) th.join();
    const double dt = now_s() - t0;
    munmap(mem, bytes);
    return dt;
}

void bench_deferred()
{
    machine_spec spec = preset("xeon-88-503g");
    kernel_version era{5, 8, 0, 0};
    std::printf("deferred init (xeon-88-503g, era v5.8):\n");
    double base = 0;
    // The first machine pays for the host handing out fresh memory; run one untimed to warm up.
    std::vector<char> buf;
    for (int threads : {0, 1, 2, 4}) {
        patch_set ps = default_patches(era);
        ps.set(patch::parallel_deferred_init, true);
        ps.init_threads = threads ? threads : 1;
        // The machine goes before the references run, so that they do not add to the process's peak RSS.
        const deferred_init_report r = [&] {
            machine m(spec, era, ps);
            mem_init(m);
            setup_per_cpu_pageset(m);
            return page_alloc_init_late(m);
        }();
        unsigned long pages = 0;
        for (auto& n : r.nodes) pages += n.pages;
        double s = static_cast<double>(r.host_ns) / 1e9;
        if (threads == 0) {
            buf.assign(pages * sizeof(page), 1); // touched once, so the timed memset measures bandwidth
            continue;
        }
        // memset of the same number of memmap bytes, as a reference for memory bandwidth
        double t0 = now_s();
        std::memset(buf.data(), threads, buf.size());
        double ms = now_s() - t0;
        // ... and into memory the process never touched, mapped as the machine maps its memmap: the host then
        // hands out zeroed pages first, as it does for a new machine's memmap during its init.
        const double fresh = fresh_memset_s(buf.size());
        if (threads == 1) base = s;
        std::printf("  %d thread(s)/node: %.0f M pages/s, %.2f s; memset of the same memmap bytes %.2f s "
                    "(init/memset = %.1fx), into fresh memory %.2f s (init/fresh memset = %.1fx); speedup vs 1 "
                    "thread %.2fx\n",
            threads, pages / s / 1e6, s, ms, s / ms, fresh, s / fresh, base / s);
    }
}

void bench_metadata()
{
    std::printf("metadata: %zu bytes of struct page per 4 KiB frame + 1 byte per pageblock (%.4f per frame)\n",
        sizeof(page), 1.0 / pageblock_nr_pages);
}

// One boot of meta-1t-316: wall seconds and the memmap's bytes.
std::pair<double, std::size_t> boot_meta_once(const char* label)
{
    double t0 = now_s();
    auto m = booted("meta-1t-316", "v6.18");
    double dt = now_s() - t0;
    unsigned long managed = 0;
    m->for_each_populated_zone([&](zone& z) { managed += z.managed(); });
    std::printf("boot meta-1t-316 (%s): %.2f s wall, peak RSS %ld MiB, managed %.1f GiB\n", label, dt, peak_rss_mib(),
        managed * 4096.0 / (1UL << 30));
    return {dt, static_cast<std::size_t>(m->max_pfn) * sizeof(page)};
}

// The first boot of a process is measured, then a second one: the first pays for the host providing 3 GiB of
// memory the process never had (under perf, most of its time is the host kernel's clear_page, and in a
// virtual machine the hypervisor backing guest pages that were given back), the second reuses what the first
// returned and shows the model's own cost. Then the floor: the same bytes first-touched in a fresh mapping
// (transparent huge pages, as machine.cpp asks) by as many threads as the host has cores.
void bench_boot_meta()
{
    const auto [first, bytes] = boot_meta_once("first in this process");
    const double again = boot_meta_once("again, the host's memory warm").first;
    const unsigned threads = std::max(1U, std::thread::hardware_concurrency());
    const double ft = fresh_memset_s(bytes, threads);
    std::printf("  first touch of the memmap's %.2f GiB on %u host threads: %.2f s; first boot / warm boot = %.2fx, "
                "warm boot / first touch = %.2fx\n",
        static_cast<double>(bytes) / (1UL << 30), threads, ft, first / again, again / ft);
}

} // namespace

int main(int argc, char** argv)
{
    pcplab::sim::keep_freed_memory_for_reuse(); // as every program that runs the engine does
    std::set<std::string> want(argv + 1, argv + argc);
    auto on = [&](const char* n) { return want.empty() || want.count(n); };
    if (on("metadata")) bench_metadata();
    if (on("pcp")) bench_pcp();
    if (on("buddy")) bench_buddy();
    if (on("deferred")) bench_deferred();
    if (on("boot-meta")) bench_boot_meta();
    if (on("engine")) bench_engine({});
    // engine:PRESET measures one seed machine alone (for a profiler, or a quicker figure).
    for (const auto& w : want)
        if (w.rfind("engine:", 0) == 0) bench_engine({w.substr(7)});
    return 0;
}
