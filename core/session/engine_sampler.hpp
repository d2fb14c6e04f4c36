// Recording an engine that its caller steps itself (the CLI's `run --record`, benchmarks): between two steps
// the caller asks for a snapshot; it is built on the caller's thread (it reads the engine) and handed to the
// recorder's writer thread. /proc/zoneinfo and /proc/buddyinfo are rendered into the snapshots every
// `procfs_every` sampling intervals of virtual time, and at the last snapshot.
#pragma once

#include "session/recorder.hpp"

#include "sim/engine.hpp"
#include "sim/snapshot_builder.hpp"

#include <cstdint>

namespace pcplab::session
{

struct sampler_options {
    sim::vtime_ns interval_ns = 1'000'000; // the caller's sampling step (recorded in run_info::quantum_ns)
    unsigned procfs_every = 25; // /proc texts every N intervals (virtual time) and at the last one; 0 = never
    // Every event and hold into the snapshots (a recording must not lose what the engine kept); the /proc
    // schedule is set from the two values above.
    sim::snapshot_options snapshots = complete_snapshot_options();

    static sim::snapshot_options complete_snapshot_options()
    {
        sim::snapshot_options o;
        o.max_events = SIZE_MAX;
        o.max_holds = SIZE_MAX;
        return o;
    }
};

class engine_sampler
{
public:
    engine_sampler(sim::engine& e, recorder& rec, sampler_options opt)
        : m_engine(e)
        , m_rec(rec)
        , m_opt(opt)
    {
        m_opt.snapshots.procfs_every_ns = static_cast<std::int64_t>(m_opt.interval_ns * m_opt.procfs_every);
        m_opt.snapshots.procfs_virtual_time = true; // the same texts at the same points on every host
    }
    // A snapshot of the engine now, in state `st` (running while the run goes on, finished at its end).
    // `last` also records the /proc texts.
    void sample(sim::run_state st, bool last = false);
    std::uint64_t taken() const { return m_cursor.seq; }

private:
    sim::engine& m_engine;
    recorder& m_rec;
    sampler_options m_opt;
    sim::snapshot_cursor m_cursor;
};

// The rules written into the recording (meta snapshot_rule, procfs_rule).
std::string describe_sampling(const sampler_options& o);
std::string describe_procfs(const sampler_options& o);

} // namespace pcplab::session
