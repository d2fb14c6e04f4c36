// The history's time bins (model/activity_bins): each CPU's wait time and list depth per bin, each lock's
// contention per bin, exact against hand-made snapshots and, on a real engine, adding up to the engine's own
// whole-run contention (sim::contention_pct) while no bin passes 100 %.
#include "views_harness.hpp"

#include "ui/model/activity_bins.hpp"

#include "support/small_machine.hpp"

#include "mm/mm_types.hpp"

#include <catch2/catch.hpp>

using namespace pcplab;

namespace
{

// Two CPUs of node 0, one Normal zone whose lock the hold records below wait for.
sim::snapshot two_cpus(sim::vtime_ns t, std::uint64_t seq)
{
    sim::snapshot s;
    s.seq = seq;
    s.state = sim::run_state::running;
    s.sim_time_ns = t;
    s.nr_cpus = 2;
    s.cpu_node = {0, 0};
    s.cpus.resize(2);
    sim::zone_snapshot z;
    z.node = 0;
    z.zone = mm::ZONE_NORMAL;
    z.lock.present = true;
    s.zones.push_back(z);
    s.pcp = {{10, 100, 10}, {0, 100, 10}};
    s.holds_kept = true;
    return s;
}

sim::lock_hold_record wait_for_lock(int cpu, sim::vtime_ns request, sim::vtime_ns grant)
{
    sim::lock_hold_record h;
    h.cpu = static_cast<std::uint16_t>(cpu);
    h.node = 0;
    h.zone = mm::ZONE_NORMAL;
    h.kind = mm::lock_kind::zone_lock;
    h.start = grant;
    h.wait_ns = static_cast<std::uint32_t>(grant - request);
    h.hold_ns = 100;
    return h;
}

} // namespace

