// Long live runs keep flat memory: the snapshot builder takes what is new and the engine frees what has been
// published. And the /proc texts ride along in snapshots, shared between refreshes.
#include "core/sim/engine_test_support.hpp"
#include "sim/snapshot_builder.hpp"

#include "procfs/procfs_texts.hpp"
#include "procfs/zoneinfo_print.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace pcplab;

namespace
{

// v6.7 with auto-tuning: pcp->high changes (folded per second), limits changes, drains and hold records.
sim::engine_config busy_config()
{
    auto cfg = test::small_config(2, 2, 1, "v6.7");
    cfg.keep_events = true;
    cfg.keep_holds = true;
    return cfg;
}

test::loop_params busy_load()
{
    test::loop_params p;
    p.burst = 700; // beyond high: refills and flushes take zone->lock
    p.gap_ns = 400'000;
    return p;
}

bool same_event(const sim::sim_event& a, const sim::sim_event& b)
{
    return a.t == b.t && a.kind == b.kind && a.cpu == b.cpu && a.node == b.node && a.zone == b.zone
        && a.old_value == b.old_value && a.new_value == b.new_value && a.text == b.text && a.field == b.field;
}

} // namespace

TEST_CASE("released events are the same, in the same order, as an engine that keeps them all", "[snapshot][memory]")
{
    const sim::vtime_ns end = 3 * sim::NS_PER_SEC;
    sim::engine keep(busy_config(), test::loop_factory(busy_load()));
    test::run_to(keep, end);
    REQUIRE(keep.events().size() > 20);
    const bool any_high = std::any_of(keep.events().begin(), keep.events().end(),
        [](const sim::sim_event& e) { return e.kind == sim::event_kind::pcp_high_change; });
    REQUIRE(any_high); // the folding case is exercised

    sim::engine rel(busy_config(), test::loop_factory(busy_load()));
    std::vector<sim::sim_event> got;
    std::size_t most_kept = 0;
    for (sim::vtime_ns t = 10'000'000; t <= end; t += 10'000'000) {
        test::run_to(rel, t);
        const std::vector<sim::sim_event> before = rel.events();
        const std::uint64_t base = rel.events_released();
        rel.release_events(UINT64_MAX);
        const std::uint64_t n = rel.events_released() - base;
        got.insert(got.end(), before.begin(), before.begin() + static_cast<std::ptrdiff_t>(n));
        most_kept = std::max(most_kept, rel.events().size());
    }
    got.insert(got.end(), rel.events().begin(), rel.events().end());
    REQUIRE(got.size() == keep.events().size());
    for (std::size_t i = 0; i < got.size(); ++i) CHECK(same_event(got[i], keep.events()[i]));
    CHECK(rel.events_released() > 0);
    CHECK(most_kept < keep.events().size()); // what stays is what may still change
    CHECK(rel.zone_locks()[0].acquisitions == keep.zone_locks()[0].acquisitions);
}

TEST_CASE(
    "snapshots hand over every hold record once and the engine keeps only the unpublished ones", "[snapshot][memory]")
{
    sim::engine e(busy_config(), test::loop_factory(busy_load()));
    sim::snapshot_cursor cur;
    sim::snapshot_options opt;
    opt.procfs_every_ns = 0;
    opt.max_holds = SIZE_MAX;
    opt.max_events = SIZE_MAX;
    std::uint64_t holds_seen = 0, events_seen = 0;
    std::size_t most_kept = 0, most_per_snapshot = 0;
    for (sim::vtime_ns t = 1'000'000; t <= 400'000'000; t += 1'000'000) {
        test::run_to(e, t);
        auto s = sim::build_snapshot(e, cur, {}, opt);
        holds_seen += s->holds.size();
        events_seen += s->events.size();
        CHECK(s->holds_dropped == 0);
        most_per_snapshot = std::max(most_per_snapshot, s->holds.size());
        most_kept = std::max(most_kept, e.holds().size());
    }
    std::uint64_t recorded = 0;
    for (const auto& l : e.zone_locks()) recorded += l.acquisitions;
    recorded += e.pcp_locks().acquisitions;
    CHECK(holds_seen == recorded); // every hold, once
    CHECK(e.holds_released() == holds_seen);
    CHECK(e.holds().empty());
    CHECK(most_kept == 0); // released as soon as published
    CHECK(most_per_snapshot > 0);
    CHECK(cur.events == e.events_released() + e.events().size()); // every event published
    CHECK(events_seen == cur.events);

    // Without release, the engine keeps everything (the old behaviour, for readers of engine::holds()).
    sim::engine k(busy_config(), test::loop_factory(busy_load()));
    sim::snapshot_cursor kc;
    opt.release_published = false;
    for (sim::vtime_ns t = 1'000'000; t <= 50'000'000; t += 1'000'000) {
        test::run_to(k, t);
        sim::build_snapshot(k, kc, {}, opt);
    }
    CHECK(k.holds_released() == 0);
    CHECK(k.holds().size() > most_per_snapshot);
}

