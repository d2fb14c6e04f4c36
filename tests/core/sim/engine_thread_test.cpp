#include "core/sim/engine_test_support.hpp"
#include "support/engine_thread.hpp"

#include <catch2/catch.hpp>

#include <dirent.h>
#include <fstream>
#include <mutex>
#include <thread>

using namespace pcplab;
using namespace std::chrono_literals;

namespace
{

constexpr sim::vtime_ns quantum = 50'000;

// One node, two CPUs, 1 GiB, v6.7: every CPU allocates 64 pages, frees them, computes 20 us, forever.
sim::engine_config cfg_small()
{
    return test::small_config(1, 2, 1, "v6.7");
}

test::engine_thread_options opts(bool paused = false)
{
    test::engine_thread_options o;
    o.publish_hz = 100;
    o.quantum_ns = quantum;
    o.start_paused = paused;
    test::loop_params p;
    p.gap_ns = 20'000;
    o.make_load = test::loop_factory(p);
    return o;
}

// Every snapshot the engine publishes, seen from its own thread (so nothing is missed).
struct collector {
    std::mutex mu;
    std::vector<sim::command_result> results;
    std::vector<sim::run_state> states;
    std::vector<std::vector<sim::deferred_progress>> progress;
    void attach(test::engine_thread_options& o)
    {
        o.on_publish = [this](const std::shared_ptr<const sim::snapshot>& s) {
            std::lock_guard lk(mu);
            results.insert(results.end(), s->commands.begin(), s->commands.end());
            states.push_back(s->state);
            progress.push_back(s->deferred_init);
        };
    }
    std::vector<sim::command_result> results_copy()
    {
        std::lock_guard lk(mu);
        return results;
    }
};

std::shared_ptr<const sim::snapshot> wait_state(const test::engine_thread& t, sim::run_state st)
{
    auto s = t.wait_for([st](const sim::snapshot& x) { return x.state == st; }, 20s);
    REQUIRE(s);
    return s;
}

int thread_count()
{
    int n = 0;
    if (DIR* d = opendir("/proc/self/task")) {
        while (dirent* e = readdir(d))
            if (e->d_name[0] != '.') ++n;
        closedir(d);
    }
    return n;
}

long rss_kib()
{
    std::ifstream f("/proc/self/statm");
    long pages = 0, resident = 0;
    f >> pages >> resident;
    return resident * 4;
}

// A switch the era lets one flip both ways and whose flip is visible right away.
mm::patch flippable(const sim::engine_config& c)
{
    for (auto p : {mm::patch::batched_bulk_free, mm::patch::pcp_high_autotune, mm::patch::bulk_free_pick_outside_lock})
        if (mm::patch_not_applicable(p, !c.patches[p], c.era).empty()) return p;
    FAIL("no switch can be flipped on " << c.era.str());
    return mm::patch::batched_bulk_free;
}

} // namespace

TEST_CASE("an engine thread publishes snapshots while it runs, booting first", "[engine_thread]")
{
    auto o = opts();
    collector col;
    col.attach(o);
    test::engine_thread t(cfg_small(), o);
    auto first = t.wait_for([](const sim::snapshot& s) { return s.state == sim::run_state::running; }, 20s);
    REQUIRE(first);
    auto later = t.wait_for([&](const sim::snapshot& s) { return s.seq >= first->seq + 5; }, 20s);
    REQUIRE(later);
    CHECK(later->sim_time_ns > first->sim_time_ns);
    CHECK(later->events_processed > first->events_processed);
    // Whole quanta from the workload's start (virtual time counts from power-on; the boot comes first).
    CHECK(later->boundary_ns > later->boot.workload_start_ns);
    CHECK((later->boundary_ns - later->boot.workload_start_ns) % quantum == 0);
    CHECK(later->sim_time_ns >= later->boundary_ns);
    REQUIRE(!later->zones.empty());
    CHECK(later->pcp.size() == later->zones.size() * static_cast<std::size_t>(later->nr_cpus));
    CHECK(later->totals.allocs > 0);
    CHECK(later->run.events_per_s > 0);
    t.stop();
    CHECK(t.latest()->state == sim::run_state::stopped);

    // The first snapshot showed the boot; once booted, every node's deferred init is reported done.
    std::lock_guard lk(col.mu);
    REQUIRE(!col.states.empty());
    CHECK(col.states.front() == sim::run_state::booting);
    REQUIRE(!col.progress.back().empty());
    for (const auto& d : col.progress.back()) {
        CHECK(d.finished);
        CHECK(d.done == d.total);
    }
}

