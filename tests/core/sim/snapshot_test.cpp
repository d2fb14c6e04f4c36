#include "sim/boot_presenter.hpp"
#include "sim/engine.hpp"
#include "sim/engine_command.hpp"
#include "sim/machine_config.hpp"
#include "sim/snapshot_builder.hpp"
#include "support/small_machine.hpp"

#include "mm/boot.hpp"
#include "mm/buddy.hpp"
#include "mm/buddy_fallback.hpp"
#include "mm/machine.hpp"
#include "mm/page_alloc.hpp"
#include "mm/patch_switches.hpp"

#include <catch2/catch.hpp>

#include <memory>

using namespace pcplab;

namespace
{

std::unique_ptr<mm::machine> booted_machine(const char* era = "v6.7")
{
    const auto v = *mm::kernel_version::parse(era);
    auto m = std::make_unique<mm::machine>(test::small_spec(2, 2, 1), v, mm::default_patches(v));
    mm::boot(*m);
    return m;
}

// Allocates `n` order-0 pages on `cpu` and frees them again: they stay on that CPU's PCP lists.
void churn(mm::machine& m, int cpu, int n)
{
    auto c = m.ctx(cpu);
    std::vector<mm::pfn_t> got;
    for (int i = 0; i < n; ++i) {
        mm::pfn_t p = mm::alloc_pages(c, mm::alloc_request{});
        REQUIRE(p != mm::NO_PFN);
        got.push_back(p);
    }
    for (auto p : got) mm::free_pages(c, p, 0);
}

unsigned long walk_length(const mm::machine& m, const mm::page_list& l)
{
    unsigned long n = 0;
    for (mm::pfn_t p = l.first; p != mm::NO_PFN; p = m.lists().next(l, p)) ++n;
    return n;
}

mm::zone& normal_zone(mm::machine& m, int node)
{
    return m.nodes[static_cast<std::size_t>(node)]->z(mm::ZONE_NORMAL);
}

} // namespace

TEST_CASE("free blocks per migratetype match the free lists, kept through moves, merges and splits", "[snapshot]")
{
    auto m = booted_machine();
    mm::zone& z = normal_zone(*m, 1);
    // Move one free block of the highest order to the UNMOVABLE list, so two lists of that order are non-empty.
    const unsigned top = mm::MAX_PAGE_ORDER;
    const mm::pfn_t moved = z.free_area_[top].free_list[mm::MIGRATE_MOVABLE].first;
    REQUIRE(moved != mm::NO_PFN);
    auto c = m->ctx(0);
    mm::del_page_from_free_list(c, z, moved, top, mm::MIGRATE_MOVABLE);
    mm::add_to_free_list(c, z, moved, top, mm::MIGRATE_UNMOVABLE, false);
    REQUIRE(z.free_area_[top].nr_free >= 3);
    churn(*m, 1, 7); // allocations and frees: splits and merges on the lists

    auto check_against_walk = [&] {
        sim::zone_snapshot zs;
        sim::count_free_blocks(zs, z);
        CHECK(zs.free_blocks_exact);
        for (unsigned o = 0; o < mm::NR_PAGE_ORDERS; ++o) {
            unsigned long sum = 0;
            for (unsigned mt = 0; mt < mm::MIGRATE_TYPES; ++mt) {
                INFO("order " << o << " migratetype " << mm::migratetype_name(mt));
                CHECK(zs.free_blocks[o][mt] == walk_length(*m, z.free_area_[o].free_list[mt]));
                sum += zs.free_blocks[o][mt];
            }
            CHECK(sum == z.free_area_[o].nr_free);
            CHECK(zs.nr_free[o] == z.free_area_[o].nr_free);
        }
        return zs;
    };
    CHECK(check_against_walk().free_blocks[top][mm::MIGRATE_UNMOVABLE] == 1);
    // A move between lists of one order (move_to_free_list) moves the count too.
    mm::move_to_free_list(c, z, moved, top, mm::MIGRATE_UNMOVABLE, mm::MIGRATE_RECLAIMABLE);
    const auto after = check_against_walk();
    CHECK(after.free_blocks[top][mm::MIGRATE_UNMOVABLE] == 0);
    CHECK(after.free_blocks[top][mm::MIGRATE_RECLAIMABLE] == 1);
}

