#include "session/engine_sampler.hpp"

#include "procfs/procfs_texts.hpp"

namespace pcplab::session
{

void engine_sampler::sample(sim::run_state st, bool last)
{
    sim::snapshot_context ctx;
    ctx.state = st;
    ctx.boundary_ns = m_engine.now();
    ctx.run.quantum_ns = m_opt.interval_ns;
    auto s = sim::build_snapshot(m_engine, m_cursor, ctx, m_opt.snapshots);
    // The last snapshot shows the final state, whenever the previous rendering was.
    if (last && m_opt.procfs_every && s->procfs_time_ns != s->sim_time_ns) {
        s->procfs = procfs::procfs_texts::capture(m_engine.machine());
        s->procfs_time_ns = s->sim_time_ns;
    }
    m_rec.publish(s);
}

namespace
{

std::string describe_interval(sim::vtime_ns ns)
{
    return ns % 1'000'000 == 0 ? std::to_string(ns / 1'000'000) + "ms"
        : ns % 1'000 == 0      ? std::to_string(ns / 1'000) + "us"
                               : std::to_string(ns) + "ns";
}

} // namespace

std::string describe_sampling(const sampler_options& o)
{
    return "every " + describe_interval(o.interval_ns) + " of virtual time, and at the end of the run";
}

std::string describe_procfs(const sampler_options& o)
{
    if (!o.procfs_every) return "none";
    return "zoneinfo and buddyinfo at the first snapshot, then at the first snapshot "
        + describe_interval(o.interval_ns * o.procfs_every)
        + " of virtual time after the previous rendering, and at the end of the run";
}

} // namespace pcplab::session
