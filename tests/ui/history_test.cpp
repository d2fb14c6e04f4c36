// history: one sample per new snapshot, cleared on a new generation, old samples thinned past max_samples,
// events and holds capped.
#include "ui/model/history.hpp"

#include <catch2/catch.hpp>

#include <memory>

using namespace pcplab;

namespace
{

// A snapshot with one zone of two CPUs whose per-CPU high is `h0` and `h1`.
sim::snapshot make_snapshot(std::uint64_t seq, std::uint64_t generation, sim::vtime_ns t, int h0 = 10, int h1 = 20)
{
    sim::snapshot s;
    s.seq = seq;
    s.run.generation = generation;
    s.sim_time_ns = t;
    s.nr_cpus = 2;
    s.cpu_node = {0, 0};
    sim::zone_snapshot z;
    z.node = 0;
    z.zone = 2;
    z.batch = 7;
    z.high = 42;
    z.free_pages = 1000 + static_cast<long>(seq);
    s.zones.push_back(z);
    s.pcp = {{3, h0, 7}, {4, h1, 7}};
    s.totals.pcp_hits = seq * 10;
    s.totals.zone_allocs = seq * 2;
    sim::cpu_metrics c;
    c.sys_ns = seq * 100;
    c.user_ns = seq * 300;
    s.cpus = {c, c};
    return s;
}

} // namespace

TEST_CASE("history appends one sample per new snapshot and ignores one already seen")
{
    ui::history h;
    REQUIRE(h.append(make_snapshot(1, 0, 1000)));
    REQUIRE(h.append(make_snapshot(2, 0, 2000)));
    REQUIRE_FALSE(h.append(make_snapshot(2, 0, 2000)));
    REQUIRE(h.samples().size() == 2);
    const ui::sample& last = h.samples().back();
    CHECK(last.t_ns == 2000);
    CHECK(last.pcp_hits == 20);
    CHECK(last.sys_ns == 400); // two CPUs of 200
    CHECK(last.user_ns == 1200);
    REQUIRE(last.zones.size() == 1);
    CHECK(last.zones[0].batch == 7);
    CHECK(last.zones[0].high == 42);
    CHECK(last.zones[0].free_pages == 1002);
    CHECK(h.samples_total() == 2);
}

TEST_CASE("history keeps the band of the per-CPU high over the CPUs whose high is set")
{
    ui::history h;
    h.append(make_snapshot(1, 0, 1000, 50, 12));
    CHECK(h.samples().back().zones[0].cpu_high_min == 12);
    CHECK(h.samples().back().zones[0].cpu_high_max == 50);
    // A CPU that never used the zone keeps the boot pageset's high of 0 under auto-tuning: not part of the band
    // (story 002's band of 300..4000 pages was not drawn at all while its lower edge was 0 on a log axis).
    h.append(make_snapshot(2, 0, 2000, 0, 4221));
    CHECK(h.samples().back().zones[0].cpu_high_min == 4221);
    CHECK(h.samples().back().zones[0].cpu_high_max == 4221);
    h.append(make_snapshot(3, 0, 3000, 0, 0));
    CHECK(h.samples().back().zones[0].cpu_high_min == 0);
    CHECK(h.samples().back().zones[0].cpu_high_max == 0);
}

TEST_CASE("history clears on a new generation and on a restarted source")
{
    ui::history h;
    auto s = make_snapshot(1, 0, 1000);
    sim::sim_event e;
    e.kind = sim::event_kind::note;
    s.events.push_back(e);
    h.append(s);
    h.append(make_snapshot(2, 0, 2000));
    REQUIRE(h.samples().size() == 2);
    REQUIRE(h.events().size() == 1);
    const auto epoch = h.epoch();

    REQUIRE(h.append(make_snapshot(3, 1, 10))); // reboot: generation 1
    CHECK(h.samples().size() == 1);
    CHECK(h.samples().front().generation == 1);
    CHECK(h.events().empty());
    CHECK(h.epoch() != epoch);
    CHECK(h.events_total() == 0);

    // Another engine (seq restarted) in the same generation also starts a new timeline.
    REQUIRE(h.append(make_snapshot(1, 1, 5)));
    CHECK(h.samples().size() == 1);
    CHECK(h.samples().front().t_ns == 5);
}

TEST_CASE("history thins old samples past max_samples and keeps the recent ones")
{
    const std::size_t max = 100;
    ui::history h(max);
    for (std::uint64_t i = 1; i <= 1000; ++i) h.append(make_snapshot(i, 0, static_cast<sim::vtime_ns>(i) * 1000));
    const auto& s = h.samples();
    REQUIRE(s.size() <= max);
    REQUIRE(s.size() >= max / 2);
    CHECK(h.thin_count() > 0);
    CHECK(h.samples_total() == 1000);
    // The first and the newest samples survive; time stays increasing.
    CHECK(s.front().t_ns == 1000);
    CHECK(s.back().t_ns == 1'000'000);
    for (std::size_t i = 1; i < s.size(); ++i) REQUIRE(s[i].t_ns > s[i - 1].t_ns);
    // The most recent quarter is at full resolution (consecutive snapshots), the oldest part is not.
    for (std::size_t i = s.size() - max / 4; i < s.size(); ++i) REQUIRE(s[i].t_ns - s[i - 1].t_ns == 1000);
    CHECK(s[1].t_ns - s[0].t_ns > 1000);
}

TEST_CASE("history caps events and holds, oldest first")
{
    ui::history h(100, 5, 3);
    for (std::uint64_t i = 1; i <= 4; ++i) {
        auto s = make_snapshot(i, 0, static_cast<sim::vtime_ns>(i));
        for (int k = 0; k < 2; ++k) {
            sim::sim_event e;
            e.t = static_cast<sim::vtime_ns>(i * 10 + static_cast<std::uint64_t>(k));
            s.events.push_back(e);
            sim::lock_hold_record r;
            r.start = e.t;
            s.holds.push_back(r);
        }
        h.append(s);
    }
    REQUIRE(h.events().size() == 5);
    REQUIRE(h.holds().size() == 3);
    CHECK(h.events().front().t == 21); // 8 appended, the 3 oldest (10, 11, 20) dropped
    CHECK(h.events().back().t == 41);
    CHECK(h.holds().front().start == 31);
    CHECK(h.events_total() == 8);
    CHECK(h.holds_total() == 8);
}

TEST_CASE("history keeps the zone->lock holds apart, sorted by start although they arrive out of order")
{
    ui::history h;
    auto s = make_snapshot(1, 0, 100);
    for (sim::vtime_ns start : {50, 10, 40, 90, 20}) {
        sim::lock_hold_record r;
        r.start = start;
        r.kind = mm::lock_kind::zone_lock;
        s.holds.push_back(r);
    }
    sim::lock_hold_record pcp;
    pcp.start = 30;
    pcp.kind = mm::lock_kind::pcp_lock;
    s.holds.push_back(pcp);
    h.append(s);
    auto s2 = make_snapshot(2, 0, 200);
    sim::lock_hold_record late;
    late.start = 15; // recorded later by a CPU whose clock was behind
    late.kind = mm::lock_kind::zone_lock;
    s2.holds.push_back(late);
    h.append(s2);

    CHECK(h.holds().size() == 7); // every record, in arrival order
    const auto& z = h.zone_lock_holds();
    REQUIRE(z.size() == 6); // not the pcp->lock one
    std::vector<sim::vtime_ns> starts;
    for (const auto& r : z) starts.push_back(r.start);
    CHECK(starts == std::vector<sim::vtime_ns>{10, 15, 20, 40, 50, 90});
}
