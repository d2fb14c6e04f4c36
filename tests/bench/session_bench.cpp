// Recording overhead: engine throughput (engine events per second of the engine thread's CPU time, and per wall
// second) of the same run without and with a recording, in both ways a run is recorded:
//   cli   `pcplab-cli run --record`: the caller steps the engine, snapshots every duration/200 of virtual time,
//         every event kept and the lock holds of the variant's rule (all, none, or the default `zone`, which
//         leaves out the plain pcp->lock holds in the engine too), the writer on its own thread;
//   live  an engine_thread at full speed with the recorder on on_publish (the GUI's way); the window's engine
//         keeps the holds its lanes view draws whether it records or not, so both live variants do.
// A recording's setup (opening the file, its schema, the run header) is a fixed cost per recording, shown apart
// from the throughput during the run.
// The engine thread's CPU time is the figure that holds on a loaded host (the writer runs on another core);
// the wall figure also counts waiting for the writer, which a host with a spare core does not.
// Variants run alternately, `reps` rounds; shown are the best of each (noise mostly adds time) and the median
// over the rounds of each variant's throughput over plain's in the same round (robust to a host that drifts).
// Then the same recorded variants again, each interleaved with a plain run in one thread (interleaved_run):
// the figure that holds on a shared host, with a plain control run in the same rounds; the cost against that
// control, round by round, corrects for the bias the control shows.
//   build/tests/bench/pcplab_session_bench [PRESET [WORKLOAD [DURATION_MS [REPS [interleaved|separate]]]]]
// ("interleaved" or "separate": only those. Two engines of a machine with gigabytes of memmap, meta-1t-316, do
// not run alike in one process: one of two plain engines read 60% faster than the other there, so the separate
// runs are the measure on that machine)
// Also compiled into pcplab_bench (without this main) as bench_session().
#include "support/recorded_engine_thread.hpp"

#include "session/engine_sampler.hpp"
#include "session/recorder.hpp"
#include "session/recording_reader.hpp"

#include "sim/engine.hpp"
#include "sim/host_malloc.hpp"
#include "sim/machine_config.hpp"
#include "sim/preset.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <optional>
#include <string>
#include <unistd.h>
#include <variant>
#include <vector>

using namespace pcplab;

