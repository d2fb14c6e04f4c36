#include "sim/seed_reference.hpp"

#include <catch2/catch.hpp>

using namespace pcplab;

namespace
{

sim::run_summary run_with(std::uint64_t sys_ns, std::uint64_t user_ns)
{
    sim::run_summary r;
    r.totals.sys_ns = sys_ns;
    r.totals.user_ns = user_ns;
    return r;
}

sim::published_figure decrease_by(double pct)
{
    sim::published_figure f;
    f.key = "sys_ns";
    f.label = "system CPU time";
    f.change = pct;
    f.expect = sim::expected_change::decrease;
    return f;
}

} // namespace

TEST_CASE("the five seeds and scenarios 005 to 011 carry their published numbers")
{
    const auto& refs = sim::seed_references();
    REQUIRE(refs.size() == 12);
    // Each scenario differs by exactly one thing: a switch, or a sysctl's two values.
    for (const auto& r : refs) CHECK(r.sw.has_value() != r.sysctl.has_value());
    const auto* s0 = sim::find_seed_reference("000");
    REQUIRE(s0);
    CHECK(s0->preset == "epyc2-256");
    CHECK(s0->era == "5.4.0-rc3");
    CHECK(s0->sw == mm::patch::pcp_update_after_deferred_init);
    // seed 000 mail: syst-256 14760.30 -> 4551.77, -69.16%
    auto sys = std::find_if(s0->figures.begin(), s0->figures.end(), [](auto& f) { return f.key == "sys_ns"; });
    REQUIRE(sys != s0->figures.end());
    CHECK(*sys->off == 14760.30);
    CHECK(*sys->change == -69.16);
    CHECK(sim::find_seed_reference("4") == &refs[4]);
    CHECK(refs[4].workload == "boot");
    CHECK(*refs[4].figures[0].change == 9.56);
    CHECK(sim::find_seed_reference("12") == nullptr);
    CHECK(sim::find_seed_reference("x1") == nullptr);
    // 005, Nikhil Dhama's mail: iperf3 v6.12 = 69, v6.12 + patch = 100 (v6.6 = 100).
    const auto* s5 = sim::find_seed_reference("005");
    REQUIRE(s5);
    CHECK(s5->sw == mm::patch::free_high_batch_plus_high_min);
    CHECK(mm::patch_info(*s5->sw).scenario == s5->id); // the switch's table entry names this scenario
    CHECK(s5->era == "v6.12");
    CHECK(s5->workload == "net-stream");
    CHECK(*s5->figures[0].off == 69);
    CHECK(*s5->figures[0].on == 100);
    CHECK(s5->figures[0].expect == sim::expected_change::increase);
    // 006, the remote-drain patch mail: ~5% better, and no other task interrupted.
    const auto* s6 = sim::find_seed_reference("006");
    REQUIRE(s6);
    CHECK(s6->sw == mm::patch::remote_drain_under_pcp_lock);
    CHECK(mm::patch_info(*s6->sw).scenario == s6->id);
    CHECK(s6->era == "v6.6");
    CHECK(*s6->figures[0].change == 5.0);
    CHECK(s6->figures[0].expect == sim::expected_change::neutral_or_better);
    CHECK(s6->figures[1].key == "remote_work_items");
    CHECK(*s6->figures[1].on == 0);
    // 007, the kernel test robot's lru-file-mmap-read report and Carlos Song's worst case in the patch mail.
    const auto* s7 = sim::find_seed_reference("007");
    REQUIRE(s7);
    CHECK(s7->sw == mm::patch::rmqueue_bulk_fallback_mode);
    CHECK(mm::patch_info(*s7->sw).scenario == s7->id);
    CHECK(s7->era == "v6.18");
    CHECK(s7->workload == "frag-churn");
    CHECK(*s7->figures[0].change == 208.7);
    CHECK(s7->figures[0].expect == sim::expected_change::increase);
    CHECK(s7->figures[1].key == "spin_pct");
    CHECK(*s7->figures[1].off == 31.07);
    CHECK(*s7->figures[1].on == 3.49);
    CHECK(*s7->figures[2].change == 35.0); // 280 ms -> 8 ms
    // 008: the series publishes no measurement; every figure is a direction the code implies.
    const auto* s8 = sim::find_seed_reference("008");
    REQUIRE(s8);
    CHECK(s8->sw == mm::patch::alloc_pages_nolock);
    CHECK(mm::patch_info(*s8->sw).scenario == s8->id);
    CHECK(s8->workload == "bpf-any-context");
    for (const auto& f : s8->figures) {
        CHECK_FALSE(f.change);
        CHECK_FALSE(f.off);
        CHECK_FALSE(f.on);
        CHECK(f.source.find("no published figure") == 0);
    }
    // 009: an RFC, not merged; its cover letter gives no measurement either.
    const auto* s9 = sim::find_seed_reference("009");
    REQUIRE(s9);
    CHECK(s9->sw == mm::patch::pcp_buddy);
    CHECK(mm::patch_info(*s9->sw).scenario == s9->id);
    CHECK_FALSE(mm::patch_info(*s9->sw).kernels.merged);
    CHECK(s9->workload == "jemalloc-purge");
    for (const auto& f : s9->figures) {
        CHECK_FALSE(f.change);
        CHECK_FALSE(f.off);
        CHECK_FALSE(f.on);
        CHECK(f.source.find("no published figure") == 0);
    }
    // 010: Mel Gorman's commit gives no figure, only the direction and its warning about interrupt-heavy loads.
    const auto* s10 = sim::find_seed_reference("010");
    REQUIRE(s10);
    CHECK(s10->sw == mm::patch::pcp_lock_irqs_enabled);
    CHECK(mm::patch_info(*s10->sw).scenario == s10->id);
    CHECK(s10->workload == "net-stream");
    for (const auto& f : s10->figures) {
        CHECK_FALSE(f.change);
        CHECK(f.source.find("no published figure") == 0);
    }
    // 011: Yafang Shao's measurement, the batch scale 5 against 0: a sysctl, no switch.
    const auto* s11 = sim::find_seed_reference("011");
    REQUIRE(s11);
    CHECK_FALSE(s11->sw);
    REQUIRE(s11->sysctl);
    CHECK(s11->sysctl->name == mm::vm_sysctl::pcp_batch_scale_max);
    CHECK(s11->sysctl->off == 5);
    CHECK(s11->sysctl->on == 0);
    CHECK(sim::sides_label(*s11) == "vm.pcp_batch_scale_max 5 / 0");
    REQUIRE(s11->figures.size() == 1);
    CHECK(s11->figures[0].off == 449.775); // us, funclatency's average at 5
    CHECK(s11->figures[0].expect == sim::expected_change::decrease);
}

