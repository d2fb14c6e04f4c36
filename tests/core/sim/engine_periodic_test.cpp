#include "core/sim/engine_test_support.hpp"

#include "mm/zone.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace pcplab;
using namespace pcplab::test;

namespace
{

// The zone the test machines allocate from: the highest populated one of node 0.
mm::zone& top_zone(sim::engine& e)
{
    mm::zone* top = nullptr;
    for (auto& z : e.machine().nodes[0]->node_zones)
        if (z->populated()) top = z.get();
    return *top;
}

std::size_t count_events(const sim::engine& e, sim::event_kind k, const std::string& text_part = "")
{
    return static_cast<std::size_t>(std::count_if(e.events().begin(), e.events().end(),
        [&](const sim::sim_event& ev) { return ev.kind == k && ev.text.find(text_part) != std::string::npos; }));
}

} // namespace

TEST_CASE("the vmstat tick decays an auto-tuned pcp high once the workload goes idle (v6.7)")
{
    auto cfg = small_config(1, 2, 2, "v6.7");
    REQUIRE(cfg.patches[mm::patch::pcp_high_autotune]);
    cfg.cpus = {0};
    loop_params p;
    p.burst = 3000; // long runs of refills: high grows towards high_max
    p.idle_after = sim::NS_PER_SEC / 2; // then nothing but idle
    sim::engine e(cfg, loop_factory(p));
    e.boot();
    mm::zone& z = top_zone(e);
    const mm::per_cpu_pages& pcp = z.per_cpu_pageset[0];

    test::run_to(e, p.idle_after);
    const int grown = pcp.high;
    INFO("high_min " << pcp.high_min << " high_max " << pcp.high_max << " grown " << grown);
    REQUIRE(grown > pcp.high_min);
    REQUIRE(count_events(e, sim::event_kind::pcp_high_change, "grow") > 0);

    test::run_to(e, 3 * sim::NS_PER_SEC); // two ticks of CPU 0 while idle
    const int after_two = pcp.high;
    REQUIRE(after_two < grown);
    test::run_to(e, 40 * sim::NS_PER_SEC);
    REQUIRE(pcp.high < after_two);
    REQUIRE(pcp.high == pcp.high_min);
    REQUIRE(pcp.count <= pcp.high);
    REQUIRE(count_events(e, sim::event_kind::pcp_high_change, "decay") > 0);
}

TEST_CASE("the reclaimer sets ZONE_RECLAIM_ACTIVE below the low watermark and clears it above high")
{
    auto cfg = small_config(1, 2, 1, "v6.7");
    cfg.cpus = {1}; // the reclaimer runs on node 0's first CPU, which is otherwise idle
    loop_params p;
    p.hog = true;
    sim::engine e(cfg, loop_factory(p));
    e.boot();
    mm::zone& z = top_zone(e);
    bool seen_set = false, seen_cleared = false;
    for (int i = 0; i < 2'000'000 && !seen_cleared; ++i) {
        REQUIRE(e.step());
        if (z.flags & mm::ZONE_RECLAIM_ACTIVE)
            seen_set = true;
        else if (seen_set)
            seen_cleared = true;
    }
    REQUIRE(seen_set);
    REQUIRE(seen_cleared);
    REQUIRE(z.nr_free_pages > static_cast<long>(z.high_wmark_pages()));
    REQUIRE(loop_of(e).reclaimed > 0);
    REQUIRE(e.totals().reclaimed_pages > 0);
    REQUIRE(count_events(e, sim::event_kind::reclaim_start) >= 1);
    REQUIRE(count_events(e, sim::event_kind::reclaim_stop, "above high watermark") >= 1);
    // Its frees were charged to CPU 0 and attributed to the reclaimer.
    REQUIRE(e.cpus()[0].sys_ns > 0);
}

