// The workloads, driven by a small fake engine: it always runs the CPU whose clock is furthest behind, hands
// out fake pfns from a counter and checks every free against what it handed out.
#include "sim/workload.hpp"
#include "sim/workloads/rng.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <set>
#include <unordered_map>

using namespace pcplab;
using sim::cpu_action;
using sim::vtime_ns;

namespace
{

using kind = cpu_action::kind;

struct fake_driver {
    sim::workload& w;
    std::vector<vtime_ns> clock;
    std::vector<bool> cpu_done;
    std::unordered_map<mm::pfn_t, unsigned> outstanding; // pfn -> order, handed out and not freed
    mm::pfn_t next_pfn = 0;
    std::uint64_t violations = 0; // frees of pfns not outstanding, or with the wrong order
    std::uint64_t steps = 0, allocs = 0, frees = 0, failures = 0;
    std::uint64_t fail_every = 0; // fail every n-th allocation (0: never)
    bool fail_high_order = false; // fail every allocation of order > 0
    std::uint64_t hash = 1469598103934665603ULL; // FNV-1a over the action sequence
    std::array<std::uint64_t, 16> allocs_by_order{};
    std::array<std::uint64_t, 8> allocs_by_mt{};
    std::set<int> cpus_allocating;
    std::vector<mm::pfn_t> movable_pfns; // in allocation order
    int last_cpu = -1;
    cpu_action last;

    fake_driver(sim::workload& wl, int nr_cpus)
        : w(wl)
        , clock(nr_cpus, 0)
        , cpu_done(nr_cpus, false)
    {
    }

    void mix(std::uint64_t v)
    {
        hash ^= v;
        hash *= 1099511628211ULL;
    }

    // One action of the CPU furthest behind (ties: lowest CPU). False when every CPU is done.
    bool step()
    {
        int cpu = -1;
        for (int c = 0; c < static_cast<int>(clock.size()); ++c)
            if (!cpu_done[c] && (cpu < 0 || clock[c] < clock[cpu])) cpu = c;
        if (cpu < 0) return false;
        cpu_action a = w.next(cpu, clock[cpu]);
        ++steps;
        last_cpu = cpu;
        last = a;
        mix(static_cast<std::uint64_t>(cpu));
        mix(static_cast<std::uint64_t>(a.k));
        mix(a.order);
        mix(a.mt);
        mix(a.highest_zone);
        mix(a.ns);
        switch (a.k) {
        case kind::alloc: {
            ++allocs;
            clock[cpu] += 100;
            bool fail = (fail_every && allocs % fail_every == 0) || (fail_high_order && a.order > 0);
            if (fail) {
                ++failures;
                w.allocated(cpu, mm::NO_PFN, clock[cpu]);
                break;
            }
            mm::pfn_t pfn = next_pfn;
            next_pfn += 1U << a.order;
            outstanding[pfn] = a.order;
            ++allocs_by_order[a.order];
            ++allocs_by_mt[a.mt];
            if (a.mt == mm::MIGRATE_MOVABLE) movable_pfns.push_back(pfn);
            cpus_allocating.insert(cpu);
            mix(pfn);
            w.allocated(cpu, pfn, clock[cpu]);
            break;
        }
        case kind::free: {
            ++frees;
            clock[cpu] += 50;
            mix(a.pfn);
            auto it = outstanding.find(a.pfn);
            if (it == outstanding.end() || it->second != a.order)
                ++violations;
            else
                outstanding.erase(it);
            break;
        }
        case kind::compute:
        case kind::idle:
            clock[cpu] += a.ns;
            if (a.ns == 0) clock[cpu] += 1; // a zero-length action must not stall the driver
            break;
        case kind::done:
            cpu_done[cpu] = true;
            break;
        }
        return true;
    }