TEST_CASE("pageset samples are zone-major, one per CPU, and add up to the PCP-resident pages", "[snapshot]")
{
    auto m = booted_machine();
    churn(*m, 0, 5);
    churn(*m, 3, 9);
    sim::snapshot s;
    sim::copy_memory_state(s, *m);
    REQUIRE(s.nr_cpus == 4);
    REQUIRE(s.pcp.size() == s.zones.size() * 4);
    long total = 0;
    for (std::size_t zi = 0; zi < s.zones.size(); ++zi) {
        const auto& zs = s.zones[zi];
        const mm::zone& z = m->nodes[static_cast<std::size_t>(zs.node)]->z(static_cast<mm::zone_type>(zs.zone));
        long zone_sum = 0;
        for (int cpu = 0; cpu < 4; ++cpu) {
            const auto& pcp = z.per_cpu_pageset[cpu];
            CHECK(s.pageset(zi, cpu).count == pcp.count);
            CHECK(s.pageset(zi, cpu).high == pcp.high);
            CHECK(s.pageset(zi, cpu).batch == pcp.batch);
            zone_sum += pcp.count;
        }
        CHECK(zs.pcp_pages == zone_sum);
        CHECK(zs.free_pages == z.nr_free_pages);
        CHECK(zs.managed == z.managed());
        CHECK(zs.watermark[mm::WMARK_LOW] == z.low_wmark_pages());
        total += zone_sum;
    }
    CHECK(total >= 14); // the freed pages sit on CPU 0's and CPU 3's lists
    CHECK(s.totals.pcp_resident_pages == static_cast<std::uint64_t>(total));
    CHECK(s.zone_index(1, mm::ZONE_NORMAL) >= 0);
    CHECK(s.zone_index(1, mm::ZONE_DMA) == -1);
}

TEST_CASE("a snapshot is a copy: later allocator work does not show in it", "[snapshot]")
{
    auto m = booted_machine();
    auto before = std::make_shared<sim::snapshot>();
    sim::copy_memory_state(*before, *m);
    const auto kept = before->totals.pcp_resident_pages;
    const auto kept_free = before->zones.back().free_pages;
    churn(*m, 2, 20);
    sim::snapshot after;
    sim::copy_memory_state(after, *m);
    CHECK(after.totals.pcp_resident_pages > kept);
    CHECK(before->totals.pcp_resident_pages == kept);
    CHECK(before->zones.back().free_pages == kept_free);
}

TEST_CASE("contention percentages come from merged waiting time up to now, whole run and since the last snapshot",
    "[snapshot]")
{
    sim::snapshot s;
    s.zones.resize(1);
    s.zones[0].node = 0;
    s.zones[0].zone = mm::ZONE_NORMAL;
    std::vector<sim::lock_metrics> locks(1);
    locks[0].node = 0;
    locks[0].zone = mm::ZONE_NORMAL;
    // Waits merged into [750, 1500), still open at 1000: the 250 ns up to now count, the 500 ahead do not.
    locks[0].waiting_ns = 750;
    locks[0].waiting_from = 750;
    locks[0].waiting_until = 1500;
    sim::snapshot_cursor cur;
    s.sim_time_ns = 1000;
    sim::copy_lock_state(s, locks, {}, false, cur);
    const auto& l = s.zones[0].lock;
    CHECK(l.present);
    CHECK(l.contention_pct == Approx(25.0));
    CHECK(l.contention_pct_recent == Approx(25.0));
    CHECK(l.someone_waiting);
    CHECK(l.waiting_cpus_now == -1); // no hold records: unknown

    // 1000 ns later: the 500 ns that lay ahead of 1000 and 100 ns more in [1600, 1700): 60 % recently, 850 of
    // 2000 ns over the run.
    locks[0].waiting_ns = 850;
    locks[0].waiting_from = 1600;
    locks[0].waiting_until = 1700;
    sim::snapshot s2 = s;
    s2.sim_time_ns = 2000;
    sim::copy_lock_state(s2, locks, {}, false, cur);
    CHECK(s2.zones[0].lock.contention_pct_recent == Approx(60.0));
    CHECK(s2.zones[0].lock.contention_pct == Approx(42.5));
    CHECK_FALSE(s2.zones[0].lock.someone_waiting);
}

TEST_CASE("CPUs waiting on zone->lock are counted from hold records whose wait covers the instant", "[snapshot]")
{
    auto rec = [](int cpu, sim::vtime_ns start, std::uint32_t wait, int zone = mm::ZONE_NORMAL) {
        sim::lock_hold_record r;
        r.cpu = static_cast<std::uint16_t>(cpu);
        r.start = start;
        r.wait_ns = wait;
        r.zone = static_cast<std::uint8_t>(zone);
        return r;
    };
    std::vector<sim::lock_hold_record> holds{
        rec(1, 1100, 200), // waited 900..1100: yes at 1000
        rec(2, 1300, 400), // 900..1300: yes
        rec(2, 1400, 50), // the same CPU again later: counted once
        rec(3, 1000, 100), // 900..1000: granted at 1000, no longer waiting
        rec(4, 1200, 0), // never waited
        rec(5, 1100, 500, mm::ZONE_DMA32), // another zone's lock
    };
    CHECK(sim::waiting_cpus_at(holds, 0, mm::ZONE_NORMAL, 1000) == 2);
    CHECK(sim::waiting_cpus_at(holds, 0, mm::ZONE_NORMAL, 2000) == 0);
    CHECK(sim::waiting_cpus_at(holds, 0, mm::ZONE_DMA32, 1000) == 1);
    CHECK(sim::waiting_cpus_at(holds, 1, mm::ZONE_NORMAL, 1000) == 0);
}