TEST_CASE("turning pcp-update-after-deferred-init on mid-run updates the pagesets now and is logged")
{
    auto cfg = small_config(1, 4, 2, "v5.4");
    cfg.patches.set(mm::patch::pcp_update_after_deferred_init, false); // 5.4.0-rc3
    cfg.keep_holds = true;
    loop_params p;
    p.burst = 400;
    sim::engine e(cfg, loop_factory(p));
    e.boot();
    mm::zone& z = top_zone(e);
    const int batch_before = z.per_cpu_pageset[0].batch;
    test::run_to(e, 5'000'000);

    e.set_patch(mm::patch::pcp_update_after_deferred_init, true);
    const sim::vtime_ns flip = e.now();
    const int batch_after = z.per_cpu_pageset[0].batch;
    INFO("batch before " << batch_before << ", after " << batch_after);
    REQUIRE(batch_after > batch_before);
    REQUIRE(count_events(e, sim::event_kind::switch_flip, "pcp-update-after-deferred-init on") == 1);
    REQUIRE(count_events(e, sim::event_kind::limits_change, "zone_pcp_update now") >= 1);
    test::run_to(e, 10'000'000);

    // Behaviour: refills take batch pages per zone->lock hold, so they carry more pages after the flip.
    std::uint64_t max_before = 0, max_after = 0;
    for (const auto& h : e.holds()) {
        if (h.kind != mm::lock_kind::zone_lock || h.caller != mm::lock_caller::rmqueue_bulk) continue;
        auto& m = h.start < flip ? max_before : max_after;
        m = std::max<std::uint64_t>(m, h.pages);
    }
    REQUIRE(max_before == static_cast<std::uint64_t>(batch_before));
    REQUIRE(max_after == static_cast<std::uint64_t>(batch_after));
}

TEST_CASE("turning pcp-high-autotune off mid-run fixes high again")
{
    auto cfg = small_config(1, 2, 2, "v6.7");
    loop_params p;
    p.burst = 3000;
    sim::engine e(cfg, loop_factory(p));
    e.boot();
    mm::zone& z = top_zone(e);
    test::run_to(e, 20'000'000);
    REQUIRE(z.per_cpu_pageset[0].high > z.pageset_high_min);

    e.set_patch(mm::patch::pcp_high_autotune, false);
    REQUIRE(count_events(e, sim::event_kind::switch_flip, "pcp-high-autotune off") == 1);
    const std::size_t high_events = count_events(e, sim::event_kind::pcp_high_change);
    for (const auto& pcp : z.per_cpu_pageset) REQUIRE(pcp.high == z.pageset_high);
    test::run_to(e, 40'000'000);
    for (const auto& pcp : z.per_cpu_pageset) REQUIRE(pcp.high == z.pageset_high);
    REQUIRE(count_events(e, sim::event_kind::pcp_high_change) == high_events);
}

TEST_CASE("sysctls change the limits through the kernel's handlers and refuse bad values")
{
    auto cfg = small_config(1, 2, 2, "v5.4");
    sim::engine e(cfg, loop_factory(loop_params{}));
    e.boot();
    mm::zone& z = top_zone(e);
    const int high_before = z.per_cpu_pageset[0].high;
    REQUIRE(e.set_sysctl("vm.percpu_pagelist_fraction", 8).ok());
    REQUIRE(z.per_cpu_pageset[0].high != high_before);
    REQUIRE(count_events(e, sim::event_kind::limits_change, "sysctl") >= 1);
    REQUIRE(e.config().spec.sysctl.percpu_pagelist_fraction == 8);
    REQUIRE_FALSE(e.set_sysctl("vm.percpu_pagelist_fraction", 3).ok());
    REQUIRE_FALSE(e.set_sysctl("vm.percpu_pagelist_high_fraction", 8).ok()); // not on v5.4
    REQUIRE_FALSE(e.set_sysctl("vm.no_such_thing", 1).ok());
    const unsigned long low_before = z.low_wmark_pages();
    REQUIRE(e.set_sysctl("min_free_kbytes", 65536).ok());
    REQUIRE(z.low_wmark_pages() > low_before);
    CHECK_THAT(e.set_sysctl("vm.pcp_batch_scale_max", 2).message(), Catch::Contains("does not exist on era v5.4"));
}

TEST_CASE("vm.pcp_batch_scale_max is written live on v6.7+ and kept for a reboot")
{
    auto cfg = small_config(1, 2, 2, "v6.7");
    sim::engine e(cfg, loop_factory(loop_params{}));
    e.boot();
    REQUIRE(e.set_sysctl("vm.pcp_batch_scale_max", 0).ok());
    CHECK(e.config().spec.sysctl.pcp_batch_scale_max == 0);
    CHECK_FALSE(e.set_sysctl("pcp_batch_scale_max", 7).ok());
    CHECK(e.config().spec.sysctl.pcp_batch_scale_max == 0);
    e.run_until(e.workload_start() + 5'000'000);
    // No refill run grew past the scale: alloc_factor stays 0 on every pageset.
    for (const auto& pcp : top_zone(e).per_cpu_pageset) CHECK(pcp.alloc_factor == 0);
}
