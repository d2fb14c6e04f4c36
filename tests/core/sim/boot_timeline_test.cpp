// The boot on the virtual time axis: t = 0 is power-on, deferred init runs per node from the end of the early
// part, the limits are recomputed at the instant it ends, and the workload starts there.
#include "core/sim/engine_test_support.hpp"
#include "sim/boot_timeline.hpp"

#include "mm/state_digest.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace pcplab;

namespace
{

sim::engine_config v54(int init_threads = 0, const char* era = "v5.4")
{
    auto cfg = test::small_config(2, 4, 2, era); // v5.4, seed 000's era: zone_pcp_update after deferred init
    cfg.keep_events = true;
    if (init_threads > 0) {
        cfg.patches.set(mm::patch::parallel_deferred_init, true);
        cfg.patches.init_threads = init_threads;
    }
    return cfg;
}

std::vector<sim::sim_event> of_kind(const sim::engine& e, sim::event_kind k)
{
    std::vector<sim::sim_event> v;
    for (const auto& ev : e.events())
        if (ev.kind == k) v.push_back(ev);
    return v;
}

} // namespace

TEST_CASE(
    "virtual time starts at power-on: the boot's events carry their instants, the workload starts after it", "[boot]")
{
    sim::engine e(v54(), test::loop_factory({}));
    e.boot();
    const sim::boot_times& b = e.timeline();
    // The early part: the boot CPU's memmap init of the early frames at the one-thread rate.
    CHECK(b.deferred_init_start_ns == sim::early_init_ns(e.rates(), e.machine().early_init_pages));
    CHECK(e.machine().early_init_pages > 0);
    CHECK(b.deferred_init_start_ns > 0);
    // Each node's init runs from there for its modelled time; the init ends with the last node.
    REQUIRE(e.boot_report().size() == 2);
    sim::vtime_ns last = 0;
    for (const auto& r : e.boot_report()) {
        CHECK(r.done_at == sim::deferred_init_done_at(b.deferred_init_start_ns, r.modelled_ms));
        last = std::max(last, r.done_at);
    }
    CHECK(b.init_end_ns == last);
    CHECK(b.workload_start_ns == b.init_end_ns);
    CHECK(e.now() == b.workload_start_ns); // the CPUs' clocks start with the workload
    CHECK(e.elapsed() == 0);

    // setup_per_cpu_pageset's limits at the end of the early part; zone_pcp_update's (seed 000) at the end of
    // deferred init, not at t = 0; each node's end at its own instant; all in the order of their instants.
    int setup = 0, recomputed = 0;
    bool batch_63 = false;
    for (const auto& ev : of_kind(e, sim::event_kind::limits_change)) {
        if (ev.text == "setup_per_cpu_pageset") {
            ++setup;
            CHECK(ev.t == b.deferred_init_start_ns);
        } else {
            ++recomputed;
            CHECK(ev.t == b.init_end_ns);
            batch_63 = batch_63 || (ev.field == sim::event_field::batch && ev.new_value == 63);
        }
    }
    CHECK(setup > 0);
    CHECK(recomputed > 0);
    CHECK(batch_63); // seed 000's 7 -> 63, in the Normal zones of these 2 GiB nodes
    const auto done = of_kind(e, sim::event_kind::deferred_init_done);
    REQUIRE(done.size() == 2);
    for (const auto& ev : done) {
        const auto r = std::find_if(
            e.boot_report().begin(), e.boot_report().end(), [&](const auto& x) { return x.node == ev.node; });
        REQUIRE(r != e.boot_report().end());
        CHECK(ev.t == r->done_at);
    }
    CHECK(std::is_sorted(e.events().begin(), e.events().end(),
        [](const sim::sim_event& x, const sim::sim_event& y) { return x.t < y.t; }));

    // The workload's time counts from its start.
    test::run_to(e, 2'000'000);
    CHECK(e.now() >= b.workload_start_ns + 2'000'000);
    CHECK(e.elapsed() == e.now() - b.workload_start_ns);
}

TEST_CASE("with more deferred-init threads per node the boot ends sooner on the time axis", "[boot]")
{
    sim::engine one(v54(1), test::loop_factory({}));
    sim::engine four(v54(4), test::loop_factory({}));
    one.boot();
    four.boot();
    CHECK(four.timeline().deferred_init_start_ns == one.timeline().deferred_init_start_ns);
    CHECK(four.timeline().init_end_ns < one.timeline().init_end_ns);
    for (std::size_t i = 0; i < one.boot_report().size(); ++i) {
        CHECK(four.boot_report()[i].threads == 4);
        CHECK(four.boot_report()[i].done_at < one.boot_report()[i].done_at);
    }
    // The same machine either way (the frames do not depend on the threads).
    CHECK(mm::state_digest(four.machine()) == mm::state_digest(one.machine()));
}

TEST_CASE("a run's results do not depend on how long its boot took", "[boot]")
{
    // Two boots of one machine that end at different instants (1 and 4 init threads per node) and leave the
    // same memory: the workload's run from its start is the same, vmstat ticks (decay_pcp_high on v6.7) and
    // the auto-tuned high's events included, only shifted.
    test::loop_params p;
    p.burst = 3000;
    p.idle_after = 400'000'000; // then the ticks decay the grown high
    sim::engine one(v54(1, "v6.7"), test::loop_factory(p));
    sim::engine four(v54(4, "v6.7"), test::loop_factory(p));
    const sim::vtime_ns run = 1'300'000'000; // past every CPU's first vmstat tick
    test::run_to(one, run);
    test::run_to(four, run);
    const sim::vtime_ns shift = one.workload_start() - four.workload_start();
    REQUIRE(shift > 0);
    CHECK(mm::state_digest(one.machine()) == mm::state_digest(four.machine()));
    CHECK(one.events_processed() == four.events_processed());
    CHECK(one.totals().allocs == four.totals().allocs);
    CHECK(one.totals().zone_allocs == four.totals().zone_allocs);
    CHECK(one.elapsed() == four.elapsed());
    for (std::size_t c = 0; c < one.cpus().size(); ++c) CHECK(one.cpus()[c].sys_ns == four.cpus()[c].sys_ns);
    // The workload's events are the same, each `shift` later on the longer boot's axis.
    auto after_boot = [](const sim::engine& e) {
        std::vector<sim::sim_event> v;
        for (const auto& ev : e.events())
            if (ev.t >= e.workload_start() && ev.kind != sim::event_kind::deferred_init_done) v.push_back(ev);
        return v;
    };
    const auto a = after_boot(one), b = after_boot(four);
    REQUIRE(a.size() == b.size());
    REQUIRE(std::any_of(
        a.begin(), a.end(), [](const sim::sim_event& ev) { return ev.text.find("decay") != std::string::npos; }));
    for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].t == b[i].t + shift);
        CHECK(a[i].kind == b[i].kind);
        CHECK(a[i].new_value == b[i].new_value);
    }
}
