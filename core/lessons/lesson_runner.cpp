// Running a lesson without a window: one sim::engine per setup, stepped directly in virtual time.
#include "lessons/lesson_runner.hpp"

#include "lessons/lesson_setup.hpp"

#include "sim/engine.hpp"
#include "sim/snapshot_builder.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>

namespace pcplab::lessons
{

namespace
{

using clock_type = std::chrono::steady_clock;

double ms_since(clock_type::time_point t0)
{
    return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}

std::string ms_text(sim::vtime_ns ns)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.1f ms", static_cast<double>(ns) / 1e6);
    return buf;
}

// The engine of the current setup and what the runner remembers about it.
struct machine_state {
    std::unique_ptr<sim::engine> engine;
    sim::snapshot_cursor cursor;
    std::size_t events_mark = 0; // engine events before the current step
};

} // namespace

bool lesson_outcome::passed() const
{
    for (const auto& s : steps)
        if (!s.passed()) return false;
    return true;
}

std::string describe_setup(const step_setup& s)
{
    std::string out = s.preset;
    if (s.node_gib) out += " (" + format_number(*s.node_gib) + " GiB/node)";
    if (s.era) out += ", era " + *s.era;
    out += ", " + s.workload;
    if (s.intensity != 1.0) out += " x" + format_number(s.intensity);
    // Each switch once, with the value that wins (the last one named).
    for (std::size_t i = 0; i < s.switches.size(); ++i) {
        const auto& [p, on] = s.switches[i];
        bool later = false;
        for (std::size_t j = i + 1; j < s.switches.size(); ++j) later = later || s.switches[j].first == p;
        if (!later) out += ", " + std::string(mm::patch_name(p)) + (on ? "=on" : "=off");
    }
    if (s.init_threads) out += ", init_threads " + std::to_string(*s.init_threads);
    for (const auto& [n, v] : s.sysctls) out += ", " + n + "=" + std::to_string(v);
    return out;
}

lesson_outcome run_lesson(const lesson& l, const run_bounds& bounds)
{
    const auto t_lesson = clock_type::now();
    lesson_outcome out;
    out.file = l.file;
    out.title = l.title;
    machine_state m;
    std::map<std::string, kept_state> kept;
    for (std::size_t i = 0; i < l.steps.size(); ++i) {
        const step& s = l.steps[i];
        const auto t_step = clock_type::now();
        step_outcome o;
        o.index = i;
        o.title = s.title;
        o.line = s.line;
        o.used_machine = s.needs_machine();
        if (!o.used_machine) {
            out.steps.push_back(std::move(o));
            continue;
        }
        o.machine = describe_setup(s.setup);
        try {
            if (s.boots || !m.engine) {
                step_setup setup = s.setup;
                if (bounds.node_gib && (!setup.node_gib || *setup.node_gib > *bounds.node_gib))
                    setup.node_gib = *bounds.node_gib;
                auto r = resolve_setup(setup);
                if (auto* why = std::get_if<pcplab::error>(&r)) throw std::runtime_error("setup: " + why->message);
                auto& es = std::get<engine_setup>(r);
                m = machine_state{};
                m.engine = std::make_unique<sim::engine>(es.config, es.make_load);
                m.engine->boot();
                o.booted = true;
            } else {
                m.events_mark = m.engine->events().size();
            }
            sim::engine& e = *m.engine;
            for (const auto& [p, on] : s.flips) e.set_patch(p, on);
            for (const auto& [which, v] : s.writes)
                if (auto written = e.set_sysctl(which, v); !written)
                    throw std::runtime_error("write " + mm::vm_sysctl_name(which) + ": " + written.message());
            auto bounded = [&](sim::vtime_ns ns) { return bounds.run_ns ? std::min(ns, *bounds.run_ns) : ns; };
            if (s.run_ns) {
                const sim::vtime_ns start = e.now();
                e.run_until(start + bounded(*s.run_ns));
                o.run = e.finished() ? "finished at " + ms_text(e.elapsed()) : "ran " + ms_text(bounded(*s.run_ns));
            } else if (s.run_to_finish) {
                const sim::vtime_ns cap = bounded(RUN_FINISH_CAP_NS);
                e.run_until(e.now() + cap);
                o.run = e.finished() ? "finished at " + ms_text(e.elapsed())
                                     : "stopped at the cap of " + ms_text(cap) + " (not finished)";
                if (!e.finished()) o.error = "run: finish: the workload did not finish within the cap";
            }
            sim::snapshot_context sc;
            sc.state = e.finished() ? sim::run_state::finished : sim::run_state::paused;
            sc.boundary_ns = e.now();
            sim::snapshot_options opt;
            opt.release_published = false; // the runner reads engine::events() itself (the step's events)
            std::shared_ptr<const sim::snapshot> snap = sim::build_snapshot(e, m.cursor, sc, opt);
            o.time_ns = snap->sim_time_ns;

            const auto& all = e.events();
            std::vector<sim::sim_event> step_events(
                all.begin() + static_cast<std::ptrdiff_t>(std::min(m.events_mark, all.size())), all.end());
            eval_context ctx{snap.get(), &step_events, &kept};
            o.eval = evaluate_step(s, ctx);
            if (!s.keep.empty()) kept[s.keep] = kept_state{snap, std::move(step_events)};
            m.events_mark = all.size();
        } catch (const std::exception& ex) {
            o.error = ex.what();
            m = machine_state{}; // the next step sets up afresh
        }
        o.wall_ms = ms_since(t_step);
        out.steps.push_back(std::move(o));
    }
    out.wall_ms = ms_since(t_lesson);
    return out;
}

} // namespace pcplab::lessons
