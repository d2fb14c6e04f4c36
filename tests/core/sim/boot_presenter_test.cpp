#include "core/sim/engine_test_support.hpp"
#include "support/engine_thread.hpp"

#include "sim/boot_presenter.hpp"
#include "sim/machine_config.hpp"

#include "mm/state_digest.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <mutex>

using namespace pcplab;
using namespace std::chrono_literals;

TEST_CASE("a node's boot is shown on its modelled timeline, never ahead of its threads", "[boot]")
{
    sim::node_boot_state n;
    n.node = 1;
    n.threads = 2;
    n.total = 1000;
    n.modelled_ms = 0.010;
    n.start_ns = 40'000; // deferred init starts after the early part
    n.done_at_ns = 50'000; // the node's modelled deferred init: 10 us
    n.host_done = 1000;
    n.host_finished = true;

    auto before = sim::present_node(n, 30'000, true);
    CHECK(before.done == 0); // the threads have not started on the timeline yet
    CHECK(before.modelled_elapsed_ms == 0);

    auto half = sim::present_node(n, 45'000, true);
    CHECK(half.paced);
    CHECK(half.done == 500);
    CHECK(half.host_done == 1000);
    CHECK_FALSE(half.finished); // the threads are done, the timeline is not
    CHECK(half.modelled_elapsed_ms == Approx(0.005));
    CHECK(half.modelled_ms == Approx(0.010));
    CHECK(half.done_at_ns == 50'000);

    auto end = sim::present_node(n, 60'000, true);
    CHECK(end.done == 1000);
    CHECK(end.finished);
    CHECK(end.modelled_elapsed_ms == Approx(0.010)); // capped at the node's end

    // The host is slower than the timeline: the real count is shown, and it is not finished.
    n.host_done = 300;
    n.host_finished = false;
    auto behind = sim::present_node(n, 49'000, true);
    CHECK(behind.done == 300);
    CHECK_FALSE(behind.finished);
    // The instant its threads have reached: 30% of the way.
    CHECK(sim::host_reached(n) == 43'000);
}

TEST_CASE("the boot presentation speed keeps a one-thread boot between the wall-time bounds", "[boot]")
{
    sim::boot_pacing p;
    p.speed = 1e9; // real time
    p.min_wall = 1500ms;
    p.max_wall = 6000ms;
    const double classroom_ns = 33e6; // about what the classroom preset's one-thread boot is modelled at
    // 33 ms in real time would be one frame: slowed so that it lasts 1.5 s.
    CHECK(sim::boot_presentation_speed(p, classroom_ns) == Approx(33e6 / 1.5));
    // A 4 s boot at real time is within the bounds: the speed is kept.
    CHECK(sim::boot_presentation_speed(p, 4e9) == Approx(1e9));
    // In slow motion a 4 s boot would take 4000 s: sped up to last 6 s.
    p.speed = 1e6;
    CHECK(sim::boot_presentation_speed(p, 4e9) == Approx(4e9 / 6));
    // No speed, or nothing deferred: not paced.
    p.speed = 0;
    CHECK(sim::boot_presentation_speed(p, classroom_ns) == 0);
    p.speed = 1e9;
    CHECK(sim::boot_presentation_speed(p, 0) == 0);
}

TEST_CASE("a watched engine boot reports progress and ends in the same machine as a plain one", "[boot]")
{
    auto cfg = test::small_config(2, 2, 2, "v6.7");
    sim::engine plain(cfg, test::loop_factory({}));
    plain.boot();

    sim::engine watched(cfg, test::loop_factory({}));
    int calls = 0;
    bool within = true;
    sim::boot_observer obs;
    obs.interval = 1ms;
    obs.on_progress = [&](const mm::machine& m, const mm::deferred_init& di) {
        ++calls;
        for (int nid = 0; nid < m.nr_online_nodes(); ++nid) within = within && di.progress(nid) <= di.total(nid);
    };
    watched.boot(&obs);
    CHECK(calls >= 1);
    CHECK(within);
    CHECK(mm::state_digest(watched.machine()) == mm::state_digest(plain.machine()));
    REQUIRE(watched.boot_report().size() == plain.boot_report().size());
    for (std::size_t i = 0; i < plain.boot_report().size(); ++i) {
        CHECK(watched.boot_report()[i].pages == plain.boot_report()[i].pages);
        CHECK(watched.boot_report()[i].modelled_ms == plain.boot_report()[i].modelled_ms);
    }
    CHECK(watched.timeline().workload_start_ns == plain.timeline().workload_start_ns);
    watched.run_for(2'000'000);
    plain.run_for(2'000'000);
    CHECK(mm::state_digest(watched.machine()) == mm::state_digest(plain.machine()));
}

namespace
{

using seen_snapshots
    = std::vector<std::pair<std::chrono::steady_clock::time_point, std::shared_ptr<const sim::snapshot>>>;

// Every snapshot an engine thread publishes (with the wall time it came), from its start until it runs.
seen_snapshots watch_boot(double speed)
{
    test::engine_thread_options o;
    o.publish_hz = 100;
    o.speed = speed;
    o.boot_min_wall = 400ms;
    o.boot_max_wall = 4000ms;
    test::loop_params p;
    p.gap_ns = 20'000;
    o.make_load = test::loop_factory(p);
    std::mutex mu;
    seen_snapshots seen;
    o.on_publish = [&](const std::shared_ptr<const sim::snapshot>& s) {
        std::lock_guard lk(mu);
        seen.emplace_back(std::chrono::steady_clock::now(), s);
    };
    test::engine_thread t(test::small_config(2, 2, 2, "v5.4"), o);
    REQUIRE(t.wait_for([](const sim::snapshot& s) { return s.state == sim::run_state::running; }, 20s));
    t.stop();
    std::lock_guard lk(mu);
    return seen;
}

} // namespace

TEST_CASE("with a speed set, the boot is played on the virtual time axis before the workload starts", "[boot]")
{
    const seen_snapshots seen = watch_boot(1e9);
    auto first_running = std::find_if(
        seen.begin(), seen.end(), [](const auto& p) { return p.second->state != sim::run_state::booting; });
    REQUIRE(first_running != seen.end());
    REQUIRE(first_running != seen.begin());
    // v5.4: one init thread per node, so the boot is shown for the whole min_wall (a one-thread boot).
    CHECK(first_running->first - seen.front().first >= 350ms);

    const sim::boot_times& boot = first_running->second->boot;
    REQUIRE(boot.deferred_init_start_ns > 0); // the early part takes virtual time
    REQUIRE(boot.init_end_ns > boot.deferred_init_start_ns);
    CHECK(boot.workload_start_ns == boot.init_end_ns);
    int between = 0, in_init = 0;
    std::vector<unsigned long> last(2, 0);
    sim::vtime_ns last_t = 0;
    bool monotonic = true, bounded = true, paced = true, before_start = true, time_moves = true;
    std::vector<sim::sim_event> events;
    for (auto it = seen.begin(); it != first_running; ++it) {
        const sim::snapshot& s = *it->second;
        CHECK(s.state == sim::run_state::booting);
        events.insert(events.end(), s.events.begin(), s.events.end());
        time_moves = time_moves && s.sim_time_ns >= last_t;
        last_t = s.sim_time_ns;
        if (it == seen.begin()) continue; // published before the boot started
        before_start = before_start && s.sim_time_ns < boot.workload_start_ns;
        if (s.sim_time_ns > boot.deferred_init_start_ns && s.sim_time_ns < boot.init_end_ns) ++in_init;
        REQUIRE(s.deferred_init.size() == 2);
        CHECK(s.run.boot_speed > 0);
        for (const auto& d : s.deferred_init) {
            paced = paced && d.paced;
            bounded = bounded && d.done <= d.host_done && d.done <= d.total && d.modelled_elapsed_ms <= d.modelled_ms;
            monotonic = monotonic && d.done >= last[static_cast<std::size_t>(d.node)];
            last[static_cast<std::size_t>(d.node)] = d.done;
            if (d.done > 0 && d.done < d.total) ++between;
        }
        // The zones as deferred init leaves them so far: managed pages climb with the node's progress.
        if (!s.zones.empty()) CHECK(s.zone_index(1, mm::ZONE_NORMAL) >= 0);
    }
    CHECK(time_moves);
    CHECK(before_start);
    CHECK(in_init >= 6); // virtual time seen passing through deferred init over several frames
    CHECK(paced);
    CHECK(bounded);
    CHECK(monotonic);
    CHECK(between >= 6); // seen climbing over several frames, not jumping from 0 to done
    // The first snapshot of the run: every node finished, its init ended at its own modelled instant, and the
    // limits recomputed at the end of deferred init (seed 000 is on by default on v5.4), not at t = 0.
    const sim::snapshot& run = *first_running->second;
    events.insert(events.end(), run.events.begin(), run.events.end());
    CHECK(run.sim_time_ns >= boot.workload_start_ns);
    // Published at the workloads' start itself, with the limits zone_pcp_update set at init's end, so that the
    // views draw the step there and not at the next snapshot tens of milliseconds later.
    CHECK(run.boundary_ns == boot.workload_start_ns);
    const int normal = run.zone_index(1, mm::ZONE_NORMAL);
    REQUIRE(normal >= 0);
    const int setup_batch = first_running[-1].second->zones[static_cast<std::size_t>(normal)].batch;
    CHECK(run.zones[static_cast<std::size_t>(normal)].batch > setup_batch);
    for (const auto& d : run.deferred_init) {
        CHECK(d.finished);
        CHECK(d.done == d.total);
        CHECK(d.done_at_ns > boot.deferred_init_start_ns);
        CHECK(d.done_at_ns <= boot.init_end_ns);
    }
    int setup = 0, recomputed = 0, nodes_done = 0;
    for (const auto& e : events) {
        if (e.kind == sim::event_kind::limits_change && e.t == boot.deferred_init_start_ns) ++setup;
        if (e.kind == sim::event_kind::limits_change && e.t == boot.init_end_ns) ++recomputed;
        if (e.kind == sim::event_kind::deferred_init_done) {
            ++nodes_done;
            CHECK(e.t > boot.deferred_init_start_ns);
        }
        CHECK(e.t > 0);
    }
    CHECK(setup > 0); // setup_per_cpu_pageset at the end of the early part
    CHECK(recomputed > 0); // zone_pcp_update once every node is done
    CHECK(nodes_done == 2);
}

TEST_CASE("at full speed the boot follows the init threads and is not held back", "[boot]")
{
    for (const auto& [when, s] : watch_boot(0)) {
        CHECK(s->run.boot_speed == 0);
        for (const auto& d : s->deferred_init) {
            CHECK_FALSE(d.paced);
            CHECK(d.done <= d.host_done);
        }
    }
}
