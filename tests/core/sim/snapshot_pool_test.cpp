// Snapshots handed back by their readers are filled again by their source: cleared, with their vectors' memory
// kept, and never while a reader still holds them.
#include "core/session/session_test_support.hpp"

#include "core/session/snapshot_diff.hpp"
#include "core/sim/engine_test_support.hpp"
#include "session/snapshot_codec.hpp"
#include "sim/snapshot_pool.hpp"

#include "procfs/procfs_texts.hpp"

#include <catch2/catch.hpp>

#include <thread>

using namespace pcplab;

TEST_CASE(
    "a snapshot is filled again once its readers let go, cleared, with its vectors' memory kept", "[snapshot][pool]")
{
    sim::snapshot_pool pool;
    auto s = pool.take();
    sim::snapshot* const address = s.get();
    s->seq = 7;
    s->preset = "classroom";
    s->sim_time_ns = 123;
    s->holds.resize(100);
    s->zones.resize(3);
    s->events.resize(2);
    s->events[0].text = "a cause long enough not to fit in the string's own buffer";
    s->procfs = procfs::procfs_texts::from_texts("Node 0", "");
    s->state_digest = 42;
    std::shared_ptr<const sim::snapshot> reader = s; // published: a reader holds it
    s.reset();

    auto other = pool.take(); // the reader still holds the first: a new one
    CHECK(other.get() != address);
    CHECK(pool.kept() == 2);
    other.reset();

    reader.reset(); // now only the pool holds it
    auto again = pool.take();
    CHECK(again.get() == address); // the oldest first
    CHECK(pool.kept() == 2);
    const sim::snapshot fresh;
    CHECK(again->seq == fresh.seq);
    CHECK(again->preset.empty());
    CHECK(again->sim_time_ns == 0);
    CHECK(again->holds.empty());
    CHECK(again->zones.empty());
    CHECK(again->events.empty());
    CHECK_FALSE(again->procfs);
    CHECK_FALSE(again->state_digest);
    CHECK(again->holds.capacity() >= 100);
    CHECK(again->zones.capacity() >= 3);
}

TEST_CASE("the pool keeps at most MAX_KEPT snapshots and steps past one a reader keeps", "[snapshot][pool]")
{
    sim::snapshot_pool pool;
    std::vector<std::shared_ptr<const sim::snapshot>> readers;
    for (std::size_t i = 0; i < sim::snapshot_pool::MAX_KEPT + 5; ++i) readers.push_back(pool.take());
    CHECK(pool.kept() == sim::snapshot_pool::MAX_KEPT);

    // A reader keeps the oldest kept one (a view's frame); the next is let go, by another thread (a recorder's
    // writer): that one is filled again.
    const sim::snapshot* oldest = readers[5].get();
    const sim::snapshot* second = readers[6].get();
    std::thread([&] { readers[6].reset(); }).join();
    auto s = pool.take();
    CHECK(s.get() == second);
    CHECK(readers[5].get() == oldest);
    CHECK(pool.kept() == sim::snapshot_pool::MAX_KEPT);

    // Let go beyond the look-ahead only: a new one.
    auto& far = readers[5 + sim::snapshot_pool::LOOK_AHEAD + 2];
    const sim::snapshot* far_address = far.get();
    far.reset();
    auto t = pool.take();
    CHECK(t.get() != far_address);
}

TEST_CASE("snapshots built into reused objects equal snapshots built into fresh ones", "[snapshot][pool]")
{
    // Two identical engines: one source keeps every snapshot (nothing comes back, each is built into new memory),
    // the other lets go of each before the next (each is built into the previous one's object). Events, holds
    // and commands vary from snapshot to snapshot, so anything left over from the previous contents shows.
    sim::engine kept_engine(test::session_config(), test::session_load());
    sim::engine reused_engine(test::session_config(), test::session_load());
    kept_engine.boot();
    reused_engine.boot();
    sim::snapshot_cursor kept_cur, reused_cur;
    sim::snapshot_options opt;
    opt.state_digest = true;
    opt.procfs_every_ns = 300'000;
    opt.procfs_virtual_time = true;
    std::vector<std::shared_ptr<const sim::snapshot>> kept;
    std::shared_ptr<const sim::snapshot> previous;
    const sim::snapshot* previous_address = nullptr;
    int reused = 0;
    for (int i = 1; i <= 40; ++i) {
        const sim::vtime_ns to = 150'000 * static_cast<sim::vtime_ns>(i);
        test::run_to(kept_engine, to);
        test::run_to(reused_engine, to);
        auto ctx = [&](sim::engine& e) {
            sim::snapshot_context c;
            c.state = sim::run_state::running;
            c.boundary_ns = e.now();
            if (i % 7 == 0) c.commands.push_back(sim::command_result{}); // some snapshots carry a command result
            return c;
        };
        kept.push_back(sim::build_snapshot(kept_engine, kept_cur, ctx(kept_engine), opt));
        previous.reset();
        previous = sim::build_snapshot(reused_engine, reused_cur, ctx(reused_engine), opt);
        if (previous.get() == previous_address) ++reused;
        previous_address = previous.get();
        // Everything but the boot's wall time on this host.
        sim::snapshot a = *previous, b = *kept.back();
        for (auto& d : a.deferred_init) d.host_ms = 0;
        for (auto& d : b.deferred_init) d.host_ms = 0;
        INFO("snapshot " << i << ": " << test::first_difference(a, b));
        REQUIRE(session::encode_snapshot(a) == session::encode_snapshot(b));
        CHECK(previous->state_digest == kept.back()->state_digest);
        CHECK(previous->holds.size() == kept.back()->holds.size());
    }
    CHECK(reused == 39); // every snapshot after the first went into the one before it
    CHECK(kept_cur.pool.kept() == 40); // none reused
    CHECK(reused_cur.pool.kept() == 1);
}
