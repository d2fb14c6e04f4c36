// The `boot` workload runs while deferred struct-page init is still running, in virtual time: it allocates
// from the early memory under the setup-time pageset limits, and the deferred frames join at the modelled
// end of the slowest node's init.
#include "core/sim/engine_test_support.hpp"
#include "sim/snapshot_builder.hpp"

#include "mm/state_digest.hpp"
#include "mm/verify.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace pcplab;

namespace
{

sim::engine_config boot_config()
{
    auto cfg = test::small_config(2, 2, 2, "v5.4"); // seed 000's era: zone_pcp_update at the end of init
    cfg.workload = "boot";
    return cfg;
}

const mm::zone& normal(sim::engine& e, int node)
{
    return e.machine().nodes[static_cast<std::size_t>(node)]->z(mm::ZONE_NORMAL);
}

} // namespace

TEST_CASE("the boot workload allocates while deferred init runs, and the frames join at its modelled end", "[boot]")
{
    sim::engine e(boot_config());
    e.boot();
    REQUIRE(e.deferred_init_pending());
    REQUIRE(e.boot_report().size() == 2);
    // It starts when deferred init does, after the early part of the boot.
    const sim::vtime_ns start = e.timeline().deferred_init_start_ns;
    CHECK(start > 0);
    CHECK(e.workload_start() == start);
    CHECK(e.now() == start);
    sim::vtime_ns end = 0;
    for (const auto& r : e.boot_report()) {
        CHECK(r.done_at > start);
        CHECK(r.done_at == start + static_cast<sim::vtime_ns>(std::ceil(r.modelled_ms * 1e6)));
        end = std::max(end, r.done_at);
    }
    CHECK(e.timeline().init_end_ns == end);
    const unsigned long early_managed = normal(e, 1).managed();
    const int setup_batch = normal(e, 1).per_cpu_pageset[0].batch;
    CHECK(early_managed < normal(e, 1).present_pages / 4); // only the first section so far
    CHECK(normal(e, 1).wmark_pages(mm::WMARK_MIN) == 0); // init_per_zone_wmark_min has not run

    // Half way: still running, and the workload has been allocating from the early memory.
    const sim::vtime_ns half = start + (end - start) / 2;
    e.run_until(half);
    CHECK(e.deferred_init_pending());
    CHECK(e.totals().allocs > 0);
    CHECK(normal(e, 1).managed() == early_managed);
    CHECK(normal(e, 1).per_cpu_pageset[0].batch == setup_batch);
    // Snapshots show the modelled timeline in virtual time.
    sim::snapshot_cursor cur;
    sim::snapshot_options keep_all;
    keep_all.release_published = false; // the events are counted from the engine below
    auto s = sim::build_snapshot(e, cur, {}, keep_all);
    REQUIRE(s->deferred_init.size() == 2);
    for (const auto& d : s->deferred_init) {
        CHECK(d.paced);
        CHECK_FALSE(d.finished);
        CHECK(d.done < d.total);
        CHECK(d.done >= d.total / 4); // the slowest node is half way, the others further
        CHECK(d.modelled_elapsed_ms == Approx(static_cast<double>(half - start) / 1e6).epsilon(0.05));
    }

    // Once every CPU is past the end: the frames are free, the limits recomputed (seed 000's fix) at the end
    // of the init, the watermarks set, one event per node at its own modelled end.
    e.run_until(end + 1'000'000);
    CHECK_FALSE(e.deferred_init_pending());
    CHECK(normal(e, 1).managed() > 4 * early_managed);
    CHECK(normal(e, 1).per_cpu_pageset[0].batch > setup_batch);
    CHECK(normal(e, 1).wmark_pages(mm::WMARK_MIN) > 0);
    int done_events = 0, recomputed = 0;
    for (const auto& ev : e.events()) {
        if (ev.kind == sim::event_kind::deferred_init_done) {
            ++done_events;
            const auto r = std::find_if(
                e.boot_report().begin(), e.boot_report().end(), [&](const auto& b) { return b.node == ev.node; });
            REQUIRE(r != e.boot_report().end());
            CHECK(ev.t == r->done_at);
        }
        if (ev.kind == sim::event_kind::limits_change && ev.t > start) {
            ++recomputed;
            CHECK(ev.t == end); // zone_pcp_update at the end of deferred init
        }
    }
    CHECK(done_events == 2);
    CHECK(recomputed > 0);
    for (const auto& r : e.boot_report()) CHECK(r.host_ms > 0);
    CHECK(mm::verify(e.machine()).ok());
    auto after = sim::build_snapshot(e, cur, {}, keep_all);
    for (const auto& d : after->deferred_init) {
        CHECK(d.finished);
        CHECK(d.done == d.total);
    }
}

TEST_CASE("a workload that starts during deferred init is deterministic and ends only after the init", "[boot]")
{
    auto run = [] {
        sim::engine e(boot_config());
        while (e.step()) { }
        return std::make_pair(e.elapsed(), mm::state_digest(e.machine()));
    };
    const auto a = run();
    const auto b = run();
    CHECK(a.first == b.first);
    CHECK(a.second == b.second);

    sim::engine e(boot_config());
    while (e.step()) { }
    CHECK(e.finished());
    CHECK_FALSE(e.deferred_init_pending());
    // Other workloads start after the whole boot, as before.
    auto other = boot_config();
    other.workload = "kernbench";
    sim::engine k(other);
    k.boot();
    CHECK_FALSE(k.deferred_init_pending());
    CHECK(k.workload_start() == k.timeline().init_end_ns);
    for (const auto& r : k.boot_report()) CHECK(r.done_at <= k.workload_start());
}
