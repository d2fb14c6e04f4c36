// drain_all_pages, drain_zone_pages and the vmstat tick (refresh_cpu_vm_stats).
#include "pcp_test_support.hpp"

#include "mm/vmstat.hpp"
#include "mm/work_queue.hpp"

#include <set>

using namespace pcp_test;

// Records where queue_work_on put each item, runs it as its CPU, and whether the caller flushed.
struct recording_work_queue : cpu_work_queue {
    std::vector<std::pair<int, int>> items; // (queued by, run on)
    int flushes = 0;
    void queue_work_on(mm_ctx& c, int cpu, const std::function<void(mm_ctx&)>& fn) override
    {
        items.emplace_back(c.cpu, cpu);
        mm_ctx on_cpu{c.m, cpu, c.m.cpu_to_node[static_cast<std::size_t>(cpu)], c.work, c.locks};
        fn(on_cpu);
    }
    void flush_work(mm_ctx&) override { ++flushes; }
};

TEST_CASE("drain_all_pages empties every CPU's pageset: by work items before v6.0 or with "
          "remote-drain-under-pcp-lock off, from the calling CPU under pcp->lock with it on")
{
    struct variant {
        const char* era;
        std::vector<std::pair<patch, bool>> switches;
        bool remote;
    };
    for (const auto& v : {variant{"v5.4", {}, false}, variant{"v6.6", {}, true},
             variant{"v6.6", {{patch::remote_drain_under_pcp_lock, false}}, false}}) {
        INFO(v.era << (v.switches.empty() ? "" : " remote-drain-under-pcp-lock=off"));
        auto m = make_machine({v.era, 2, 2, 65536, v.switches}, {.batch = 15, .high = 500});
        CHECK(m->patches[patch::remote_drain_under_pcp_lock] == v.remote);
        for (int cpu = 0; cpu < 4; ++cpu) {
            zone& z = normal_zone(*m, cpu / 2);
            free_all(*m, cpu, take_from_buddy(*m, cpu, z, 40 + cpu));
        }
        free_all(*m, 3, take_from_buddy(*m, 3, normal_zone(*m, 0), 5)); // CPU 3 holds pages of both nodes
        auto& locks = record_holds(*m);
        recording_work_queue wq;
        mm_ctx c = m->ctx(1);
        c.wq = &wq;
        const int queued = drain_all_pages(c, nullptr);
        m->for_each_populated_zone([&](zone& z) {
            for (const auto& pcp : z.per_cpu_pageset) CHECK(pcp.count == 0);
        });
        auto holds = holds_of(locks, lock_kind::zone_lock, lock_caller::drain_pages_zone);
        CHECK(holds.size() == 5);
        std::set<int> runners;
        for (const auto& h : holds) runners.insert(h.cpu);
        if (v.remote) {
            CHECK(queued == 0);
            CHECK(wq.items.empty());
            CHECK(wq.flushes == 0);
            CHECK(runners == std::set<int>{1});
            std::set<int> owners;
            for (const auto& h : holds_of(locks, lock_kind::pcp_lock, lock_caller::drain_pages_zone))
                owners.insert(h.id.cpu);
            CHECK(owners == std::set<int>{0, 1, 2, 3});
        } else {
            // One work item per CPU with pages, each run on its CPU (itself included), then one flush.
            CHECK(queued == 4);
            CHECK(wq.items == std::vector<std::pair<int, int>>{{1, 0}, {1, 1}, {1, 2}, {1, 3}});
            CHECK(wq.flushes == 1);
            CHECK(runners == std::set<int>{0, 1, 2, 3});
            // From v6.0 each CPU still takes its own pcp->lock: never another CPU's.
            for (const auto& h : holds_of(locks, lock_kind::pcp_lock, lock_caller::drain_pages_zone))
                CHECK(h.id.cpu == h.cpu);
        }
        require_conserved(*m);
    }
}

TEST_CASE("__drain_all_pages with force_all_cpus queues work on every CPU, empty pagesets included")
{
    auto m = make_machine({"v6.6", 2, 2, 65536, {{patch::remote_drain_under_pcp_lock, false}}}, {});
    free_all(*m, 2, take_from_buddy(*m, 2, normal_zone(*m, 1), 10));
    recording_work_queue wq;
    mm_ctx c = m->ctx(0);
    c.wq = &wq;
    CHECK(drain_all_pages(c, nullptr) == 1); // only CPU 2 has pages
    free_all(*m, 2, take_from_buddy(*m, 2, normal_zone(*m, 1), 10));
    CHECK(__drain_all_pages(c, nullptr, true) == 4);
    CHECK(this_cpu_pcp(normal_zone(*m, 1), 2).count == 0);
    CHECK(wq.flushes == 2);
}

TEST_CASE("remote-drain-under-pcp-lock: a v6.0+ default that needs pcp->lock")
{
    CHECK_FALSE(default_patches(*kernel_version::parse("v5.19"))[patch::remote_drain_under_pcp_lock]);
    CHECK(default_patches(*kernel_version::parse("v6.0"))[patch::remote_drain_under_pcp_lock]);
    CHECK(patch_from_name("remote-drain-under-pcp-lock") == patch::remote_drain_under_pcp_lock);
    const patch p = patch::remote_drain_under_pcp_lock;
    // Without pcp->lock the switch has nothing to change, on or off.
    for (bool on : {true, false}) {
        CHECK(patch_not_applicable(p, on, *kernel_version::parse("v5.4")).find("pcp->lock") != std::string::npos);
        CHECK(patch_not_applicable(p, on, *kernel_version::parse("v6.6")).empty());
    }
    CHECK(patch_info(p).lesson == "10-remote-drain");
    CHECK(patch_info(p).scenario == "006");
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