TEST_CASE("a snapshot that takes the engine's hold log gets the records a copy would", "[snapshot][memory]")
{
    // `taken` releases what it publishes (the engine's log is handed over whole); `copied` keeps everything
    // (each snapshot copies the records after its cursor). Record for record, the snapshots must agree.
    sim::engine taken(busy_config(), test::loop_factory(busy_load()));
    sim::engine copied(busy_config(), test::loop_factory(busy_load()));
    sim::snapshot_cursor tc, cc;
    sim::snapshot_options opt;
    opt.procfs_every_ns = 0;
    opt.max_holds = SIZE_MAX;
    sim::snapshot_options keep = opt;
    keep.release_published = false;
    std::size_t records = 0;
    for (sim::vtime_ns t = 1'000'000; t <= 60'000'000; t += 1'000'000) {
        test::run_to(taken, t);
        test::run_to(copied, t);
        auto a = sim::build_snapshot(taken, tc, {}, opt);
        auto b = sim::build_snapshot(copied, cc, {}, keep);
        CHECK(taken.holds().empty()); // handed over
        REQUIRE(a->holds.size() == b->holds.size());
        for (std::size_t i = 0; i < a->holds.size(); ++i) {
            const auto &x = a->holds[i], &y = b->holds[i];
            CHECK((x.start == y.start && x.hold_ns == y.hold_ns && x.wait_ns == y.wait_ns && x.cpu == y.cpu
                && x.node == y.node && x.zone == y.zone && x.caller == y.caller && x.kind == y.kind
                && x.pages == y.pages && x.owner == y.owner));
        }
        CHECK(a->zones.size() == b->zones.size());
        for (std::size_t z = 0; z < a->zones.size() && z < b->zones.size(); ++z)
            CHECK(a->zones[z].lock.waiting_cpus_now == b->zones[z].lock.waiting_cpus_now);
        records += a->holds.size();
    }
    CHECK(records > 1000);
    CHECK(taken.holds_released() == records);
    CHECK(copied.holds().size() == records);
}

TEST_CASE("hold records beyond the engine's cap are counted, not kept", "[snapshot][memory]")
{
    auto cfg = busy_config();
    cfg.max_holds = 100;
    sim::engine e(cfg, test::loop_factory(busy_load()));
    test::run_to(e, 100'000'000);
    CHECK(e.holds().size() == 100);
    CHECK(e.holds_dropped() > 0);
    e.release_holds(60);
    CHECK(e.holds().size() == 40);
    CHECK(e.holds_released() == 60);
    test::run_to(e, 200'000'000);
    CHECK(e.holds().size() == 100); // room again for 60 more
}

TEST_CASE("snapshots carry the /proc texts of their capture, shared until the next one", "[snapshot][procfs]")
{
    sim::engine e(busy_config(), test::loop_factory(busy_load()));
    sim::snapshot_cursor cur;
    sim::snapshot_options opt;
    opt.procfs_every_ns = 10'000'000;
    opt.procfs_virtual_time = true;
    std::vector<std::shared_ptr<const sim::snapshot>> snaps;
    // What procfs prints for the machine at each capture, taken then; the snapshots' texts are printed only
    // after the run, when the machine has moved on: they must still be those of their capture.
    std::vector<std::pair<std::string, std::string>> expected;
    for (sim::vtime_ns t = 1'000'000; t <= 25'000'000; t += 1'000'000) {
        test::run_to(e, t);
        snaps.push_back(sim::build_snapshot(e, cur, {}, opt));
        REQUIRE(snaps.back()->procfs);
        if (snaps.size() == 1 || snaps.back()->procfs != snaps[snaps.size() - 2]->procfs) {
            expected.emplace_back(procfs::zoneinfo_text(e.machine()), procfs::buddyinfo_text(e.machine()));
            CHECK(snaps.back()->procfs_time_ns == snaps.back()->sim_time_ns);
        }
    }
    // Captured at 1 ms, 11 ms and 21 ms of virtual time: three distinct captures, shared in between.
    std::vector<const procfs::procfs_texts*> distinct;
    for (const auto& s : snaps)
        if (distinct.empty() || distinct.back() != s->procfs.get()) distinct.push_back(s->procfs.get());
    REQUIRE(distinct.size() == 3);
    REQUIRE(expected.size() == 3);
    CHECK(expected[0].first != expected[2].first); // the machine changed: the check below can tell them apart
    for (std::size_t i = 0; i < distinct.size(); ++i) {
        CHECK(distinct[i]->zoneinfo() == expected[i].first);
        CHECK(distinct[i]->buddyinfo() == expected[i].second);
    }
    CHECK(snaps.front()->procfs->zoneinfo().find("Node 0, zone") != std::string::npos);
    CHECK(snaps[1]->procfs == snaps[0]->procfs);
    // Printed once: every reader gets the same string.
    CHECK(&snaps[1]->procfs->zoneinfo() == &snaps[0]->procfs->zoneinfo());

    // A command may change the texts without a step: captured at once.
    auto s2 = sim::build_snapshot(e, cur, {}, opt);
    CHECK(s2->procfs == snaps.back()->procfs);
    REQUIRE(e.set_sysctl("min_free_kbytes", 65536).ok());
    sim::snapshot_context ctx;
    ctx.commands.push_back(sim::command_result{});
    auto s3 = sim::build_snapshot(e, cur, ctx, opt);
    REQUIRE(s3->procfs);
    CHECK(s3->procfs != s2->procfs);
    CHECK(s3->procfs->zoneinfo() == procfs::zoneinfo_text(e.machine()));

    // Off: none.
    sim::snapshot_cursor off_cur;
    opt.procfs_every_ns = 0;
    auto none = sim::build_snapshot(e, off_cur, {}, opt);
    CHECK_FALSE(none->procfs);
}
