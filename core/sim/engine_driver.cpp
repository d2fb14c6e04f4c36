#include "sim/engine_driver.hpp"

#include "sim/machine_config.hpp"
#include "sim/pacing.hpp"

#include <cmath>
#include <optional>
#include <thread>

namespace pcplab::sim
{

namespace
{

bool is_workload(const std::string& name)
{
    return make_workload(name) != nullptr;
}

} // namespace

engine_driver::engine_driver(engine_config cfg, workload_factory make_load, int side, snapshot_options opt)
    : m_cfg(std::move(cfg))
    , m_make_load(std::move(make_load))
    , m_side(side)
    , m_opt(opt)
{
}

engine_driver::~engine_driver() = default;

void engine_driver::fail(const std::string& what, const std::exception& e)
{
    fail(what + ": " + e.what());
}

void engine_driver::fail(std::string message)
{
    m_error = std::move(message);
}

void engine_driver::boot(
    const publish_fn& publish, std::chrono::milliseconds interval, const run_info& run, const boot_pacing& pacing)
{
    m_engine.reset(); // frees the old machine before the new one is built
    m_at_setup.reset();
    m_error.clear();
    m_finished = false;
    m_reboot = false;
    m_boundary = m_boot_end = 0;
    m_pacing = pacing;
    m_one_thread_ns = 0;
    const std::uint64_t seq = m_cursor.seq;
    m_cursor = snapshot_cursor{};
    m_cursor.seq = seq; // a source's sequence numbers keep increasing across reboots
    ++m_generation;
    run_info r = run;
    r.generation = m_generation;
    snapshot_context ctx;
    ctx.side = m_side;
    ctx.state = run_state::booting;
    ctx.run = r;
    try {
        m_engine = m_make_load ? std::make_unique<engine>(m_cfg, m_make_load) : std::make_unique<engine>(m_cfg);
        publish(build_boot_snapshot(*m_engine, boot_frame{}, m_cursor, ctx));
        std::optional<boot_presenter> shown;
        auto show = [&] {
            boot_frame f;
            f.t = shown->position(boot_presenter::clock::now());
            f.nodes = shown->progress(f.t);
            f.at_setup = m_at_setup.get();
            ctx.boundary_ns = f.t;
            publish(build_boot_snapshot(*m_engine, f, m_cursor, ctx));
        };
        boot_observer obs;
        obs.interval = interval;
        obs.on_setup = [&](const mm::machine& m) {
            auto at_setup = std::make_shared<snapshot>();
            copy_memory_state(*at_setup, m);
            m_at_setup = std::move(at_setup);
            m_one_thread_ns = one_thread_boot_ns(*m_engine);
            shown.emplace(*m_engine, boot_speed(pacing.speed), boot_presenter::clock::now());
            ctx.run.boot_speed = shown->speed();
            show();
        };
        obs.on_progress = [&](const mm::machine& m, const mm::deferred_init& di) {
            shown->observe(m, di);
            show();
        };
        m_engine->boot(&obs);
        // The threads are done: the run loop plays the rest of the boot from the last instant shown.
        if (shown) {
            shown->host_finished();
            m_boundary = shown->position(boot_presenter::clock::now());
        }
        m_boot_end = std::max(m_boundary, workload_start());
    } catch (const std::exception& e) {
        fail("boot", e);
        m_engine.reset();
    }
    m_rate_wall = std::chrono::steady_clock::now();
    m_rate_events = 0;
    m_rate_vt = m_boundary;
}

vtime_ns engine_driver::workload_start() const
{
    return m_engine && !failed() ? m_engine->workload_start() : 0;
}

double engine_driver::boot_speed(double run_speed) const
{
    boot_pacing p = m_pacing;
    p.speed = run_speed;
    return boot_presentation_speed(p, m_one_thread_ns);
}

void engine_driver::set_boundary(vtime_ns b, vtime_ns boot_end)
{
    m_boundary = b;
    m_boot_end = boot_end;
    m_rate_vt = b;
}

bool engine_driver::start_round()
{
    if (!m_engine || failed() || !m_engine->finished()) return false;
    try {
        if (!m_engine->start_round()) return false;
    } catch (const std::exception& e) {
        fail("new round", e);
        return false;
    }
    m_finished = false;
    return true;
}

vtime_ns engine_driver::now() const
{
    return m_engine && !failed() ? m_engine->now() : m_boundary;
}

std::uint64_t engine_driver::events_processed() const
{
    return m_engine && !failed() ? m_engine->events_processed() : 0;
}

void engine_driver::advance(std::uint64_t quanta, vtime_ns quantum, const std::function<bool()>& stop)
{
    for (std::uint64_t i = 0; i < quanta && !finished(); ++i) {
        if (stop && stop()) return;
        const vtime_ns b = boundary_grid{quantum, m_boot_end}.next(m_boundary);
        try {
            m_engine->run_until(b);
            // run_until stops short of `b` only when the workload is done everywhere; the boundary stays
            // the last one every CPU reached. Before the workload starts the engine has nothing to run (its
            // clocks start there): the boundary moves through the boot.
            const bool reached = m_engine->now() >= b;
            m_finished = !reached || m_engine->finished();
            if (reached) m_boundary = b;
        } catch (const std::exception& e) {
            fail("run", e);
            return;
        }
    }
}

void engine_driver::step_action()
{
    if (finished()) return;
    // One action of the workload: the rest of a boot being played is skipped to the group's workload start.
    if (m_boundary < m_boot_end) m_boundary = m_boot_end;
    try {
        if (!m_engine->step()) m_finished = true;
    } catch (const std::exception& e) {
        fail("step", e);
    }
}

command_result engine_driver::result_of(const engine_command& c, bool ok, std::string message) const
{
    command_result r;
    r.id = c.id;
    r.kind = c.kind();
    r.what = c.describe();
    r.ok = ok;
    r.message = std::move(message);
    r.applied_at_ns = m_boundary;
    r.applied_at_event = events_processed();
    return r;
}

command_result engine_driver::apply(const engine_command& c)
{
    if (const auto* r = std::get_if<cmd::reboot>(&c.payload)) {
        // Without a new configuration: the engine's own, which holds the live switches, sysctls, intensity.
        if (r->config)
            m_cfg = *r->config;
        else if (m_engine && !failed())
            m_cfg = m_engine->config();
        m_reboot = true;
        return result_of(c);
    }
    if (const auto* w = std::get_if<cmd::set_workload>(&c.payload)) {
        if (!is_workload(w->name)) return result_of(c, false, "unknown workload '" + w->name + "'");
        if (m_engine && !failed()) m_cfg = m_engine->config();
        m_cfg.workload = w->name;
        m_make_load = nullptr; // a named workload replaces one of one's own
        m_reboot = true;
        return result_of(c, true, "the run restarts with the new workload");
    }
    if (!m_engine || failed()) return result_of(c, false, "no engine is running");
    try {
        if (const auto* f = std::get_if<cmd::set_patch>(&c.payload))
            // Accepted even where it means nothing on this era: the engine says why, and the result carries it.
            return result_of(c, true, m_engine->set_patch(f->patch, f->on));
        if (const auto* w = std::get_if<cmd::set_sysctl>(&c.payload)) {
            const status written = m_engine->set_sysctl(w->sysctl, w->value);
            return result_of(c, written.ok(), written.message());
        }
        if (const auto* i = std::get_if<cmd::set_intensity>(&c.payload)) {
            if (!std::isfinite(i->intensity) || i->intensity < 0)
                return result_of(c, false, "intensity must be a finite number >= 0");
            m_engine->set_intensity(i->intensity);
            return result_of(c);
        }
        if (const auto* k = std::get_if<cmd::set_continuous>(&c.payload)) {
            const bool was_finished = m_finished;
            m_engine->set_continuous(k->on); // a run that had finished starts a new round at once
            if (was_finished && !m_engine->finished()) m_finished = false;
            return result_of(c, true, was_finished && !m_finished ? "a new round of the workload starts" : "");
        }
        return result_of(c, false, "not an engine command");
    } catch (const std::exception& e) {
        return result_of(c, false, e.what());
    }
}

std::shared_ptr<const snapshot> engine_driver::make_snapshot(
    run_state state, run_info run, std::vector<command_result> commands)
{
    const bool boot_shown = in_boot();
    if (failed())
        state = run_state::failed;
    else if (boot_shown && state == run_state::running)
        state = run_state::booting; // the boot is being played
    else if (m_finished && (state == run_state::running || state == run_state::paused))
        state = run_state::finished;

    // Achieved rates over the interval since the previous snapshot (display only).
    const auto wall = std::chrono::steady_clock::now();
    const double dt = std::chrono::duration<double>(wall - m_rate_wall).count();
    const std::uint64_t ev = events_processed();
    const vtime_ns vt = boot_shown ? m_boundary : now();
    if (dt > 0) {
        m_events_per_s = static_cast<double>(ev - std::min(ev, m_rate_events)) / dt;
        m_vns_per_s = static_cast<double>(vt - std::min(vt, m_rate_vt)) / dt;
    }
    m_rate_wall = wall;
    m_rate_events = ev;
    m_rate_vt = vt;
    run.events_per_s = state == run_state::running ? m_events_per_s : 0;
    run.vns_per_s = state == run_state::running || state == run_state::booting ? m_vns_per_s : 0;
    run.generation = m_generation;

    snapshot_context ctx;
    ctx.side = m_side;
    ctx.state = state;
    ctx.error = m_error;
    ctx.boundary_ns = m_boundary;
    ctx.run = run;
    ctx.commands = std::move(commands);
    if (boot_shown) return make_boot_snapshot(std::move(ctx));
    std::shared_ptr<snapshot> s;
    if (m_engine && !failed()) {
        try {
            s = build_snapshot(*m_engine, m_cursor, ctx, m_opt);
        } catch (const std::exception& e) {
            fail("snapshot", e);
            ctx.state = run_state::failed;
            ctx.error = m_error;
        }
    }
    if (!s) s = build_config_snapshot(m_cfg, m_cursor, std::move(ctx));
    return s;
}

// The boot at the boundary, played after the real one: every node's progress on its modelled timeline (the
// threads are done, or for a workload that starts during deferred init, not started yet).
std::shared_ptr<const snapshot> engine_driver::make_boot_snapshot(snapshot_context ctx)
{
    const bool threads_done = !m_engine->deferred_init_pending();
    boot_frame f;
    f.t = m_boundary;
    const bool paced = ctx.run.boot_speed > 0;
    for (const auto& n : planned_nodes(*m_engine, threads_done)) f.nodes.push_back(present_node(n, f.t, paced));
    f.at_setup = m_at_setup.get();
    return build_boot_snapshot(*m_engine, f, m_cursor, std::move(ctx));
}

} // namespace pcplab::sim