TEST_CASE("the time bins hold each CPU's wait and each lock's contention exactly, and merge without losing any")
{
    ui::activity_bins b(8, 1000); // 8 bins of 1 us, doubling when the run outgrows them
    b.add(two_cpus(0, 1));
    sim::snapshot s = two_cpus(4000, 2);
    s.holds = {wait_for_lock(0, 500, 1500), wait_for_lock(1, 1000, 3000)};
    b.add(s);
    REQUIRE(b.bin_ns() == 1000);
    REQUIRE(b.bins() == 4);
    CHECK(b.cpu_wait_share(0, 0) == Approx(0.5));
    CHECK(b.cpu_wait_share(0, 1) == Approx(0.5));
    CHECK(b.cpu_wait_share(1, 1) == Approx(1.0));
    CHECK(b.cpu_wait_share(1, 2) == Approx(1.0));
    CHECK(b.cpu_wait_share(1, 3) == Approx(0.0));
    // Some CPU waited over [500, 3000): half of bin 0, all of bins 1 and 2; in bin 1 both did (1.5 on average).
    CHECK(b.zone_contention_share(0, 0) == Approx(0.5));
    CHECK(b.zone_contention_share(0, 1) == Approx(1.0));
    CHECK(b.zone_contention_share(0, 2) == Approx(1.0));
    CHECK(b.zone_cpus_waiting(0, 1) == Approx(1.5));

    // 20 us: the bins merge in pairs until 8 of them cover it (4 us each); the first holds [0, 4000).
    b.add(two_cpus(20'000, 3));
    REQUIRE(b.bin_ns() == 4000);
    CHECK(b.bins() == 5);
    CHECK(b.zone_contention_share(0, 0) == Approx(2500.0 / 4000));
    CHECK(b.cpu_wait_share(1, 0) == Approx(2000.0 / 4000));
    CHECK(b.zone_contention_share(0, 1) == Approx(0.0));
}

TEST_CASE("the time bins average each CPU's list depth over time, a snapshot's value holding until the next")
{
    ui::activity_bins b(8, 1000);
    b.add(two_cpus(0, 1)); // CPU 0: 10 of 100
    sim::snapshot s = two_cpus(1500, 2);
    s.pcp[0].count = 50; // half full from 1.5 us
    b.add(s);
    b.add(two_cpus(3000, 3)); // back to 10 from 3 us
    CHECK(b.depth(0, 0, 0) == Approx(0.1f));
    CHECK(b.depth(0, 0, 1) == Approx(0.5f * 0.5f + 0.1f * 0.5f));
    CHECK(b.depth(0, 0, 2) == Approx(0.5f));
    CHECK(b.depth(0, 1, 1) == Approx(0.0f));
    CHECK(b.depth(0, 0, 3) < 0); // nothing known after the last snapshot yet
    // A zone the bins do not know, a CPU out of range: no data.
    CHECK(b.depth(1, 0, 0) < 0);
    CHECK(b.depth(0, 5, 0) < 0);
}

TEST_CASE("on a real engine the bins add up to the engine's contention and no bin passes 100 %")
{
    // One node, 32 CPUs, kernbench: zone->lock is busy enough that many CPUs queue at once.
    auto cfg = test::preset_engine_config("classroom");
    cfg.spec = test::small_spec(1, 32, 6);
    test::stepped_machine m(cfg);
    constexpr sim::vtime_ns us = 1000;
    for (int i = 0; i < 400; ++i) m.advance(25 * us);
    const ui::history& h = m.hist();
    const ui::activity_bins& b = h.bins();
    const sim::snapshot& last = *m.last();
    const int zi = last.zone_index(0, mm::ZONE_NORMAL);
    REQUIRE(zi >= 0);
    const int bi = b.zone_index(0, mm::ZONE_NORMAL);
    REQUIRE(bi >= 0);
    double waited = 0, most = 0;
    for (std::size_t i = 0; i < b.bins(); ++i) {
        const double share = b.zone_contention_share(static_cast<std::size_t>(bi), i);
        most = std::max(most, share);
        waited += share * static_cast<double>(b.elapsed_in(i));
        for (int cpu = 0; cpu < b.nr_cpus(); ++cpu) REQUIRE(b.cpu_wait_share(cpu, i) <= 1.0f);
    }
    // The engine's contention is a share of the workload's time; the bins start at power-on (the boot before the
    // workload takes no zone->lock, so its bins add nothing).
    const double run_pct
        = 100.0 * waited / static_cast<double>(b.now_ns() - static_cast<std::int64_t>(last.boot.workload_start_ns));
    INFO("bins " << run_pct << " %, engine " << last.zone_at(zi).lock.contention_pct << " %");
    REQUIRE(last.zone_at(zi).lock.contention_pct > 1.0); // contended enough to mean something
    CHECK(run_pct == Approx(last.zone_at(zi).lock.contention_pct).margin(1.0));
    CHECK(most <= 1.0);
}

TEST_CASE("the time bins tell a reader which bins changed since it last looked, late waits included")
{
    ui::activity_bins b(8, 1000);
    const ui::activity_bins::mark never;
    b.add(two_cpus(0, 1));
    CHECK(b.first_changed_since(never) == 0); // a reader that never looked redraws everything
    b.add(two_cpus(2500, 2));
    auto m = b.current_mark();
    CHECK(b.first_changed_since(m) == b.max_bins()); // nothing written since
    b.add(two_cpus(5500, 3)); // the depths held from 2.5 us: bins 2..5
    CHECK(b.first_changed_since(m) == 2);
    m = b.current_mark();
    // A wait reported late: it began at 0.5 us, in bin 0, long before the newest snapshot.
    sim::snapshot s = two_cpus(6500, 4);
    s.holds = {wait_for_lock(1, 500, 6000)};
    b.add(s);
    CHECK(b.first_changed_since(m) == 0);
    m = b.current_mark();
    b.add(two_cpus(9000, 5)); // past 8 bins of 1 us: merged into bins of 2 us, every bin moved
    CHECK(b.bin_ns() == 2000);
    CHECK(b.first_changed_since(m) == 0);
    m = b.current_mark();
    b.clear();
    CHECK(b.first_changed_since(m) == 0);
}
