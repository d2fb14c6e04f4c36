#include "core/session/session_test_support.hpp"
#include "core/session/snapshot_diff.hpp"
#include "support/recorded_engine_thread.hpp"

#include "session/engine_sampler.hpp"
#include "session/recorder.hpp"
#include "session/recording_reader.hpp"

#include <catch2/catch.hpp>

#include <mutex>

using namespace pcplab;
using namespace std::chrono_literals;

namespace
{

// Every snapshot an engine thread publishes, as a live view with a subscription would see them.
struct live_log {
    std::mutex mu;
    std::vector<std::shared_ptr<const sim::snapshot>> snaps;
};

} // namespace

TEST_CASE("record then replay gives the live run's snapshot series, field by field")
{
    test::scratch_file f("live.db");
    live_log live;
    test::engine_thread_options o;
    o.publish_hz = 200;
    o.quantum_ns = 50'000;
    o.make_load = test::session_load();
    o.on_publish = [&](const std::shared_ptr<const sim::snapshot>& s) {
        std::lock_guard lk(live.mu);
        live.snaps.push_back(s);
    };
    session::recorder_options ro;
    ro.source = "test";
    ro.queue_capacity = 100'000; // this test wants every snapshot: nothing may be dropped
    session::recorder rec(f.path(), ro);
    test::record_into(rec, o);
    {
        test::engine_thread t(test::session_config(), o);
        REQUIRE(t.wait_for([](const sim::snapshot& s) { return s.sim_time_ns >= 3'000'000; }, 30s));
        t.set_patch(mm::patch::batched_bulk_free, false); // a command and a switch flip in the series
        REQUIRE(t.wait_for([](const sim::snapshot& s) { return s.sim_time_ns >= 6'000'000; }, 30s));
        t.stop();
    }
    rec.close();
    CHECK(rec.dropped() == 0);

    session::recording back(f.path());
    REQUIRE(back.runs().size() == 1);
    const auto replay = back.load_all(back.runs().front().run);
    std::lock_guard lk(live.mu);
    REQUIRE(replay.size() == live.snaps.size());
    REQUIRE(replay.size() > 5);
    std::size_t holds = 0, events = 0, commands = 0;
    for (std::size_t i = 0; i < replay.size(); ++i) {
        INFO("snapshot " << i << " of " << replay.size());
        CHECK(test::first_difference(*live.snaps[i], *replay[i]) == "");
        holds += replay[i]->holds.size();
        events += replay[i]->events.size();
        commands += replay[i]->commands.size();
    }
    // The series carried what the views draw from the logs, so the comparison above compared something.
    CHECK(holds > 0);
    CHECK(events > 0);
    CHECK(commands > 0);
    // The run's header gave the replay the engine's hold threshold and cost model (the blobs do not carry them).
    CHECK(replay.front()->run.hold_threshold_ns == 2'000);
    CHECK(replay.front()->run.costs);
    CHECK(back.runs().front().finished);
    CHECK(back.runs().front().snapshots_written == replay.size());
    CHECK(back.meta("source") == "test");
    CHECK(back.meta("holds_rule") == "all");
}

TEST_CASE("seeking by virtual time finds the last snapshot at or before it")
{
    test::scratch_file f("seek.db");
    auto snaps = test::engine_snapshots(5, 100'000);
    test::record_snapshots(f.path(), snaps);
    session::recording back(f.path());
    const auto run = back.runs().front().run;
    const auto t2 = snaps[2]->sim_time_ns;
    CHECK(back.at_time(run, t2)->seq == snaps[2]->seq);
    CHECK(back.at_time(run, t2 + 1)->seq == snaps[2]->seq);
    CHECK(back.at_time(run, t2 - 1)->seq == snaps[1]->seq);
    CHECK(back.at_time(run, 0)->seq == snaps[0]->seq); // before the first: the first
    CHECK(back.at_time(run, UINT64_MAX / 2)->seq == snaps[4]->seq);
    auto one = back.load(run, snaps[3]->seq);
    REQUIRE(one);
    CHECK(test::first_difference(*snaps[3], *one) == "");
    CHECK(back.load(run, 999) == nullptr);
}

TEST_CASE("a new generation (reboot) starts a new run, and an explicit run takes every snapshot")
{
    test::scratch_file f("runs.db");
    auto snaps = test::engine_snapshots(4, 100'000);
    auto rebooted = std::make_shared<sim::snapshot>(*snaps[3]);
    rebooted->run.generation = 1;
    {
        session::recorder_options ro;
        ro.wait_when_full = true;
        session::recorder rec(f.path(), ro);
        rec.publish(snaps[0]);
        rec.publish(snaps[1]);
        rec.publish(rebooted);
        rec.close();
    }
    session::recording back(f.path());
    REQUIRE(back.runs().size() == 2);
    CHECK(back.index(back.runs()[0].run).size() == 2);
    CHECK(back.index(back.runs()[1].run).size() == 1);
    CHECK(back.runs()[0].stop_reason == "stopped"); // closed without end_run: cut short by the caller
}

TEST_CASE("a full queue drops snapshots of a live source and counts them")
{
    test::scratch_file f("drops.db");
    auto snaps = test::engine_snapshots(1, 100'000);
    session::recorder_options ro;
    ro.queue_capacity = 1;
    session::recorder rec(f.path(), ro);
    // Faster than any writer: many snapshots in a tight loop against a queue of one.
    for (int i = 0; i < 2000; ++i) {
        auto s = std::make_shared<sim::snapshot>(*snaps[0]);
        s->seq = static_cast<std::uint64_t>(i + 1);
        rec.publish(s);
    }
    rec.close();
    CHECK(rec.dropped() > 0);
    CHECK(rec.dropped() + rec.written() == 2000);
    session::recording back(f.path());
    CHECK(back.runs().front().snapshots_dropped == rec.dropped());
    CHECK(back.runs().front().snapshots_written == rec.written());
}

TEST_CASE("a hold rule keeps one hold in N plus every long one, and says so in the file")
{
    auto r = session::hold_rule::parse("1/10+over:5us");
    REQUIRE(r);
    CHECK(r->text() == "1/10+over:5us");
    CHECK(session::hold_rule::parse("all")->text() == "all");
    CHECK(session::hold_rule::parse("none")->text() == "none");
    CHECK(!session::hold_rule::parse("1/0"));
    CHECK(!session::hold_rule::parse("1/x"));
    CHECK(!session::hold_rule::parse("1/5+over:"));
    CHECK(!session::hold_rule::parse("half"));

    session::hold_sampler s(*r);
    sim::lock_hold_record shorth, longh;
    shorth.hold_ns = 100;
    longh.hold_ns = 5'000;
    int kept = 0;
    for (int i = 0; i < 100; ++i) kept += s.keep(shorth);
    CHECK(kept == 10);
    for (int i = 0; i < 7; ++i) CHECK(s.keep(longh));

    test::scratch_file f("sampled.db");
    auto snaps = test::engine_snapshots(4);
    std::size_t holds = 0;
    for (const auto& sn : snaps) holds += sn->holds.size();
    REQUIRE(holds > 20);
    {
        session::recorder_options ro;
        ro.holds = *session::hold_rule::parse("1/10");
        test::record_snapshots(f.path(), snaps, ro);
    }
    session::recording back(f.path());
    const auto& run = back.runs().front();
    CHECK(back.meta("holds_rule") == "1/10");
    CHECK(run.holds_seen == holds);
    CHECK(run.holds_written == (holds + 9) / 10);
}

TEST_CASE("the default hold rule keeps every hold but the plain pcp->lock ones, and says so in the file")
{
    const auto zone = session::hold_rule::parse("zone");
    REQUIRE(zone);
    CHECK(zone->text() == "zone");
    CHECK(session::hold_rule::recording_default().text() == "zone");
    CHECK(zone->engine_must_keep_holds());
    CHECK(!zone->engine_must_keep_plain_pcp_holds());
    CHECK(session::hold_rule::parse("all")->engine_must_keep_plain_pcp_holds());
    CHECK(session::hold_rule::parse("1/10")->engine_must_keep_plain_pcp_holds());
    CHECK(!session::hold_rule::parse("none")->engine_must_keep_plain_pcp_holds());

    session::hold_sampler s(*zone);
    sim::lock_hold_record z, local, waited, remote;
    z.kind = mm::lock_kind::zone_lock;
    local.kind = waited.kind = remote.kind = mm::lock_kind::pcp_lock;
    local.cpu = waited.cpu = remote.cpu = 3;
    local.owner = waited.owner = 3;
    remote.owner = 5; // drain_all_pages from CPU 3 (v6.0+)
    waited.wait_ns = 40;
    CHECK(s.keep(z));
    CHECK(!s.keep(local));
    CHECK(s.keep(waited));
    CHECK(s.keep(remote));

    // A v6.7 machine: one pcp->lock hold per PCP allocation and free, nearly all of them plain.
    test::scratch_file f("zone.db");
    auto snaps = test::engine_snapshots(4);
    std::size_t holds = 0, kept = 0;
    for (const auto& sn : snaps)
        for (const auto& h : sn->holds) {
            ++holds;
            kept += !sim::plain_pcp_hold(h);
        }
    REQUIRE(kept > 0);
    REQUIRE(kept < holds);
    {
        session::recorder_options ro;
        ro.holds = *zone;
        test::record_snapshots(f.path(), snaps, ro);
    }
    session::recording back(f.path());
    CHECK(back.meta("holds_rule") == "zone");
    CHECK(back.runs().front().holds_seen == holds);
    CHECK(back.runs().front().holds_written == kept);
}

TEST_CASE("an engine sampled by its caller records snapshots and /proc texts")
{
    test::scratch_file f("sampled-engine.db");
    test::sampled_run p;
    p.samples = 7;
    p.procfs_every = 3;
    test::record_sampled(f.path(), p);
    session::recording back(f.path());
    REQUIRE(back.runs().size() == 1);
    const auto& r = back.runs().front();
    CHECK(r.preset == "test-preset");
    CHECK(r.era == "v6.7");
    CHECK(r.nr_cpus == 4);
    CHECK(r.finished);
    CHECK(r.stop_reason == "duration");
    CHECK(r.cost_model_json.find("machine_class") != std::string::npos);
    CHECK(back.index(r.run).size() == 7);
    // Each snapshot read back carries the header's threshold and cost model, one model shared by all of them.
    const auto first = back.load(r.run, back.index(r.run).front().seq);
    REQUIRE(first);
    CHECK(first->run.hold_threshold_ns == 2'000);
    REQUIRE(first->run.costs);
    CHECK(first->run.costs == r.costs);
    CHECK(back.load_all(r.run).back()->run.costs == r.costs);
    const auto zi = back.procfs(r.run, "zoneinfo");
    // Rendered at snapshot 1, then 300 us of virtual time later (4, 7); the last one (7) already has its own.
    REQUIRE(zi.size() == 3);
    CHECK(zi[0].seq == 1);
    CHECK(zi[2].seq == 7);
    CHECK(zi[0].text.rfind("Node 0, zone", 0) == 0);
    CHECK(back.procfs(r.run, "buddyinfo").size() == 3);
}
