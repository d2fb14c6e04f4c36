// Calls from any context in virtual time (engine_any_context.cpp): bpf-any-context from power-on with the
// v6.15 alloc-pages-nolock switch off (the ordinary paths) and on (trylocks only).
#include "engine_test_support.hpp"

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::test;

namespace
{

sim::any_context_metrics run_program(bool nolock)
{
    auto cfg = small_config(1, 4, 1, "v6.18");
    cfg.patches.set(mm::patch::alloc_pages_nolock, nolock);
    // A fixed, small pcp->high (a few batches): with 4 CPUs an auto-tuned high floats far above the program's
    // batch of 128 frees.
    cfg.spec.sysctl.percpu_pagelist_high_fraction = 4096;
    sim::engine e(cfg, [] {
        auto w = sim::make_workload("bpf-any-context");
        REQUIRE(w->set_param("steps", 300).ok());
        return w;
    });
    run_to(e, 200'000'000);
    return e.totals().any_context;
}

} // namespace

TEST_CASE("with alloc-pages-nolock the program's allocations fail while deferred init runs and its frees leave "
          "pagesets above high without waiting for a lock")
{
    const sim::any_context_metrics off = run_program(false), on = run_program(true);
    CHECK(off.allocs > 0);
    CHECK(off.failures_deferred_init == 0);
    CHECK(off.frees_over_high == 0);
    CHECK(on.allocs > 0);
    CHECK(on.failures_deferred_init > 0);
    CHECK(on.failures >= on.failures_deferred_init);
    CHECK(on.frees_over_high > 0);
    CHECK(on.over_high_pages_max > 0);
    CHECK(on.over_high_ns_max > 0);
    CHECK(on.spin_ns == 0);
}