TEST_CASE("a refill's time is the mean rmqueue_bulk hold plus the mean zone->lock wait, over every zone")
{
    sim::run_summary r;
    CHECK_FALSE(sim::simulated_figure(r, "refill_latency_mean_ns")); // no zone
    r.zones.resize(2);
    r.zones[0].acquisitions = 30;
    r.zones[0].wait_ns_total = 3000;
    r.zones[1].acquisitions = 10;
    r.zones[1].wait_ns_total = 1000;
    CHECK_FALSE(sim::simulated_figure(r, "refill_latency_mean_ns")); // no refill
    r.zones[0].callers.push_back({"rmqueue_bulk", 4, 400, 63});
    r.zones[0].callers.push_back({"free_pcppages_bulk", 4, 4000, 63});
    r.zones[1].callers.push_back({"rmqueue_bulk", 1, 600, 63});
    // holds (400 + 600) / 5 = 200 ns; waits 4000 / 40 = 100 ns
    CHECK(sim::simulated_figure(r, "refill_latency_mean_ns") == 300.0);
}

TEST_CASE("zone->lock acquisitions per 1000 allocations count every zone's lock")
{
    sim::run_summary r;
    CHECK_FALSE(sim::simulated_figure(r, "zone_lock_acq_per_1000_allocs")); // no allocation
    r.totals.allocs = 2000;
    r.zones.resize(2);
    r.zones[0].acquisitions = 30;
    r.zones[1].acquisitions = 10;
    CHECK(*sim::simulated_figure(r, "zone_lock_acq_per_1000_allocs") == 20.0);
}

TEST_CASE("claim searches per refill and the spinning share are measured from the run's totals")
{
    sim::run_summary r;
    CHECK_FALSE(sim::simulated_figure(r, "claim_searches_per_refill")); // no refill: nothing to divide
    CHECK_FALSE(sim::simulated_figure(r, "spin_pct"));
    r.totals.refills = 40;
    r.totals.claim_searches = 10;
    r.totals.sys_ns = 300;
    r.totals.user_ns = 100;
    r.totals.spin_ns = 100;
    CHECK(*sim::simulated_figure(r, "claim_searches_per_refill") == 0.25);
    CHECK(*sim::simulated_figure(r, "spin_pct") == 25.0);
}