TEST_CASE("event windows deliver each entry once and keep the newest when capped", "[snapshot]")
{
    std::vector<int> all{1, 2, 3};
    std::size_t cursor = 0;
    std::uint64_t dropped = 0;
    std::vector<int> out;
    sim::copy_window(all, cursor, 10, out, dropped);
    CHECK(out == std::vector<int>{1, 2, 3});
    sim::copy_window(all, cursor, 10, out, dropped);
    CHECK(out.empty());
    for (int i = 4; i <= 10; ++i) all.push_back(i);
    sim::copy_window(all, cursor, 3, out, dropped);
    CHECK(out == std::vector<int>{8, 9, 10});
    CHECK(dropped == 4);
    all.resize(2); // the source was trimmed: start again from its beginning
    sim::copy_window(all, cursor, 10, out, dropped);
    CHECK(out == std::vector<int>{1, 2});
}

TEST_CASE("command descriptions name the command, its argument, side and time", "[snapshot]")
{
    auto c = sim::make_set_patch(mm::patch::batched_bulk_free, true);
    c.target = sim::command_target::b;
    c.at = 5000;
    CHECK(c.describe() == "set_patch batched-bulk-free=on [B] at 5000 ns");
    CHECK(sim::make_set_speed(0).describe() == "speed max");
    CHECK(std::string(sim::run_state_name(sim::run_state::paused)) == "paused");
}

TEST_CASE("a boot snapshot shows the machine deferred init starts from, grown to its instant, and the boot's events "
          "up to it",
    "[snapshot]")
{
    const auto v = *mm::kernel_version::parse("v5.4"); // seed 000's era: zone_pcp_update at the end of the init
    sim::engine_config cfg;
    cfg.spec = test::small_spec(2, 2, 2);
    cfg.era = v;
    cfg.patches = mm::default_patches(v);
    cfg.workload = "kernbench";
    sim::engine e(cfg);
    sim::snapshot at_setup;
    sim::boot_observer obs;
    obs.on_setup = [&](const mm::machine& m) { sim::copy_memory_state(at_setup, m); };
    e.boot(&obs);
    REQUIRE_FALSE(at_setup.zones.empty());
    const sim::boot_times b = e.timeline();
    REQUIRE(e.boot_report().size() == 2);

    sim::snapshot_cursor cur;
    sim::snapshot_context ctx;
    ctx.state = sim::run_state::booting;
    auto frame_at = [&](sim::vtime_ns t) {
        sim::boot_frame f;
        f.t = t;
        for (const auto& n : sim::planned_nodes(e, true)) f.nodes.push_back(sim::present_node(n, t, true));
        f.at_setup = &at_setup;
        return sim::build_boot_snapshot(e, f, cur, ctx);
    };
    const int n1 = at_setup.zone_index(1, mm::ZONE_NORMAL);
    REQUIRE(n1 >= 0);
    const unsigned long early = at_setup.zones[static_cast<std::size_t>(n1)].managed;

    auto early_part = frame_at(b.deferred_init_start_ns - 1);
    CHECK(early_part->sim_time_ns == b.deferred_init_start_ns - 1);
    CHECK(early_part->events.empty()); // setup_per_cpu_pageset runs at the end of the early part
    CHECK(early_part->zones[static_cast<std::size_t>(n1)].managed == early);
    CHECK(early_part->boot.init_end_ns == b.init_end_ns);

    const sim::vtime_ns mid = b.deferred_init_start_ns + (e.boot_report()[1].done_at - b.deferred_init_start_ns) / 2;
    auto during = frame_at(mid);
    REQUIRE(during->deferred_init.size() == 2);
    const auto& d1 = during->deferred_init[1];
    CHECK(d1.done > 0);
    CHECK(d1.done < d1.total);
    CHECK(during->zones[static_cast<std::size_t>(n1)].managed == early + d1.done); // managed pages climb
    CHECK(during->zones[static_cast<std::size_t>(n1)].batch == at_setup.zones[static_cast<std::size_t>(n1)].batch);
    bool setup_events = !during->events.empty();
    for (const auto& ev : during->events) {
        setup_events = setup_events && ev.kind == sim::event_kind::limits_change && ev.t == b.deferred_init_start_ns;
    }
    CHECK(setup_events); // the first limits, at their instant

    auto just_before = frame_at(b.init_end_ns - 1);
    for (const auto& ev : just_before->events) CHECK(ev.t < b.init_end_ns); // the recomputed limits come at the end
    auto end = frame_at(b.init_end_ns);
    bool recomputed = false;
    for (const auto& ev : end->events)
        recomputed = recomputed || (ev.kind == sim::event_kind::limits_change && ev.t == b.init_end_ns);
    CHECK(recomputed);
    for (const auto& d : end->deferred_init) {
        CHECK(d.finished);
        CHECK(d.done == d.total);
    }
    CHECK(end->seq == during->seq + 2);
}
