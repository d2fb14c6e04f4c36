// drain_all_pages, drain_zone_pages and the vmstat tick (refresh_cpu_vm_stats).
#include "pcp_test_support.hpp"

#include "mm/vmstat.hpp"

#include <set>

using namespace pcp_test;

TEST_CASE("drain_all_pages empties every CPU's pageset, and v6.0+ drains them from the calling CPU")
{
    for (const char* era : {"v5.4", "v6.6"}) {
        INFO(era);
        auto m = make_machine({era, 2, 2}, {.batch = 15, .high = 500});
        for (int cpu = 0; cpu < 4; ++cpu) {
            zone& z = normal_zone(*m, cpu / 2);
            free_all(*m, cpu, take_from_buddy(*m, cpu, z, 40 + cpu));
        }
        auto& locks = record_holds(*m);
        mm_ctx c = m->ctx(1);
        drain_all_pages(c, nullptr);
        m->for_each_populated_zone([&](zone& z) {
            for (const auto& pcp : z.per_cpu_pageset) CHECK(pcp.count == 0);
        });
        auto holds = holds_of(locks, lock_kind::zone_lock, lock_caller::drain_pages_zone);
        CHECK(holds.size() == 4);
        std::set<int> runners;
        for (const auto& h : holds) runners.insert(h.cpu);
        if (m->era.has_pcp_lock()) {
            CHECK(runners == std::set<int>{1});
            std::set<int> owners;
            for (const auto& h : holds_of(locks, lock_kind::pcp_lock, lock_caller::drain_pages_zone))
                owners.insert(h.id.cpu);
            CHECK(owners == std::set<int>{0, 1, 2, 3});
        } else {
            CHECK(runners == std::set<int>{0, 1, 2, 3}); // per-CPU work: each CPU drains itself
        }
        require_conserved(*m);
    }
}

TEST_CASE("drain_all_pages with a zone leaves the other zones' pagesets alone")
{
    auto m = make_machine({"v6.6", 2, 1}, {.batch = 15, .high = 500});
    free_all(*m, 0, take_from_buddy(*m, 0, normal_zone(*m, 0), 30));
    free_all(*m, 0, take_from_buddy(*m, 0, normal_zone(*m, 1), 20));
    mm_ctx c = m->ctx(0);
    drain_all_pages(c, &normal_zone(*m, 1));
    CHECK(this_cpu_pcp(normal_zone(*m, 0), 0).count == 30);
    CHECK(this_cpu_pcp(normal_zone(*m, 1), 0).count == 0);
}

TEST_CASE("drain_zone_pages frees one batch of the pageset")
{
    auto m = make_machine({"v6.6"}, {.batch = 15, .high = 500});
    zone& z = normal_zone(*m);
    free_all(*m, 0, take_from_buddy(*m, 0, z, 40));
    auto& locks = record_holds(*m);
    mm_ctx c = m->ctx(0);
    drain_zone_pages(c, z, this_cpu_pcp(z, 0));
    CHECK(this_cpu_pcp(z, 0).count == 25);
    auto holds = holds_of(locks, lock_kind::zone_lock, lock_caller::drain_zone_pages);
    REQUIRE(holds.size() == 1);
    CHECK(holds[0].inside.pages_to_buddy == 15);
}

TEST_CASE("vmstat tick: a remote zone's pages are drained a batch at a time after 3 idle ticks")
{
    auto m = make_machine({"v6.6", 2, 1}, {.batch = 15, .high = 500});
    zone& local = normal_zone(*m, 0);
    zone& remote = normal_zone(*m, 1);
    // CPU 0 (node 0) frees pages of both nodes into its own pagesets.
    free_all(*m, 0, take_from_buddy(*m, 0, local, 40));
    free_all(*m, 0, take_from_buddy(*m, 0, remote, 40));
    per_cpu_pages& rp = this_cpu_pcp(remote, 0);
    per_cpu_pages& lp = this_cpu_pcp(local, 0);
    CHECK(rp.expire == 3);
    mm_ctx c = m->ctx(0);

    refresh_cpu_vm_stats(c, true);
    refresh_cpu_vm_stats(c, true);
    CHECK(rp.count == 40);
    refresh_cpu_vm_stats(c, true);
    CHECK(rp.count == 25);
    // The countdown is spent: no more drains until the zone is used again.
    refresh_cpu_vm_stats(c, true);
    CHECK(rp.count == 25);

    // Activity restarts the countdown.
    free_all(*m, 0, take_from_buddy(*m, 0, remote, 1));
    CHECK(rp.expire == 3);
    for (int i = 0; i < 3; ++i) refresh_cpu_vm_stats(c, true);
    CHECK(rp.count == 26 - 15);

    // The local zone never expires.
    for (int i = 0; i < 10; ++i) refresh_cpu_vm_stats(c, true);
    CHECK(lp.count == 40);
    require_conserved(*m);
}

TEST_CASE("vmstat tick decays pcp->high with autotune and leaves it alone without")
{
    for (bool autotune : {true, false}) {
        INFO("autotune " << autotune);
        auto m = make_machine({"v6.7", 1, 1, 65536, {{patch::pcp_high_autotune, autotune}}},
            {.batch = 15, .high = 800, .high_min = 60, .high_max = 800});
        zone& z = normal_zone(*m);
        mm_ctx c = m->ctx(0);
        refresh_cpu_vm_stats(c, true);
        CHECK(this_cpu_pcp(z, 0).high == (autotune ? 700 : 800));
        refresh_cpu_vm_stats(c, false);
        CHECK(this_cpu_pcp(z, 0).high == (autotune ? 700 : 800));
    }
}
