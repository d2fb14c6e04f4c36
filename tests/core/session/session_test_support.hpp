// Shared by the session tests: a small engine run that produces rich snapshots (events, lock holds, limit
// changes), and scratch files that are removed afterwards.
#pragma once

#include "core/sim/engine_test_support.hpp"

#include "session/engine_sampler.hpp"
#include "session/recorder.hpp"

#include "sim/engine.hpp"
#include "sim/snapshot_builder.hpp"

#include "mm/patch_switches.hpp"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

namespace pcplab::test
{

// Two nodes, four CPUs, v6.7 (auto-tuned high: pcp_high_change events), every hold kept, holds > 2 us counted.
inline sim::engine_config session_config()
{
    sim::engine_config cfg = small_config(2, 2, 1, "v6.7");
    cfg.keep_holds = true;
    cfg.keep_events = true;
    cfg.hold_threshold_ns = 2'000;
    return cfg;
}

inline sim::workload_factory session_load()
{
    loop_params p;
    p.burst = 200; // past high: frees drain to the buddy allocator under zone->lock
    p.gap_ns = 3'000;
    return loop_factory(p);
}

// Snapshots of an engine every `step` of virtual time, `n` of them, with every event and hold.
inline std::vector<std::shared_ptr<const sim::snapshot>> engine_snapshots(int n, sim::vtime_ns step = 200'000)
{
    sim::engine e(session_config(), session_load());
    e.boot();
    sim::snapshot_cursor cur;
    sim::snapshot_options opt;
    opt.state_digest = true;
    std::vector<std::shared_ptr<const sim::snapshot>> out;
    for (int i = 1; i <= n; ++i) {
        e.run_until(e.workload_start() + step * static_cast<sim::vtime_ns>(i));
        sim::snapshot_context ctx;
        ctx.state = sim::run_state::running;
        ctx.boundary_ns = e.now();
        out.push_back(sim::build_snapshot(e, cur, ctx, opt));
    }
    return out;
}

// How record_sampled_run() records: like `pcplab-cli run --record` on the session_config() machine.
struct sampled_run {
    int samples = 12;
    sim::vtime_ns interval_ns = 100'000;
    unsigned procfs_every = 4;
    int flip_at = 0; // > 0: pcp-high-autotune is turned off before this sample (a switch_flip event)
    bool autotune = true;
    std::uint64_t seed = 1;
};

// One run of an engine sampled by its caller into `rec` (begin_run .. end_run "duration").
inline void record_sampled_run(session::recorder& rec, const sampled_run& p = {})
{
    sim::engine_config cfg = session_config();
    cfg.patches.set(mm::patch::pcp_high_autotune, p.autotune);
    cfg.seed = p.seed;
    sim::engine e(cfg, session_load());
    session::sampler_options so;
    so.interval_ns = p.interval_ns;
    so.procfs_every = p.procfs_every;
    rec.begin_run(session::run_header_for(cfg, "test-preset"));
    session::engine_sampler smp(e, rec, so);
    e.boot();
    for (int i = 1; i <= p.samples; ++i) {
        if (i == p.flip_at) e.set_patch(mm::patch::pcp_high_autotune, false);
        e.run_until(e.workload_start() + so.interval_ns * static_cast<sim::vtime_ns>(i));
        smp.sample(sim::run_state::running, i == p.samples);
    }
    rec.end_run("duration", "");
}

// A recording of `runs` sampled runs (seeds 1, 2, ...) at `path`.
inline void record_sampled(const std::string& path, sampled_run p = {}, int runs = 1)
{
    session::recorder_options ro;
    ro.wait_when_full = true;
    session::recorder rec(path, ro);
    for (int r = 0; r < runs; ++r) {
        p.seed = static_cast<std::uint64_t>(r + 1);
        record_sampled_run(rec, p);
    }
    rec.close();
}

// A file name in the temporary directory, removed (with its -wal and -shm) when the object goes.
class scratch_file
{
public:
    explicit scratch_file(const std::string& name)
    {
        const char* dir = std::getenv("TMPDIR");
        m_path = std::string(dir && *dir ? dir : "/tmp") + "/pcplab-" + std::to_string(::getpid()) + "-" + name;
        remove_all();
    }
    ~scratch_file() { remove_all(); }
    scratch_file(const scratch_file&) = delete;
    scratch_file& operator=(const scratch_file&) = delete;
    const std::string& path() const { return m_path; }

private:
    void remove_all()
    {
        for (const char* s : {"", "-wal", "-shm", "-journal"}) std::remove((m_path + s).c_str());
    }
    std::string m_path;
};

// Records `snaps` to `path` as one run, none dropped.
inline void record_snapshots(const std::string& path, const std::vector<std::shared_ptr<const sim::snapshot>>& snaps,
    session::recorder_options ro = {})
{
    ro.wait_when_full = true;
    session::recorder rec(path, ro);
    for (const auto& s : snaps) rec.publish(s);
    rec.close();
}

inline std::string read_bytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// The schema-1 recording of tests/fixtures copied to `path` (a reader may create -wal/-shm files next to what
// it opens, and the fixture lives in the sources); false when the fixture cannot be read.
inline bool copy_v1_fixture(const std::string& path)
{
    std::ifstream in(std::string(PCPLAB_TEST_FIXTURES) + "/recordings/classroom-kernbench-v1.db", std::ios::binary);
    if (!in) return false;
    std::ofstream(path, std::ios::binary) << in.rdbuf();
    return true;
}

} // namespace pcplab::test
