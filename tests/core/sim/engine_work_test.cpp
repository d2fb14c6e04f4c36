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
    std::uint64_t cpu0_holds_of_others = 0, own_holds = 0; // drain_pages_zone holds of pcp->lock
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
        if (h.cpu == h.owner) ++r.own_holds;
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
    CHECK(r.own_holds > 0);
    // Each CPU takes only its own pcp->lock: an allocation never finds its pageset held by another CPU.
    CHECK(r.totals.pcp_trylock_failures == 0);
}

TEST_CASE("forced drains with remote-drain-under-pcp-lock on are done by CPU 0 under each pcp->lock")
{
    const drain_run on = run_forced_drains(true);
    CHECK(on.totals.remote_work_items == 0);
    CHECK(on.cpu0_holds_of_others > 0);
    // The drained CPUs no longer spend system time on drains: less of it than with work items.
    const drain_run off = run_forced_drains(false);
    std::uint64_t sys_on = 0, sys_off = 0;
    for (int c = 1; c < 4; ++c) {
        sys_on += on.cpus[static_cast<std::size_t>(c)].sys_ns;
        sys_off += off.cpus[static_cast<std::size_t>(c)].sys_ns;
    }
    CHECK(sys_on < sys_off);
}