namespace
{

double wall_s()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// CPU time of the calling thread: what the engine's own thread spends, whatever else the host runs (a loaded
// host inflates wall times, not this).
double thread_cpu_s()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

sim::engine_config config_for(const std::string& preset, const std::string& workload)
{
    auto spec = sim::load_preset(preset);
    if (auto* e = std::get_if<pcplab::error>(&spec)) {
        std::fprintf(stderr, "%s\n", e->str().c_str());
        std::exit(1);
    }
    auto mc = sim::make_machine_config(std::get<mm::machine_spec>(spec), {});
    if (auto* e = std::get_if<pcplab::error>(&mc)) {
        std::fprintf(stderr, "%s\n", e->str().c_str());
        std::exit(1);
    }
    sim::engine_config cfg = sim::engine_config_for(std::get<sim::machine_config>(mc));
    cfg.workload = workload;
    return cfg;
}

// In $TMPDIR (default /tmp): where the recordings go decides what their writes cost (a disk or a tmpfs).
std::string scratch(const char* name)
{
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/pcplab-session-bench-" + std::to_string(::getpid()) + "-" + name
        + ".db";
}

void remove_db(const std::string& p)
{
    for (const char* s : {"", "-wal", "-shm"}) std::remove((p + s).c_str());
}

struct timing {
    double wall = 0; // the run, the recording's close (waiting for its writer) included
    double engine_cpu = 0; // CPU time of the engine's thread during the run (the recording's setup excluded)
    double setup_cpu = 0; // opening the recording, its schema and the run header: once per recording
    std::uint64_t events = 0;
    std::uint64_t snapshots = 0, holds = 0;
    double eps_cpu() const { return engine_cpu > 0 ? static_cast<double>(events) / engine_cpu : 0; }
    double eps_wall() const { return wall > 0 ? static_cast<double>(events) / wall : 0; }
};

// recorded: every hold (rule `all`); recorded_default: the rule `run --record` uses unless told (hold_rule::
// recording_default, `zone`), the engine leaving out the plain pcp->lock holds as cmd_record_run.cpp has it.
enum class cli_mode { plain, keep_holds, recorded, recorded_no_holds, recorded_default };

// Runs `e` to `dur`, calling `at_step` at each multiple of `step` before it (a recording's snapshot instants).
template <typename F> void run_in_steps(sim::engine& e, sim::vtime_ns dur, sim::vtime_ns step, F at_step)
{
    for (sim::vtime_ns at = step; at < dur; at += step) {
        e.run_until(e.workload_start() + at);
        at_step();
    }
    e.run_until(e.workload_start() + dur);
}

// Lock holds a recording kept, over all its runs (read back from the file).
std::uint64_t holds_written(const std::string& path)
{
    std::uint64_t n = 0;
    for (const auto& run : session::recording(path).runs()) n += run.holds_written;
    return n;
}

// What a variant switches on: the engine's logs, the sampling (a snapshot every duration/200, as
// cmd_record_run.cpp) and the recorder's hold rule.
struct cli_setup {
    sim::engine_config cfg;
    session::sampler_options sampling;
    session::recorder_options recording;
    bool records = false;
};

cli_setup setup_for(sim::engine_config cfg, sim::vtime_ns dur, cli_mode mode)
{
    cli_setup c;
    c.records = mode == cli_mode::recorded || mode == cli_mode::recorded_no_holds || mode == cli_mode::recorded_default;
    c.sampling.interval_ns = std::max<sim::vtime_ns>(50'000, dur / 200);
    c.recording.wait_when_full = true;
    if (mode == cli_mode::recorded_no_holds) c.recording.holds = *session::hold_rule::parse("none");
    if (mode == cli_mode::recorded_default) c.recording.holds = session::hold_rule::recording_default();
    cfg.keep_events = c.records;
    cfg.keep_holds = mode == cli_mode::keep_holds || (c.records && c.recording.holds.engine_must_keep_holds());
    cfg.keep_plain_pcp_holds = c.recording.holds.engine_must_keep_plain_pcp_holds(); // keep_holds: rule `all`
    c.cfg = cfg;
    return c;
}

// The median of `v` (0 when empty).
double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : (v[(v.size() - 1) / 2] + v[v.size() / 2]) / 2;
}

// The engine as `pcplab-cli run` drives it, or as `run --record` does (cmd_record_run.cpp), or with only the
// engine's hold log on and released at each snapshot instant (what keeping holds costs the engine by itself).
// Boot is not timed: it is the same.
timing cli_run(sim::engine_config cfg, sim::vtime_ns dur, const std::string& path, cli_mode mode)
{
    remove_db(path);
    const cli_setup su = setup_for(cfg, dur, mode);
    const bool record = su.records;
    cfg = su.cfg;
    const session::sampler_options& so = su.sampling;
    const session::recorder_options& ro = su.recording;
    sim::engine e(cfg);
    e.boot();
    timing t;
    const double w0 = wall_s(), c0 = thread_cpu_s();
    if (!record) {
        // keep_holds releases the log at the recording's snapshot instants, as a reader would: a log nothing
        // drains grows by tens of MiB over the run, which no real run does.
        if (mode == cli_mode::plain)
            e.run_until(e.workload_start() + dur);
        else
            run_in_steps(e, dur, so.interval_ns, [&] { e.release_holds(e.holds_released() + e.holds().size()); });
        t.engine_cpu = thread_cpu_s() - c0;
    } else {
        session::recorder rec(path, ro);
        rec.begin_run(session::run_header_for(cfg, "bench"));
        t.setup_cpu = thread_cpu_s() - c0;
        session::engine_sampler smp(e, rec, so);
        smp.sample(sim::run_state::running);
        run_in_steps(e, dur, so.interval_ns, [&] { smp.sample(sim::run_state::running); });
        smp.sample(sim::run_state::stopped, true);
        t.engine_cpu = thread_cpu_s() - c0 - t.setup_cpu;
        rec.end_run("duration", "");
        rec.close(); // the recording is complete only once everything is written: part of the wall time
        t.snapshots = smp.taken();
    }
    t.wall = wall_s() - w0;
    t.events = e.events_processed();
    if (record) t.holds = holds_written(path);
    remove_db(path);
    return t;
}

// An engine thread at full speed until virtual time `dur`, with or without a recorder on on_publish. The engine
// thread's CPU time is read on that thread (on_publish runs there).
timing live_run(const sim::engine_config& cfg, sim::vtime_ns dur, const std::string& path, bool record)
{
    remove_db(path);
    test::engine_thread_options o;
    std::unique_ptr<session::recorder> rec;
    sim::engine_config c = cfg;
    // As the window's engine (run_setup.cpp): it keeps the holds the lanes view draws, recorded or not, and
    // records them with the default rule (recording_tap.cpp).
    session::recorder_options ro;
    ro.holds = session::hold_rule::recording_default();
    c.keep_holds = true;
    c.keep_plain_pcp_holds = ro.holds.engine_must_keep_plain_pcp_holds();
    if (record) {
        rec = std::make_unique<session::recorder>(path, ro);
        test::record_into(*rec, o);
    }
    // The run ends at `dur`, or earlier where the workload finishes first.
    const auto ended
        = [dur](const sim::snapshot& s) { return s.sim_time_ns >= dur || s.state == sim::run_state::finished; };
    std::mutex mu;
    double cpu0 = -1, cpu1 = -1, wall0 = 0, wall1 = 0;
    std::uint64_t ev0 = 0, ev1 = 0;
    auto previous = o.on_publish;
    o.on_publish = [&](const std::shared_ptr<const sim::snapshot>& s) {
        if (previous) previous(s);
        std::lock_guard lk(mu);
        if (s->state == sim::run_state::running && cpu0 < 0) {
            cpu0 = thread_cpu_s();
            wall0 = wall_s();
            ev0 = s->events_processed;
        }
        if (ended(*s) && cpu1 < 0 && cpu0 >= 0) {
            cpu1 = thread_cpu_s();
            wall1 = wall_s();
            ev1 = s->events_processed;
        }
    };
    test::engine_thread t(c, o);
    t.wait_for(ended, std::chrono::minutes(10));
    t.stop();
    timing r;
    {
        std::lock_guard lk(mu);
        r.wall = wall1 - wall0;
        r.engine_cpu = cpu1 - cpu0;
        r.events = ev1 - ev0;
    }
    if (rec) {
        rec->close();
        r.snapshots = rec->written();
        if (rec->dropped())
            std::printf("    (live recorder dropped %llu snapshots)\n", (unsigned long long)rec->dropped());
        r.holds = holds_written(path);
    }
    remove_db(path);
    return r;
}

// Every run of each variant, round by round (a round runs each variant once, one after another).
struct rounds {
    std::vector<std::vector<timing>> runs; // [variant][round]
    // The fastest run of variant v by engine CPU (noise mostly adds time).
    const timing& best(std::size_t v) const
    {
        return *std::max_element(
            runs[v].begin(), runs[v].end(), [](const timing& x, const timing& y) { return x.eps_cpu() < y.eps_cpu(); });
    }
    // The median over the rounds of variant v's throughput over variant 0's in the same round: a host whose
    // speed drifts (a shared VM) moves both runs of a round alike.
    double median_ratio(std::size_t v) const
    {
        std::vector<double> r;
        for (std::size_t i = 0; i < runs[v].size(); ++i) r.push_back(runs[v][i].eps_cpu() / runs[0][i].eps_cpu());
        return median(std::move(r));
    }
};

template <typename F> rounds run_rounds(int reps, int variants, F run)
{
    rounds r;
    r.runs.resize(static_cast<std::size_t>(variants));
    for (int i = 0; i < reps; ++i)
        for (int v = 0; v < variants; ++v) r.runs[static_cast<std::size_t>(v)].push_back(run(v));
    return r;
}

void print(const char* what, const rounds& r, std::size_t v)
{
    const timing& t = r.best(v);
    const timing& base = r.best(0);
    std::printf("  %-28s best: %6.2f M events/cpu-s  %6.1f%% of plain (wall %5.1f%%)  median of rounds %6.1f%%", what,
        t.eps_cpu() / 1e6, 100 * t.eps_cpu() / base.eps_cpu(), 100 * t.eps_wall() / base.eps_wall(),
        100 * r.median_ratio(v));
    if (t.snapshots)
        std::printf("  %llu snapshots, %llu holds", (unsigned long long)t.snapshots, (unsigned long long)t.holds);
    if (t.setup_cpu > 0) std::printf(", setup %.1f ms", t.setup_cpu * 1e3);
    std::printf("\n");
}

double process_cpu_s()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// What the interleaved measurement found: the two engines' CPU times and events, and the writer's CPU time
// while the recorded engine ran and outside (while the bench waited for it, or beside the plain engine).
struct interleaved_timing {
    double plain_cpu = 0, recorded_cpu = 0, writer_during = 0, writer_outside = 0;
    double sampling_cpu = 0; // the recorded engine's thread building and handing over snapshots (in recorded_cpu)
    std::uint64_t plain_events = 0, recorded_events = 0;
    double ratio() const
    {
        return (static_cast<double>(recorded_events) / recorded_cpu) / (static_cast<double>(plain_events) / plain_cpu);
    }
    // The same without the sampling: how fast the recorded engine itself stepped.
    double stepping_ratio() const
    {
        return (static_cast<double>(recorded_events) / (recorded_cpu - sampling_cpu))
            / (static_cast<double>(plain_events) / plain_cpu);
    }
    double writer_outside_share() const { return writer_outside / (writer_during + writer_outside); }
};

// `run` and `run --record` with every hold (cmd_record_run's way, as cli_run) of the same machine, both in this
// thread, taking turns every `slice` of virtual time; each slice's CPU time goes to its engine. Runs seconds
// apart see a shared host at different speeds (the plain run alone varies by a third between invocations);
// slices a fraction of a second apart see it alike. The writer works on its own thread as in `run --record`;
// after each recorded slice the bench waits until it has written everything, so that no writer work runs beside
// the plain engine. The writer's work done during that wait then slows no engine: the figure is optimistic by
// that share of the writer's interference, which is printed (small when a slice holds many snapshots).
interleaved_timing interleaved_run(const sim::engine_config& cfg, sim::vtime_ns dur, sim::vtime_ns slice,
    const std::string& path, cli_mode mode, bool recorded_first)
{
    remove_db(path);
    const cli_setup su = setup_for(cfg, dur, mode);
    const sim::engine_config& rc = su.cfg;
    const session::sampler_options& so = su.sampling;
    session::recorder_options ro = su.recording;
    // Which engine is built first changes where each one's memory lands, and that alone moved a small machine's
    // throughput by up to 4% (the plain control); the runs alternate the order.
    std::optional<sim::engine> first_built, second_built;
    (recorded_first ? first_built : second_built).emplace(rc);
    (recorded_first ? second_built : first_built).emplace(cfg);
    sim::engine& plain = recorded_first ? *second_built : *first_built;
    sim::engine& recorded = recorded_first ? *first_built : *second_built;
    plain.boot();
    recorded.boot();
    interleaved_timing r;
    {
        session::recorder rec(path, ro);
        rec.begin_run(session::run_header_for(rc, "bench"));
        session::engine_sampler smp(recorded, rec, so);
        smp.sample(sim::run_state::running);
        sim::vtime_ns next_sample = so.interval_ns;
        auto recorded_slice = [&](sim::vtime_ns to) {
            const double c0 = thread_cpu_s(), p0 = process_cpu_s();
            for (; next_sample < to; next_sample += so.interval_ns) {
                recorded.run_until(recorded.workload_start() + next_sample);
                if (mode == cli_mode::keep_holds) // released at the snapshot instants, as cli_run does
                    recorded.release_holds(recorded.holds_released() + recorded.holds().size());
                else if (mode != cli_mode::plain) {
                    const double q0 = thread_cpu_s();
                    smp.sample(sim::run_state::running);
                    r.sampling_cpu += thread_cpu_s() - q0;
                }
            }
            recorded.run_until(recorded.workload_start() + to);
            const double c1 = thread_cpu_s(), p1 = process_cpu_s();
            r.recorded_cpu += c1 - c0;
            r.writer_during += (p1 - p0) - (c1 - c0);
            while (rec.written() < smp.taken()) ::usleep(200);
            r.writer_outside += (process_cpu_s() - p1) - (thread_cpu_s() - c1);
        };
        auto plain_slice = [&](sim::vtime_ns to) {
            const double c0 = thread_cpu_s(), p0 = process_cpu_s();
            plain.run_until(plain.workload_start() + to);
            const double c1 = thread_cpu_s();
            r.plain_cpu += c1 - c0;
            r.writer_outside += (process_cpu_s() - p0) - (c1 - c0);
        };
        int turn = 0;
        for (sim::vtime_ns at = 0; at < dur; ++turn) {
            at = std::min(dur, at + slice);
            if (turn % 2) { // alternate which goes first, so that neither always follows the other
                plain_slice(at);
                recorded_slice(at);
            } else {
                recorded_slice(at);
                plain_slice(at);
            }
        }
        smp.sample(sim::run_state::stopped, true);
        rec.end_run("duration", "");
        rec.close();
    }
    r.plain_events = plain.events_processed();
    r.recorded_events = recorded.events_processed();
    remove_db(path);
    return r;
}

void print_interleaved(const char* what, const std::vector<interleaved_timing>& runs, sim::vtime_ns slice)
{
    std::vector<double> ratios, outsides, writers, sampling;
    for (const auto& t : runs) {
        ratios.push_back(t.ratio());
        sampling.push_back(t.sampling_cpu / t.recorded_cpu);
        outsides.push_back(std::max(0.0, t.writer_outside_share()));
        writers.push_back(t.writer_during / t.recorded_cpu);
    }
    const double mid = median(ratios);
    std::printf("  %-28s median %6.1f%% of plain over %zu runs (each:", what, 100 * mid, runs.size());
    for (double r : ratios) std::printf(" %.1f", 100 * r);
    const auto& last = runs.back();
    // The bound: every bit of the cost taken as the writer's interference, scaled up by the share of the
    // writer's work that the waits kept away from the recorded engine (medians over the runs).
    const double outside = median(outsides), writer = median(writers);
    std::printf(")\n  %-28s", "");
    if (writer >= 0.01) // with next to no writer there is nothing to scale
        std::printf(" at worst %.1f%% (the writer did %.1f%% of its work in the waits);",
            100 * (1 - (1 - mid) / (1 - outside)), 100 * outside);
    std::printf(" slices of %.0f ms virtual; events %llu plain, %llu recorded; writer CPU %.0f%% of the recorded "
                "engine's\n",
        static_cast<double>(slice) / 1e6, (unsigned long long)last.plain_events,
        (unsigned long long)last.recorded_events, 100 * writer);
    // The part of the cost measured directly rather than as a difference of two noisy rates: the engine thread's
    // own time in sampling (building each snapshot, capturing the /proc numbers, queueing it for the writer). The
    // rest is the recorded engine stepping slower than the plain one (the engine's logs, caches the sampling
    // displaced, the writer beside it).
    if (const double own = median(sampling); own > 0) {
        std::vector<double> stepping;
        for (const auto& t : runs) stepping.push_back(t.stepping_ratio());
        std::printf("  %-28s sampling on the engine's thread: median %.2f%% of its CPU time; its stepping alone: "
                    "median %.1f%% of plain\n",
            "", 100 * own, 100 * median(stepping));
    }
}

// The cost against the control of the same rounds: round by round, the control's ratio minus the variant's
// (both engines of the control are plain, so what it shows besides 100% is the bench's own bias at that moment).
void print_against_control(
    const char* what, const std::vector<interleaved_timing>& runs, const std::vector<interleaved_timing>& control)
{
    std::vector<double> cost;
    for (std::size_t i = 0; i < runs.size() && i < control.size(); ++i)
        cost.push_back(control[i].ratio() - runs[i].ratio());
    double mean = 0;
    for (double c : cost) mean += c;
    mean /= static_cast<double>(cost.size());
    double var = 0;
    for (double c : cost) var += (c - mean) * (c - mean);
    const double sd = cost.size() > 1 ? std::sqrt(var / static_cast<double>(cost.size() - 1)) : 0;
    std::printf("  %-28s cost against the control, round by round: median %.1f%%, mean %.1f%% +- %.1f%% (95%%)\n", what,
        100 * median(cost), 100 * mean, 100 * 1.96 * sd / std::sqrt(static_cast<double>(cost.size())));
}

} // namespace

