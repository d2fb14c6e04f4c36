// The soak loop on the classroom machine, short: every workload keeps the allocator's invariants through
// random switch flips, a finite workload is rebooted and goes on, and memory stays flat.
#include "bench/soak_run.hpp"

#include "sim/preset.hpp"
#include "sim/workload.hpp"

#include <catch2/catch.hpp>

#include <variant>

using namespace pcplab;

namespace
{

sim::machine_config classroom()
{
    auto loaded = sim::load_preset("classroom");
    REQUIRE(std::holds_alternative<mm::machine_spec>(loaded));
    auto cfg = sim::make_machine_config(std::get<mm::machine_spec>(loaded), {});
    REQUIRE(std::holds_alternative<sim::machine_config>(cfg));
    return std::get<sim::machine_config>(cfg);
}

} // namespace

TEST_CASE("every workload keeps verify() clean through random switch flips (classroom soak)")
{
    const auto cfg = classroom();
    soak::soak_options opt;
    // Short: page-fault1 does about 50 M events per virtual second here, and this runs under the sanitizers.
    opt.duration_ns = 300'000'000;
    opt.flips = 4;
    opt.seed = 11;
    for (const auto& w : sim::workload_names()) {
        INFO(w);
        soak::soak_result r = soak::soak_workload(cfg, w, opt);
        INFO(soak::soak_line(r));
        for (const auto& e : r.errors) UNSCOPED_INFO(e);
        CHECK(r.ok());
        CHECK(r.virtual_ns == opt.duration_ns);
        CHECK(r.flips == opt.flips);
        // One verify after boot, one per virtual second and at the end, one after each flip and each reboot.
        CHECK(r.verifies >= 2 + r.flips + r.reboots);
        CHECK(r.events > 0);
    }
}

TEST_CASE("a finite workload is rebooted when it finishes, and memory stays flat across reboots")
{
    const auto cfg = classroom();
    soak::soak_options opt;
    opt.duration_ns = 2 * sim::NS_PER_SEC;
    opt.flips = 0;
    // The boot workload finishes in about half a virtual second (2000 steps of 100-400 us).
    soak::soak_result r = soak::soak_workload(cfg, "boot", opt);
    INFO(soak::soak_line(r));
    CHECK(r.ok());
    CHECK(r.reboots >= 2);
    CHECK(r.virtual_ns == opt.duration_ns);
    // The first reboot builds the new machine before the old one is gone, and the freed memory stays with the
    // allocator for reuse (keep_freed_memory_for_reuse): up to one classroom machine more than after boot, 32-36
    // MiB on some hosts. After that every reboot reuses it: the later reboots (the one after 1 s at least) add
    // nothing, where a leak would add a machine's worth each time.
    CHECK(r.rss_end_kib - r.rss_start_kib < 64 * 1024);
    CHECK(r.rss_end_kib - r.rss_settled_kib < 8 * 1024);
}

TEST_CASE("a soak to an event target writes sysctls at drawn moments and stops at the target")
{
    const auto cfg = classroom();
    soak::soak_options opt;
    opt.duration_ns = 100 * sim::NS_PER_SEC; // the events end it first
    opt.events = 400'000;
    opt.flips = 3;
    opt.sysctl_writes = 5;
    opt.seed = 5;
    soak::soak_result r = soak::soak_workload(cfg, "page-fault1", opt);
    INFO(soak::soak_line(r));
    for (const auto& e : r.errors) UNSCOPED_INFO(e);
    CHECK(r.ok());
    CHECK(r.events >= opt.events);
    CHECK(r.events < opt.events + 100'000); // within a slice (1 ms virtual, about 42,000 events here)
    CHECK(r.virtual_ns < opt.duration_ns);
    CHECK(r.flips == opt.flips);
    CHECK(r.sysctl_writes == opt.sysctl_writes);
    CHECK(r.verifies >= 2 + r.flips + r.sysctl_writes);
}

TEST_CASE("the soak's memory rule leaves out the first virtual second and flags growth after it")
{
    soak::soak_result r;
    r.rss_start_kib = 3000 * 1024;
    r.rss_settled_kib = r.rss_end_kib = 4300 * 1024; // a workload that filled a terabyte in its first second
    CHECK(soak::memory_flat(r));
    r.rss_end_kib = r.rss_settled_kib + 64 * 1024 + r.rss_settled_kib / 50; // allocator caches: the allowance
    CHECK(soak::memory_flat(r));
    r.rss_end_kib += 1024; // a MiB more than that after the first second: growth of the run
    CHECK_FALSE(soak::memory_flat(r));
}
