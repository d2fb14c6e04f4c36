// Work items in virtual time (engine_work.cpp): CPU 0's forced drains, queued on every CPU with
// remote-drain-under-pcp-lock off and done by CPU 0 under the other CPUs' pcp->lock with it on.
#include "engine_test_support.hpp"

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::test;

namespace
{

struct drain_run {
    sim::global_metrics totals;
    std::vector<sim::cpu_metrics> cpus;
    // drain_pages_zone holds of pcp->lock: CPU 0 on another CPU's pageset, and CPUs 1-3 on their own.
    std::uint64_t cpu0_holds_of_others = 0, others_own_holds = 0;
};

drain_run run_forced_drains(bool remote)
{
    auto cfg = small_config(1, 4, 1, "v6.6");
    cfg.patches.set(mm::patch::remote_drain_under_pcp_lock, remote);
    cfg.forced_drain_hz = 1000;
    cfg.keep_holds = true;
    loop_params p;
    p.burst = 200; // more than batch: every CPU's lists hold pages between its bursts
    p.per_alloc_ns = 2000;
    sim::engine e(cfg, loop_factory(p));
    run_to(e, 20'000'000); // 20 forced drains
    drain_run r;
    r.totals = e.totals();
    r.cpus = e.cpus();
    for (const auto& h : e.holds()) {
        if (h.kind != mm::lock_kind::pcp_lock || h.caller != mm::lock_caller::drain_pages_zone) continue;
        if (h.cpu == 0 && h.owner != 0) ++r.cpu0_holds_of_others;
        if (h.cpu != 0 && h.cpu == h.owner) ++r.others_own_holds;
    }
    return r;
}

} // namespace

TEST_CASE("forced drains with remote-drain-under-pcp-lock off run as work items on each CPU")
{
    const drain_run r = run_forced_drains(false);
    // 20 drains of all four CPUs (force_all_cpus): three items each on CPUs 1-3, CPU 0's own runs inline.
    CHECK(r.totals.remote_work_items >= 19 * 3);
    CHECK(r.totals.remote_work_items <= 21 * 3);
    CHECK(r.totals.remote_work_items % 3 == 0);
    CHECK(r.cpu0_holds_of_others == 0);
    CHECK(r.others_own_holds > 0);
    // The items ran as the drained CPUs: their clocks paid for them.
    for (int c = 1; c < 4; ++c) CHECK(r.cpus[static_cast<std::size_t>(c)].sys_ns > 0);
    // Each CPU takes only its own pcp->lock: an allocation never finds its pageset held by another CPU.
    CHECK(r.totals.pcp_trylock_failures == 0);
}

TEST_CASE("forced drains with remote-drain-under-pcp-lock on are done by CPU 0 under each pcp->lock")
{
    const drain_run on = run_forced_drains(true);
    CHECK(on.totals.remote_work_items == 0);
    CHECK(on.cpu0_holds_of_others > 0);
    CHECK(on.others_own_holds == 0); // no drain ran on CPUs 1-3
    // Their allocations and frees that came while CPU 0 held their pageset went to the buddy lists.
    CHECK(on.totals.pcp_trylock_failures > 0);
}