TEST_CASE("something the switch brings about (0 off) agrees with a published increase given as a direction")
{
    sim::published_figure f;
    f.key = "pcp_trylock_failures";
    f.expect = sim::expected_change::increase;
    sim::run_summary off, on;
    on.totals.pcp_trylock_failures = 12;
    CHECK(sim::compare_figure(f, off, on).agrees);
    CHECK_FALSE(sim::compare_figure(f, off, off).agrees); // 0 and 0: not exercised
    CHECK_FALSE(sim::compare_figure(f, on, off).agrees);
    f.change = 50.0; // a published size cannot be compared with a change from 0
    CHECK_FALSE(sim::compare_figure(f, off, on).agrees);
}

TEST_CASE("a decrease of comparable size agrees and the wrong way or far off disagrees")
{
    auto f = decrease_by(-69.16);
    auto ok = sim::compare_figure(f, run_with(1000, 0), run_with(600, 0)); // -40%
    CHECK(ok.agrees);
    CHECK(*ok.sim_change == Approx(-40));
    CHECK(*ok.ratio == Approx(40 / 69.16));

    auto wrong = sim::compare_figure(f, run_with(1000, 0), run_with(1030, 0)); // +3%
    CHECK_FALSE(wrong.agrees);
    CHECK(wrong.disagreement.find("direction") != std::string::npos);

    auto flat = sim::compare_figure(f, run_with(1000, 0), run_with(995, 0)); // -0.5%: no effect
    CHECK_FALSE(flat.agrees);

    auto small = sim::compare_figure(f, run_with(1000, 0), run_with(950, 0)); // -5%: 14x smaller
    CHECK_FALSE(small.agrees);
    CHECK(small.disagreement.find("magnitude") != std::string::npos);
}

TEST_CASE("a factor change compares speed-ups and exact figures compare values")
{
    sim::published_figure f;
    f.key = "deferred_init_max_ms";
    f.form = sim::change_form::factor;
    f.change = 9.56;
    f.expect = sim::expected_change::decrease;
    sim::run_summary off, on;
    off.boot = {{0, 1, 100, 500.0, 1}, {1, 1, 100, 480.0, 1}};
    on.boot = {{0, 11, 100, 50.0, 1}, {1, 11, 100, 40.0, 1}};
    auto c = sim::compare_figure(f, off, on);
    CHECK(*c.sim_off == 500.0); // the slowest node
    CHECK(*c.sim_on == 50.0);
    CHECK(*c.sim_change == Approx(10.0));
    CHECK(*c.ratio == Approx(10.0 / 9.56));
    CHECK(c.agrees);

    sim::published_figure b;
    b.key = "normal_batch";
    b.off = 7;
    b.on = 63;
    b.expect = sim::expected_change::exact;
    sim::run_summary r0, r1;
    sim::zone_summary z;
    z.name = "Normal";
    z.batch = 7;
    r0.zones = {z};
    z.batch = 63;
    r1.zones = {z};
    CHECK(sim::compare_figure(b, r0, r1).agrees);
    CHECK_FALSE(sim::compare_figure(b, r1, r1).agrees);
}

TEST_CASE("the pages-per-hold bound holds only when every covered hold fits in a batch")
{
    const auto* s3 = sim::find_seed_reference("003");
    REQUIRE(s3);
    const auto& f = s3->figures[0];
    REQUIRE(f.expect == sim::expected_change::at_most_bound);
    sim::zone_summary z;
    z.name = "Normal";
    z.batch = 63;
    z.callers = {{"drain_pages_zone", 1, 1000, 2048}};
    sim::run_summary off, on;
    off.zones = {z};
    z.callers = {{"drain_pages_zone", 40, 1000, 63}, {"rmqueue_bulk", 5, 10, 500}}; // rmqueue_bulk is not covered
    on.zones = {z};
    auto c = sim::compare_figure(f, off, on);
    CHECK(*c.sim_off == 2048);
    CHECK(*c.sim_on == 63);
    CHECK(c.agrees);
    z.callers = {{"decay_pcp_high", 1, 1000, 64}};
    on.zones = {z};
    CHECK_FALSE(sim::compare_figure(f, off, on).agrees);
}