TEST_CASE("pause stops virtual time, resume starts it again", "[engine_thread]")
{
    test::engine_thread t(cfg_small(), opts());
    wait_state(t, sim::run_state::running);
    auto paused = t.wait_for_command(t.pause(), 20s);
    REQUIRE(paused);
    REQUIRE(paused->state == sim::run_state::paused);
    std::this_thread::sleep_for(200ms);
    auto still = t.latest();
    CHECK(still->sim_time_ns == paused->sim_time_ns);
    CHECK(still->events_processed == paused->events_processed);

    t.resume();
    auto moving = t.wait_for([&](const sim::snapshot& s) { return s.sim_time_ns > paused->sim_time_ns; }, 20s);
    REQUIRE(moving);
    CHECK(moving->state == sim::run_state::running);
}

TEST_CASE("step_quantum advances by exactly one quantum, step by exactly one action", "[engine_thread]")
{
    test::engine_thread t(cfg_small(), opts(true));
    // Paused where the workload starts, after the boot (virtual time counts from power-on).
    auto s0 = wait_state(t, sim::run_state::paused);
    REQUIRE(s0->boot.workload_start_ns > 0);
    CHECK(s0->boundary_ns == s0->boot.workload_start_ns);
    CHECK(s0->events_processed == 0);
    const sim::vtime_ns start = s0->boundary_ns;
    auto s1 = t.wait_for_command(t.step_quantum(), 20s);
    REQUIRE(s1);
    CHECK(s1->boundary_ns == start + quantum);
    CHECK(s1->sim_time_ns >= start + quantum);
    CHECK(s1->state == sim::run_state::paused);
    auto s2 = t.wait_for_command(t.step_quantum(), 20s);
    REQUIRE(s2);
    CHECK(s2->boundary_ns == start + 2 * quantum);
    CHECK(s2->events_processed > s1->events_processed);

    auto s3 = t.wait_for_command(t.step(), 20s);
    REQUIRE(s3);
    CHECK(s3->events_processed == s2->events_processed + 1);
    CHECK(s3->boundary_ns == s2->boundary_ns);
}

TEST_CASE("a switch flipped from another thread shows in the next snapshots", "[engine_thread]")
{
    auto cfg = cfg_small();
    const mm::patch p = flippable(cfg);
    const bool was = cfg.patches[p];
    auto o = opts();
    collector col;
    col.attach(o);
    test::engine_thread t(cfg, o);
    wait_state(t, sim::run_state::running);
    std::uint64_t id = 0;
    std::thread ui([&] { id = t.set_patch(p, !was); });
    ui.join();
    auto s = t.wait_for_command(id, 20s);
    REQUIRE(s);
    CHECK(s->patches[p] == !was);
    CHECK(s->state == sim::run_state::running);
    bool seen = false;
    for (const auto& r : col.results_copy())
        if (r.id == id) {
            seen = true;
            CHECK(r.ok);
            CHECK(r.kind == sim::command_kind::set_patch);
        }
    CHECK(seen);
}

TEST_CASE(
    "a switch its era has no use for is set, and the command's result carries the engine's reason", "[engine_thread]")
{
    auto cfg = test::small_config(1, 2, 1, "v5.4"); // pcp->high auto-tuning came with v6.7
    const mm::patch p = mm::patch::pcp_high_autotune;
    REQUIRE_FALSE(cfg.patches[p]);
    const std::string why = mm::patch_not_applicable(p, true, cfg.era);
    REQUIRE_FALSE(why.empty());
    const mm::patch acts = flippable(cfg);
    auto o = opts();
    collector col;
    col.attach(o);
    test::engine_thread t(cfg, o);
    wait_state(t, sim::run_state::running);
    const auto id = t.set_patch(p, true);
    const auto id_acts = t.set_patch(acts, !cfg.patches[acts]);
    auto s = t.wait_for_command(id_acts, 20s);
    REQUIRE(s);
    CHECK(s->patches[p]); // set all the same, as the kernel's command line would be
    int seen = 0;
    for (const auto& r : col.results_copy()) {
        if (r.id == id) {
            ++seen;
            CHECK(r.ok);
            CHECK(r.kind == sim::command_kind::set_patch);
            CHECK(r.message == why);
        }
        if (r.id == id_acts) {
            ++seen;
            CHECK(r.ok);
            CHECK(r.message.empty()); // a flip that acts has nothing to explain
        }
    }
    CHECK(seen == 2);
}

