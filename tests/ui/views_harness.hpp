// A machine stepped on the caller's thread for the view tests and the frame benchmark: a real engine on a
// preset, snapshots built between steps exactly as the engine thread builds them, and the history the window
// would accumulate. Deterministic (no threads, no wall-clock pacing).
#pragma once

#include "ui/model/history.hpp"
#include "ui/views/view.hpp"

#include "sim/engine.hpp"
#include "sim/machine_config.hpp"
#include "sim/preset.hpp"
#include "sim/snapshot_builder.hpp"

#include <chrono>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>

namespace pcplab::test
{

inline sim::engine_config preset_engine_config(const std::string& preset, const std::string& workload = "kernbench",
    const std::vector<sim::switch_setting>& switches = {})
{
    auto loaded = sim::load_preset(preset);
    if (auto* err = std::get_if<pcplab::error>(&loaded)) throw std::runtime_error(err->str());
    sim::machine_options opts;
    opts.switches = switches;
    auto made = sim::make_machine_config(std::get<mm::machine_spec>(loaded), opts);
    if (auto* err = std::get_if<pcplab::error>(&made)) throw std::runtime_error(err->str());
    sim::engine_config cfg = sim::engine_config_for(std::get<sim::machine_config>(made));
    cfg.workload = workload;
    cfg.keep_events = true; // the GUI shows the event log and the lock lanes
    cfg.keep_holds = true;
    return cfg;
}

// CPU time of the calling thread, in milliseconds.
inline double thread_cpu_ms()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

class stepped_machine
{
public:
    explicit stepped_machine(const sim::engine_config& cfg, int side = 0)
        : m_engine(cfg)
        , m_side(side)
    {
        // /proc texts on a virtual-time schedule (every 1 ms), so that tests see them change deterministically;
        // the benchmark puts back the engine thread's wall-clock schedule.
        m_options.procfs_virtual_time = true;
        m_options.procfs_every_ns = 1'000'000;
        m_engine.boot();
    }
    // Runs `dt` more virtual time, then publishes a snapshot into the history; returns it.
    std::shared_ptr<const sim::snapshot> advance(sim::vtime_ns dt)
    {
        m_engine.run_until(m_engine.now() + dt);
        return publish();
    }
    // Optionally times the two halves: the snapshot (the engine thread's cost) and the history append (the
    // window's), in milliseconds of wall time, and the append also in this thread's CPU time (on a shared host
    // wall time also counts the time the thread waited for a core).
    struct publish_times {
        double build_ms = 0, append_ms = 0, append_cpu_ms = 0;
    };
    std::shared_ptr<const sim::snapshot> publish(publish_times* times = nullptr)
    {
        using clock = std::chrono::steady_clock;
        const auto t0 = clock::now();
        sim::snapshot_context ctx;
        ctx.side = m_side;
        ctx.state = m_engine.finished() ? sim::run_state::finished : sim::run_state::running;
        ctx.boundary_ns = m_engine.now();
        ctx.run.generation = m_generation;
        m_last = sim::build_snapshot(m_engine, m_cursor, ctx, m_options);
        const auto t1 = clock::now();
        const double c1 = thread_cpu_ms();
        m_history.append(*m_last);
        const double c2 = thread_cpu_ms();
        const auto t2 = clock::now();
        if (times) {
            times->build_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
            times->append_ms = std::chrono::duration<double, std::milli>(t2 - t1).count();
            times->append_cpu_ms = c2 - c1;
        }
        return m_last;
    }
    void reboot()
    {
        m_engine.reboot();
        m_cursor = {};
        ++m_generation;
    }
    sim::engine& engine() { return m_engine; }
    const ui::history& hist() const { return m_history; }
    std::shared_ptr<const sim::snapshot> last() const { return m_last; }
    sim::snapshot_options& options() { return m_options; }

private:
    sim::engine m_engine;
    int m_side;
    sim::snapshot_cursor m_cursor;
    sim::snapshot_options m_options;
    ui::history m_history;
    std::shared_ptr<const sim::snapshot> m_last;
    std::uint64_t m_generation = 0;
};

// The frame the window would hand the views: A, and B when given.
inline ui::frame make_frame(const stepped_machine& a, const stepped_machine* b = nullptr)
{
    ui::frame f;
    f.a = a.last();
    f.ha = &a.hist();
    if (b) {
        f.b = b->last();
        f.hb = &b->hist();
    }
    return f;
}

} // namespace pcplab::test