    void run(std::uint64_t n)
    {
        for (std::uint64_t i = 0; i < n && step(); ++i) { }
    }
    // Step until `pred` holds for the action just run (or `limit` steps).
    template <typename P> bool run_until(P pred, std::uint64_t limit = 10'000'000)
    {
        for (std::uint64_t i = 0; i < limit; ++i) {
            if (!step()) return false;
            if (pred(*this)) return true;
        }
        return false;
    }
    // Hand back pages the workload gives up (reclaim / release_all): each must be outstanding.
    void take_back(const std::vector<std::pair<mm::pfn_t, unsigned>>& blocks)
    {
        for (const auto& [pfn, order] : blocks) {
            auto it = outstanding.find(pfn);
            if (it == outstanding.end() || it->second != order)
                ++violations;
            else
                outstanding.erase(it);
        }
    }
};

sim::workload_env make_env(int cpus, std::uint64_t seed, double intensity = 1.0, int nodes = 1)
{
    sim::workload_env env;
    env.nr_cpus = cpus;
    for (int c = 0; c < cpus; ++c) env.cpu_node.push_back(c * nodes / cpus);
    env.total_pages = 1U << 20;
    env.seed = seed;
    env.intensity = intensity;
    env.user_ns_per_page = 300;
    return env;
}

// Small settings so every workload cycles quickly in a test.
std::unique_ptr<sim::workload> make_small(const std::string& name)
{
    auto w = sim::make_workload(name);
    REQUIRE(w);
    auto set = [&](const char* k, double v) { REQUIRE(w->set_param(k, v).ok()); };
    if (name == "kernbench") {
        set("jobs", 12);
        set("anon_mib_min", 1);
        set("anon_mib_max", 3);
        set("output_kib_min", 16);
        set("output_kib_max", 64);
        set("job_ms_min", 1);
        set("job_ms_max", 3);
    } else if (name == "page-fault1") {
        set("mmap_mib", 1);
    } else if (name == "stress-vm") {
        set("workers", 2);
        set("vm_mib", 1);
    } else if (name == "high-order") {
        set("blocks", 8);
    } else if (name == "bursty") {
        set("burst_mib", 0.25);
    } else if (name == "net-stream") {
        set("writes", 2);
    } else if (name == "frag-churn") {
        set("pollute_pct", 1);
        set("ring_pct", 0.1);
    } else if (name == "boot") {
        set("steps", 100);
        set("resident", 16);
    } else if (name == "bpf-any-context") {
        set("steps", 100);
        set("resident", 16);
        set("bpf_batch", 8);
    } else if (name == "jemalloc-purge") {
        set("run_kib", 64);
        set("dirty_mib", 0.25);
    }
    return w;
}

std::uint64_t sequence_hash(const std::string& name, std::uint64_t seed, std::uint64_t steps)
{
    auto w = make_small(name);
    w->attach(make_env(4, seed));
    fake_driver d(*w, 4);
    d.run(steps);
    return d.hash;
}

const std::vector<std::string> k_all = {"kernbench", "page-fault1", "stress-vm", "high-order", "bursty", "boot",
    "net-stream", "frag-churn", "bpf-any-context", "jemalloc-purge"};

} // namespace

TEST_CASE("the workloads' generator is the published splitmix64 / xoshiro256** pair")
{
    // splitmix64 from state 0: Vigna's reference first output.
    std::uint64_t state = 0;
    CHECK(sim::workloads::splitmix64(state) == 0xe220a8397b1dcdafULL);
    // below() stays in range and covers it; streams with different indices differ.
    sim::workloads::rng r(sim::workloads::stream_seed(1, 2, 3));
    std::array<int, 6> seen{};
    for (int i = 0; i < 6000; ++i) ++seen[r.below(6)];
    for (int n : seen) CHECK(n > 800);
    CHECK(sim::workloads::stream_seed(1, 2, 3) != sim::workloads::stream_seed(1, 2, 4));
    CHECK(sim::workloads::stream_seed(1, 2, 3) != sim::workloads::stream_seed(2, 2, 3));
}

TEST_CASE("the registry lists every workload and makes each by name")
{
    auto names = sim::workload_names();
    CHECK(names == k_all);
    for (const auto& n : names) {
        auto w = sim::make_workload(n);
        REQUIRE(w);
        CHECK(w->name() == n);
        CHECK_FALSE(w->params().empty());
    }
    CHECK(sim::make_workload("page_fault1")->name() == "page-fault1");
    CHECK(sim::make_workload("no-such-load") == nullptr);
}

TEST_CASE("a workload refuses unknown and out-of-range parameters")
{
    auto w = sim::make_workload("stress-vm");
    CHECK(w->set_param("vm_bytes", 1).message().find("unknown parameter vm_bytes") != std::string::npos);
    CHECK_FALSE(w->set_param("workers", -1).ok());
    CHECK(w->set_param("workers", 3).ok());
    auto ps = w->params();
    auto it = std::find_if(ps.begin(), ps.end(), [](const sim::workload_param& p) { return p.key == "workers"; });
    REQUIRE(it != ps.end());
    CHECK(it->value == 3);
}