TEST_CASE("bad commands are refused with a reason and the run goes on", "[engine_thread]")
{
    auto o = opts();
    collector col;
    col.attach(o);
    test::engine_thread t(cfg_small(), o);
    wait_state(t, sim::run_state::running);
    // Names are parsed at the edges (CLI flags, lesson files), so an unknown switch or sysctl never becomes a
    // command; the engine refuses what a typed command can still get wrong.
    CHECK_FALSE(mm::patch_from_name("no-such-switch"));
    CHECK_FALSE(mm::vm_sysctl_from_name("vm.no_such_sysctl"));
    const auto a = t.post(sim::make_set_quantum(0));
    const auto b = t.set_workload("no-such-workload");
    const auto c = t.set_sysctl(mm::vm_sysctl::percpu_pagelist_fraction, 3); // below the handler's minimum of 8
    auto d = sim::make_set_intensity(0.5);
    d.target = sim::command_target::b; // a single engine has no B side
    const auto e = t.post(d);
    auto s = t.wait_for_command(e, 20s);
    REQUIRE(s);
    CHECK(s->state == sim::run_state::running);
    int refused = 0;
    for (const auto& r : col.results_copy())
        if (r.id == a || r.id == b || r.id == c || r.id == e) {
            CHECK_FALSE(r.ok);
            CHECK_FALSE(r.message.empty());
            ++refused;
        }
    CHECK(refused == 4);
}

TEST_CASE("a finite workload ends in the finished state and a step there does nothing", "[engine_thread]")
{
    auto o = opts();
    test::loop_params p;
    p.rounds = 3;
    o.make_load = test::loop_factory(p);
    test::engine_thread t(cfg_small(), o);
    auto done = wait_state(t, sim::run_state::finished);
    CHECK(done->totals.allocs == 3 * 64 * 2); // three rounds of 64 pages on each of the two CPUs
    CHECK(done->sim_time_ns >= done->boundary_ns);
    auto stepped = t.wait_for_command(t.step_quantum(), 20s);
    REQUIRE(stepped);
    CHECK(stepped->state == sim::run_state::finished);
    CHECK(stepped->boundary_ns == done->boundary_ns);
    CHECK(stepped->events_processed == done->events_processed);
}

TEST_CASE("reboot restarts at virtual time zero and keeps the switches set live", "[engine_thread]")
{
    auto cfg = cfg_small();
    const mm::patch p = flippable(cfg);
    const bool was = cfg.patches[p];
    test::engine_thread t(cfg, opts());
    wait_state(t, sim::run_state::running);
    t.set_patch(p, !was);
    auto before = t.wait_for([](const sim::snapshot& s) { return s.sim_time_ns > 2 * quantum; }, 20s);
    REQUIRE(before);
    t.reboot();
    auto after = t.wait_for(
        [](const sim::snapshot& s) { return s.run.generation == 2 && s.state == sim::run_state::running; }, 20s);
    REQUIRE(after);
    CHECK(after->patches[p] == !was);
    t.pause();
    auto fresh = t.wait_for([](const sim::snapshot& s) { return s.state == sim::run_state::paused; }, 20s);
    REQUIRE(fresh);
    CHECK(fresh->seq > before->seq); // one source: sequence numbers go on across reboots
}

TEST_CASE("an engine that cannot be built shows as failed until a good configuration reboots it", "[engine_thread]")
{
    auto bad = cfg_small();
    bad.cpus = {99}; // no such CPU: the engine refuses the configuration
    test::engine_thread t(bad, opts());
    auto failed = wait_state(t, sim::run_state::failed);
    CHECK_FALSE(failed->error.empty());
    t.reboot(cfg_small());
    auto ok = wait_state(t, sim::run_state::running);
    CHECK(ok->error.empty());
    CHECK(ok->run.generation == 2);
}

TEST_CASE("stop and the destructor join the engine thread and free the engine", "[engine_thread]")
{
    // One engine thread first: a runtime may start helper threads of its own on first use (ThreadSanitizer's
    // background thread), which are not the engine's.
    {
        test::engine_thread warm(cfg_small(), opts(false));
    }
    const int threads_before = thread_count();
    long rss_after_warmup = 0;
    for (int i = 0; i < 12; ++i) {
        test::engine_thread t(cfg_small(), opts(i % 3 == 1));
        if (i % 3 == 2) wait_state(t, sim::run_state::running);
        if (i % 2) t.stop(); // an explicit stop, then the destructor (idempotent)
        if (i == 3) rss_after_warmup = rss_kib();
    }
    CHECK(thread_count() == threads_before);
    // One machine of 1 GiB is 3 MiB of memmap plus pagesets; a leak per engine would add up over 8 rounds.
    CHECK(rss_kib() - rss_after_warmup < 16 * 1024);
}

