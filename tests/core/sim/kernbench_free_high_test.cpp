// kernbench's order-1 PGDs on the engine: the free_high path of free_unref_page_commit runs when a process
// exits, as Huang Ying traced in kbuild ("mm, pcp: avoid to drain PCP when process exit", v6.7): v5.18..v6.6
// drain the pageset on the PGD that follows exit_mmap's order-0 run; v6.7 waits for two high-order frees in a
// row, which one PGD per exited process never makes.
#include "core/sim/engine_test_support.hpp"

#include "sim/workload.hpp"

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::test;

namespace
{

// A short build on 2 nodes x 4 CPUs (1 GiB each) at v6.7, with pcp-high-autotune as given.
sim::global_metrics build_totals(bool autotune, double pgd_order)
{
    auto cfg = small_config(2, 4, 1, "v6.7");
    cfg.patches.set(mm::patch::pcp_high_autotune, autotune);
    sim::workload_factory make = [pgd_order] {
        auto w = sim::make_workload("kernbench");
        for (auto [k, v] : std::vector<std::pair<const char*, double>>{{"jobs", 32}, {"anon_mib_min", 1},
                 {"anon_mib_max", 3}, {"output_kib_min", 16}, {"output_kib_max", 64}, {"job_ms_min", 1},
                 {"job_ms_max", 3}, {"pgd_order", pgd_order}})
            REQUIRE(w->set_param(k, v).ok());
        return w;
    };
    sim::engine e(cfg, make);
    run_to(e, 2'000'000'000);
    REQUIRE(e.load().finished());
    return e.totals();
}

} // namespace

TEST_CASE("kernbench's order-1 PGD drains the pageset on process exit under v6.6's free_high rule, not v6.7's")
{
    const auto v6_6_rule = build_totals(false, 1);
    // Every job exits three processes; each PGD free after an order-0 run with free_factor raised drains.
    CHECK(v6_6_rule.free_high_drains >= 32);
    // v6.7 (PCPF_PREV_FREE_HIGH_ORDER): a PGD follows order-0 frees, so no drain.
    CHECK(build_totals(true, 1).free_high_drains == 0);
    // Without page-table isolation the PGD is order 0 and nothing is high order.
    CHECK(build_totals(false, 0).free_high_drains == 0);
}