// which: "" both ways, "interleaved" or "separate" only that one.
void bench_session(
    const std::string& preset, const std::string& workload, double duration_ms, int reps, const std::string& which)
{
    const sim::engine_config cfg = config_for(preset, workload);
    const auto dur = static_cast<sim::vtime_ns>(duration_ms * 1e6);
    const std::string path = scratch("rec");
    std::printf("session: recording overhead, %s / %s, %.0f ms virtual, %d rounds\n", preset.c_str(), workload.c_str(),
        duration_ms, reps);
    if (which != "interleaved") {
        const auto cli = run_rounds(reps, 5, [&](int v) { return cli_run(cfg, dur, path, static_cast<cli_mode>(v)); });
        print("cli plain", cli, 0);
        print("cli engine keeps holds", cli, 1);
        print("cli recorded, holds all", cli, 2);
        print("cli recorded, holds none", cli, 3);
        print("cli recorded, default (zone)", cli, 4);
        const auto live = run_rounds(reps, 2, [&](int v) { return live_run(cfg, dur, path, v == 1); });
        print("live plain (keeps holds)", live, 0);
        print("live recorded (zone)", live, 1);
    }
    if (which == "separate") return;
    // Forty snapshots a slice: the writer's last few of each slice, left for the wait, are a small share.
    const sim::vtime_ns slice = std::max<sim::vtime_ns>(dur / 5, 1'000'000);
    // The control: two plain engines, built in the same alternating order. What it shows besides 100% is the
    // bench's own noise and bias, to be read into the others.
    const std::pair<const char*, cli_mode> interleaved[]
        = {{"interleaved, plain control", cli_mode::plain}, {"interleaved, keeps holds", cli_mode::keep_holds},
            {"interleaved, holds all", cli_mode::recorded}, {"interleaved, holds none", cli_mode::recorded_no_holds},
            {"interleaved, default (zone)", cli_mode::recorded_default}};
    // Round by round, every variant once, so that the control and each variant see the host alike.
    std::vector<interleaved_timing> il[std::size(interleaved)];
    for (int i = 0; i < reps; ++i)
        for (std::size_t v = 0; v < std::size(interleaved); ++v)
            il[v].push_back(interleaved_run(cfg, dur, slice, path, interleaved[v].second, i % 2 == 1));
    for (std::size_t v = 0; v < std::size(interleaved); ++v) print_interleaved(interleaved[v].first, il[v], slice);
    for (std::size_t v = 1; v < std::size(interleaved); ++v) print_against_control(interleaved[v].first, il[v], il[0]);
}

#ifdef PCPLAB_SESSION_BENCH_MAIN
int main(int argc, char** argv)
{
    pcplab::sim::keep_freed_memory_for_reuse(); // as every program that runs the engine does
    const std::string preset = argc > 1 ? argv[1] : "epyc2-256";
    const std::string workload = argc > 2 ? argv[2] : "kernbench";
    const double ms = argc > 3 ? std::atof(argv[3]) : 1000;
    const int reps = argc > 4 ? std::atoi(argv[4]) : 3;
    bench_session(preset, workload, ms, reps, argc > 5 ? argv[5] : "");
    return 0;
}
#endif