TEST_CASE("every workload frees only blocks it allocated, each once, also when allocations fail")
{
    for (const auto& name : k_all) {
        for (std::uint64_t fail_every : {0, 7}) {
            INFO(name << ", failing every " << fail_every << "th allocation");
            auto w = make_small(name);
            w->attach(make_env(4, 42));
            fake_driver d(*w, 4);
            d.fail_every = fail_every;
            d.run(300'000);
            CHECK(d.violations == 0);
            CHECK(d.allocs > 1000);
            CHECK(d.frees > 500);
            if (fail_every) CHECK(d.failures > 0);
        }
    }
}

TEST_CASE("the finite workloads finish and leave nothing allocated")
{
    for (const std::string name : {"kernbench", "boot", "bpf-any-context"}) {
        INFO(name);
        auto w = make_small(name);
        w->attach(make_env(4, 3));
        fake_driver d(*w, 4);
        CHECK_FALSE(w->finished());
        d.run(50'000'000);
        CHECK(std::all_of(d.cpu_done.begin(), d.cpu_done.end(), [](bool b) { return b; }));
        CHECK(w->finished());
        CHECK(d.outstanding.empty());
        CHECK(d.violations == 0);
        auto s = w->score(*std::max_element(d.clock.begin(), d.clock.end()));
        if (name == "kernbench") {
            CHECK(s.work_units == 12);
            CHECK(s.unit == "jobs");
            CHECK(s.seed_measure_value > 0);
            // The build's elapsed time is when the last job exited: no CPU's clock can be far past it.
            CHECK(s.seed_measure_value * 1e9 <= static_cast<double>(*std::max_element(d.clock.begin(), d.clock.end())));
        } else if (name == "boot") {
            CHECK(s.work_units == 4 * 100 * 4); // 4 CPUs x 100 steps x 4 pages
        } else {
            CHECK(s.work_units == 4 * 100 * 2); // 4 CPUs x 100 steps x 2 pages of the program
            CHECK(s.unit == "BPF pages");
        }
    }
}

TEST_CASE("kernbench allocates an order-1 PGD per process and frees each one after an order-0 free")
{
    auto w = make_small("kernbench");
    w->attach(make_env(4, 3));
    fake_driver d(*w, 4);
    std::vector<int> prev_free_order(4, -1);
    std::uint64_t pgd_frees = 0, pgd_after_high = 0;
    while (d.step()) {
        if (d.last.k != kind::free) continue;
        if (d.last.order == 1) {
            ++pgd_frees;
            if (prev_free_order[d.last_cpu] > 0) ++pgd_after_high;
        }
        prev_free_order[d.last_cpu] = d.last.order;
    }
    CHECK(d.violations == 0);
    CHECK(d.outstanding.empty());
    // 12 jobs x 3 processes (gcc driver, cc1, as), unmovable like every page table.
    CHECK(d.allocs_by_order[1] == 36);
    CHECK(pgd_frees == 36);
    // exit_mmap's order-0 frees come first: never two high-order frees in a row (v6.7's free_high test).
    CHECK(pgd_after_high == 0);

    auto no_pti = make_small("kernbench");
    REQUIRE(no_pti->set_param("pgd_order", 0).ok());
    no_pti->attach(make_env(4, 3));
    fake_driver d0(*no_pti, 4);
    d0.run(50'000'000);
    CHECK(d0.allocs_by_order[1] == 0);
}

TEST_CASE("the same seed gives the same action sequence, another seed a different one")
{
    for (const auto& name : k_all) {
        INFO(name);
        std::uint64_t a = sequence_hash(name, 11, 200'000);
        CHECK(a == sequence_hash(name, 11, 200'000));
        CHECK(a != sequence_hash(name, 12, 200'000));
    }
}

TEST_CASE("page-fault1 faults exactly 32768 pages per 128 MiB mapping and frees them all at munmap")
{
    auto w = sim::make_workload("page-fault1");
    auto env = make_env(1, 5);
    w->attach(env);
    fake_driver d(*w, 1);
    REQUIRE(d.run_until([](const fake_driver& f) { return f.last.k == kind::free; }));
    // Everything before the first free was the mapping's faults: 32768 data pages and 64 PTE pages.
    CHECK(d.allocs_by_mt[mm::MIGRATE_MOVABLE] == 32768);
    CHECK(d.allocs_by_mt[mm::MIGRATE_UNMOVABLE] == 64);
    CHECK(d.allocs_by_order[0] == 32768 + 64);
    CHECK(d.outstanding.size() == 32768 + 64 - 1);
    CHECK(w->score(d.clock[0]).work_units == 32768);
    // munmap frees all of them before the next mapping faults again.
    REQUIRE(d.run_until([](const fake_driver& f) { return f.last.k == kind::alloc; }));
    CHECK(d.frees == 32768 + 64);
    CHECK(d.outstanding.size() == 1);
    CHECK(d.violations == 0);
}

TEST_CASE("page-fault1 places tasks on cores of all nodes first and intensity sets their number")
{
    for (double intensity : {0.5, 1.0}) {
        auto w = make_small("page-fault1");
        w->attach(make_env(8, 5, intensity, 2)); // node 0: CPUs 0-3, node 1: CPUs 4-7
        fake_driver d(*w, 8);
        d.run(200'000);
        if (intensity == 0.5)
            CHECK(d.cpus_allocating == std::set<int>{0, 1, 4, 5});
        else
            CHECK(d.cpus_allocating.size() == 8);
    }
}

TEST_CASE("stress-vm gives reclaim the pages it touched longest ago and faults them in again")
{
    auto w = sim::make_workload("stress-vm");
    REQUIRE(w->set_param("workers", 1).ok());
    REQUIRE(w->set_param("vm_mib", 4).ok()); // 1024 pages, two PTE pages
    REQUIRE(w->set_param("sweeps", 2).ok());
    w->attach(make_env(1, 9));
    fake_driver d(*w, 1);
    // The first sweep faults the 1024 pages in address order; the second writes them back in runs of 512.
    REQUIRE(d.run_until([](const fake_driver& f) { return f.movable_pfns.size() == 1024; }));
    REQUIRE(d.run_until([](const fake_driver& f) { return f.last.k == kind::compute && f.last.ns == 512 * 600; }));

    // Pages 0-511 were just written again; 512-1023 not since the first sweep: those go first, in order.
    auto taken = w->reclaim(10);
    REQUIRE(taken.size() == 10);
    d.take_back(taken);
    CHECK(d.violations == 0);
    std::vector<mm::pfn_t> got;
    for (const auto& [pfn, order] : taken) got.push_back(pfn);
    CHECK(got == std::vector<mm::pfn_t>(d.movable_pfns.begin() + 512, d.movable_pfns.begin() + 522));

    // The rest of the second sweep faults exactly those ten again before munmap frees anything.
    std::uint64_t allocs_before = d.allocs;
    REQUIRE(d.run_until([](const fake_driver& f) { return f.last.k == kind::free; }));
    CHECK(d.allocs - allocs_before == 10);
    // munmap frees the 1024 present pages and the two PTE pages; no reclaimed pfn comes back.
    REQUIRE(d.run_until([](const fake_driver& f) { return f.last.k == kind::alloc; }));
    CHECK(d.frees == 1026);
    CHECK(d.violations == 0);
    // Bogo ops as stress-ng counts them: one per 32 KiB swept, 2 sweeps x 1024 pages x 4 KiB here (the pages
    // faulted again count once, when written).
    CHECK(w->score(d.clock[0]).work_units == 2 * 1024 * 4 / 32);
}

TEST_CASE("stress-vm reclaim in the first sweep takes the earliest faulted pages")
{
    auto w = sim::make_workload("stress-vm");
    REQUIRE(w->set_param("workers", 1).ok());
    REQUIRE(w->set_param("vm_mib", 1).ok()); // 256 pages
    REQUIRE(w->set_param("sweeps", 1).ok());
    w->attach(make_env(1, 9));
    fake_driver d(*w, 1);
    REQUIRE(d.run_until([](const fake_driver& f) { return f.movable_pfns.size() == 200; }));
    auto first = w->reclaim(5);
    auto second = w->reclaim(5);
    d.take_back(first);
    d.take_back(second);
    std::vector<mm::pfn_t> got;
    for (const auto& [pfn, order] : first) got.push_back(pfn);
    for (const auto& [pfn, order] : second) got.push_back(pfn);
    CHECK(got == std::vector<mm::pfn_t>(d.movable_pfns.begin(), d.movable_pfns.begin() + 10));
    // With one sweep, munmap follows: it frees only what is still present (246 pages + the PTE page).
    REQUIRE(d.run_until([](const fake_driver& f) { return f.last.k == kind::alloc && f.frees > 0; }));
    CHECK(d.frees == 247);
    CHECK(d.violations == 0);
}

TEST_CASE("stress-vm reclaim never returns more than asked and spreads over the workers")
{
    auto w = make_small("stress-vm");
    w->attach(make_env(4, 9));
    fake_driver d(*w, 4);
    d.run(600); // both workers are part-way through faulting in their first 256 pages
    auto taken = w->reclaim(40);
    CHECK(taken.size() == 40); // 32 (SWAP_CLUSTER_MAX) from one worker, 8 from the other
    d.take_back(taken);
    d.run(200'000);
    CHECK(d.violations == 0);
    CHECK(w->reclaim(0).empty());
}

TEST_CASE("high-order allocates orders 1 to 3 unmovable and THP order movable, and frees them in a run")
{
    auto w = make_small("high-order");
    w->attach(make_env(2, 17));
    fake_driver d(*w, 2);
    d.run(50'000);
    for (unsigned o : {1U, 2U, 3U, 9U}) CHECK(d.allocs_by_order[o] > 0);
    CHECK(d.allocs_by_order[0] == 0);
    CHECK(d.allocs_by_mt[mm::MIGRATE_MOVABLE] == d.allocs_by_order[9]);

    // On one CPU, the frees of a cycle come one after another with no allocation between (free_high's case).
    auto w1 = make_small("high-order");
    w1->attach(make_env(1, 17));
    fake_driver d1(*w1, 1);
    REQUIRE(d1.run_until([](const fake_driver& f) { return f.last.k == kind::free; }));
    int run = 1;
    while (d1.step() && d1.last.k != kind::alloc)
        if (d1.last.k == kind::free) ++run;
    CHECK(run == 8);
}

TEST_CASE("high-order falls back to base pages when a high-order allocation fails")
{
    auto w = make_small("high-order");
    w->attach(make_env(1, 17));
    fake_driver d(*w, 1);
    d.fail_high_order = true;
    d.run(20'000);
    CHECK(d.failures > 0);
    CHECK(d.allocs_by_order[0] > 0);
    CHECK(d.violations == 0);
}

TEST_CASE("bursty idles at least a virtual second between bursts")
{
    auto w = make_small("bursty");
    w->attach(make_env(2, 23));
    fake_driver d(*w, 2);
    std::vector<std::vector<vtime_ns>> idles(2);
    std::vector<std::uint64_t> allocs_since_idle(2, 0), frees_since_idle(2, 0);
    bool burst_before_each_idle = true;
    for (int i = 0; i < 100'000 && d.step(); ++i) {
        if (d.last.k == kind::alloc) ++allocs_since_idle[d.last_cpu];
        if (d.last.k == kind::free) ++frees_since_idle[d.last_cpu];
        if (d.last.k == kind::idle) {
            // 0.25 MiB = 64 pages faulted and all freed again before each idle period (except the start).
            if (!idles[d.last_cpu].empty()
                && (allocs_since_idle[d.last_cpu] != 64 || frees_since_idle[d.last_cpu] != 64))
                burst_before_each_idle = false;
            idles[d.last_cpu].push_back(d.last.ns);
            allocs_since_idle[d.last_cpu] = frees_since_idle[d.last_cpu] = 0;
        }
    }
    for (const auto& v : idles) {
        REQUIRE(v.size() >= 3);
        CHECK(v[0] <= 100'000'000); // the start jitter
        for (std::size_t i = 1; i < v.size(); ++i) {
            CHECK(v[i] >= 1'000'000'000);
            CHECK(v[i] <= 3'000'000'000);
        }
    }
    CHECK(burst_before_each_idle);
    CHECK(d.violations == 0);
}

TEST_CASE("intensity scales each workload's load")
{
    auto load = [](const std::string& name, double intensity) {
        auto w = make_small(name);
        w->attach(make_env(8, 31, intensity));
        fake_driver d(*w, 8);
        if (name == "kernbench" || name == "page-fault1" || name == "frag-churn") {
            d.run(100'000);
            return static_cast<double>(d.cpus_allocating.size()); // tasks / job slots
        }
        if (name == "boot" || name == "bpf-any-context") {
            d.run(10'000'000);
            return static_cast<double>(d.allocs); // finite: total pages
        }
        // Allocations one CPU makes before it first frees: one pass, cycle or burst (jemalloc-purge's workers
        // never free: before the compute that ends a run, longer than a page's touch).
        std::uint64_t allocs = 0;
        for (int i = 0; i < 10'000'000 && d.step(); ++i) {
            if (d.last_cpu != 0) continue;
            if (d.last.k == kind::free) break;
            if (name == "jemalloc-purge" && d.last.k == kind::compute && d.last.ns > 1000) break;
            if (d.last.k == kind::alloc) ++allocs;
        }
        return static_cast<double>(allocs);
    };
    for (const auto& name : k_all) {
        INFO(name);
        double half = load(name, 0.5), full = load(name, 1.0);
        CHECK(half > 0);
        CHECK(full == Approx(2 * half).epsilon(0.02));
    }
    // Changed while running: page-fault1 takes on tasks at the next mapping.
    auto w = make_small("page-fault1");
    w->attach(make_env(8, 31, 0.25));
    fake_driver d(*w, 8);
    d.run(50'000);
    CHECK(d.cpus_allocating.size() == 2);
    w->set_intensity(1.0);
    d.run(200'000);
    CHECK(d.cpus_allocating.size() == 8);
}

TEST_CASE("frag-churn's streaming tasks follow a live intensity, up to the number its setup divided memory among")
{
    auto w = make_small("frag-churn");
    w->attach(make_env(8, 31, 1.0));
    fake_driver d(*w, 8);
    d.run(400'000); // past every task's pollute and punch phases: all 8 stream
    REQUIRE(d.cpus_allocating.size() == 8);
    auto streaming = [&](std::uint64_t steps) {
        d.cpus_allocating.clear();
        d.run(steps);
        return d.cpus_allocating.size();
    };
    w->set_intensity(0.5);
    streaming(20'000); // a CPU may finish the page it was on
    CHECK(streaming(100'000) == 4);
    w->set_intensity(1.0);
    CHECK(streaming(100'000) == 8);
    w->set_intensity(2.0); // more than the setup's 8 tasks: still 8 (the next boot takes it)
    CHECK(streaming(100'000) == 8);
    CHECK(d.violations == 0);
}

TEST_CASE("release_all hands back exactly what the workload holds, and it stops")
{
    for (const auto& name : k_all) {
        INFO(name);
        auto w = make_small(name);
        w->attach(make_env(4, 8));
        fake_driver d(*w, 4);
        d.run(20'001);
        auto held = w->release_all();
        CHECK(held.size() == d.outstanding.size());
        d.take_back(held);
        CHECK(d.outstanding.empty());
        CHECK(d.violations == 0);
        for (int c = 0; c < 4; ++c) CHECK(w->next(c, d.clock[c]).k == kind::done);
    }
}

TEST_CASE("a CPU outside the workload's set is told it is done")
{
    auto w = make_small("page-fault1");
    auto env = make_env(4, 1);
    env.cpus = {1, 2};
    w->attach(env);
    CHECK(w->next(0, 0).k == kind::done);
    CHECK(w->next(3, 0).k == kind::done);
    CHECK(w->next(1, 0).k != kind::done);
    CHECK(w->next(2, 0).k != kind::done);
}

TEST_CASE("frag-churn fills its share with order-3 unmovable slabs, frees about free_pct of them, then streams")
{
    auto w = sim::make_workload("frag-churn");
    REQUIRE(w->set_param("pollute_pct", 10).ok());
    REQUIRE(w->set_param("free_pct", 40).ok());
    REQUIRE(w->set_param("ring_pct", 1).ok());
    w->attach(make_env(1, 9)); // 1 Mi pages: 13107 slabs of 8 pages, a ring of 10485 pages
    fake_driver d(*w, 1);
    REQUIRE(d.run_until([](const fake_driver& f) { return f.last.k == kind::free; }));
    CHECK(d.allocs_by_order[3] == 13107);
    CHECK(d.allocs_by_mt[mm::MIGRATE_UNMOVABLE] == 13107);
    REQUIRE(d.run_until([](const fake_driver& f) { return f.last.k == kind::alloc; }));
    const double freed = static_cast<double>(d.frees) / 13107.0;
    CHECK(freed > 0.37);
    CHECK(freed < 0.43);
    // Streaming: order-0 movable pages, the oldest freed once the ring is full.
    d.run(4 * 10485);
    CHECK(d.allocs_by_order[0] > 10485);
    CHECK(d.allocs_by_mt[mm::MIGRATE_MOVABLE] == d.allocs_by_order[0]);
    CHECK(d.outstanding.size() <= 13107 + 10485);
    CHECK(d.violations == 0);
    CHECK(w->score(d.clock[0]).work_units == static_cast<double>(d.allocs_by_order[0]));
}