TEST_CASE("many rapid commands from two threads neither deadlock nor get lost", "[engine_thread]")
{
    auto o = opts();
    collector col;
    col.attach(o);
    test::engine_thread t(cfg_small(), o);
    wait_state(t, sim::run_state::running);
    const mm::patch p = flippable(cfg_small());
    constexpr int per_thread = 1500;
    std::atomic<std::uint64_t> max_id{0};
    auto hammer = [&](int seed) {
        for (int i = 0; i < per_thread; ++i) {
            std::uint64_t id = 0;
            switch ((i + seed) % 6) {
            case 0:
                id = t.pause();
                break;
            case 1:
                id = t.resume();
                break;
            case 2:
                id = t.set_patch(p, (i / 6) % 2 == 0);
                break;
            case 3:
                id = t.set_intensity(0.5 + (i % 3) * 0.25);
                break;
            case 4:
                id = t.set_speed(i % 2 ? 0 : 5e7);
                break;
            case 5:
                id = t.step_quantum();
                break;
            }
            std::uint64_t m = max_id.load();
            while (id > m && !max_id.compare_exchange_weak(m, id)) { }
            if (i % 50 == 0) (void)t.latest(); // readers interleaved
        }
    };
    std::thread a(hammer, 0), b(hammer, 3);
    a.join();
    b.join();
    auto s = t.wait_for_command(max_id.load(), 60s);
    REQUIRE(s);
    t.stop();
    auto results = col.results_copy();
    CHECK(results.size() == 2 * per_thread);
    std::vector<bool> seen(2 * per_thread + 1);
    for (const auto& r : results) {
        REQUIRE(r.id <= 2 * per_thread);
        CHECK_FALSE(seen[r.id]);
        seen[r.id] = true;
    }
}

TEST_CASE("a reader holding a snapshot does not hold up the engine", "[engine_thread]")
{
    test::engine_thread t(cfg_small(), opts());
    auto held = t.wait_for([](const sim::snapshot& s) { return s.state == sim::run_state::running; }, 20s);
    REQUIRE(held);
    const auto seq = held->seq;
    const auto time = held->sim_time_ns;
    const auto allocs = held->totals.allocs;
    std::this_thread::sleep_for(400ms); // a slow view, still holding `held`
    auto now = t.latest();
    CHECK(now->seq >= seq + 5); // 100 Hz for 400 ms: ~40 published meanwhile
    CHECK(now->sim_time_ns > time);
    // The held snapshot is untouched.
    CHECK(held->seq == seq);
    CHECK(held->sim_time_ns == time);
    CHECK(held->totals.allocs == allocs);
}

TEST_CASE("commands timed in virtual time give the same run whatever the pacing", "[engine_thread]")
{
    auto cfg = cfg_small();
    const mm::patch p = flippable(cfg);
    const bool was = cfg.patches[p];
    constexpr sim::vtime_ns flip_at = 1'000'000, stop_at = 3'000'000;
    auto run = [&](double speed, double hz) {
        auto o = opts(true);
        o.speed = speed;
        o.publish_hz = hz;
        o.snapshots.state_digest = true;
        auto t = std::make_unique<test::engine_thread>(cfg, o);
        // Timed commands are at instants of virtual time since power-on: here, after the workload's start.
        const sim::vtime_ns start = wait_state(*t, sim::run_state::paused)->boot.workload_start_ns;
        auto flip = sim::make_set_patch(p, !was);
        flip.at = start + flip_at;
        auto pause = sim::make_pause();
        pause.at = start + stop_at;
        t->post(flip);
        t->post(pause);
        t->resume();
        auto s = t->wait_for(
            [&](const sim::snapshot& x) {
                return x.state == sim::run_state::paused && x.boundary_ns >= start + stop_at;
            },
            60s);
        REQUIRE(s);
        return s;
    };
    auto fast = run(0, 100); // as fast as possible
    auto paced = run(20e6, 7); // 20 ms of virtual time per wall second, published at 7 Hz
    CHECK(fast->boundary_ns == fast->boot.workload_start_ns + stop_at);
    CHECK(paced->boundary_ns == paced->boot.workload_start_ns + stop_at);
    CHECK(fast->patches[p] == !was);
    REQUIRE(fast->state_digest);
    CHECK(*fast->state_digest == *paced->state_digest);
    CHECK(fast->events_processed == paced->events_processed);
    CHECK(fast->sim_time_ns == paced->sim_time_ns);
    CHECK(fast->totals.allocs == paced->totals.allocs);
}
