// The live side of a lesson step: which snapshots belong to it, when its run is over, and its verdict.
#include "ui/lessons/step_tracker.hpp"

#include <algorithm>

namespace pcplab::ui
{

namespace
{

// Events kept per step: enough for every check of the shipped lessons, bounded for long live runs.
constexpr std::size_t k_max_step_events = 200'000;

} // namespace

void step_tracker::begin(const lessons::step& s, std::shared_ptr<const lessons::engine_setup> setup,
    std::shared_ptr<const sim::snapshot> last)
{
    m_step = &s;
    m_setup = std::move(setup);
    m_events.clear();
    m_eval = {};
    m_evaluated = false;
    m_error.clear();
    m_before_known = last != nullptr;
    if (last) {
        m_before_seq = last->seq;
        m_before_generation = last->run.generation;
        m_before_time = last->sim_time_ns;
    }
    m_before_matches = last && setup && lessons::snapshot_matches(*setup, *last);
    m_phase = m_setup ? phase::waiting_machine : phase::running;
    m_start_ns = last && !m_setup ? last->sim_time_ns : 0;
    m_last = m_setup ? nullptr : last;
    m_last_seq = 0;
}

void step_tracker::reset()
{
    m_step = nullptr;
    m_setup.reset();
    m_phase = phase::idle;
    m_events.clear();
    m_eval = {};
    m_evaluated = false;
    m_last.reset();
}

bool step_tracker::is_new_machine(const sim::snapshot& s) const
{
    if (!lessons::snapshot_matches(*m_setup, s)) return false;
    if (!m_before_known || !m_before_matches) return true;
    // The same configuration again (a sysctl differs, or the same step re-run): a new run restarts its clock
    // or its numbering.
    return s.run.generation != m_before_generation || s.seq < m_before_seq || s.sim_time_ns < m_before_time
        || (m_before_time == 0 && s.seq != m_before_seq);
}

bool step_tracker::run_over(const sim::snapshot& s) const
{
    // Live flips and writes first show in the snapshot (the switches, the "sysctl" note) before the step counts.
    for (const auto& [p, on] : m_step->flips)
        if (s.patches[p] != on) return false;
    for (const auto& [which, v] : m_step->writes) {
        const std::string note = "sysctl " + mm::vm_sysctl_name(which) + " = " + std::to_string(v);
        if (std::none_of(m_events.begin(), m_events.end(), [&](const sim::sim_event& e) { return e.text == note; }))
            return false;
    }
    if (s.state == sim::run_state::finished || s.state == sim::run_state::stopped) return true;
    if (m_step->run_to_finish) return false;
    if (!m_step->run_ns) return true;
    return s.sim_time_ns >= m_start_ns + *m_step->run_ns;
}

std::optional<double> step_tracker::progress() const
{
    if (m_phase == phase::done) return 1;
    if (!m_step || !m_last || m_phase != phase::running) return 0;
    if (m_step->run_ns && *m_step->run_ns > 0)
        return std::clamp(
            static_cast<double>(m_last->sim_time_ns - std::min(m_last->sim_time_ns, m_start_ns)) / *m_step->run_ns, 0.0,
            1.0);
    if (m_step->run_to_finish) return std::nullopt;
    return 1;
}

void step_tracker::evaluate(const sim::snapshot& s)
{
    lessons::eval_context ctx{&s, &m_events, &m_kept};
    m_eval = lessons::evaluate_step(*m_step, ctx);
    m_evaluated = true;
}

bool step_tracker::feed(const std::shared_ptr<const sim::snapshot>& snap, bool* became_ready)
{
    if (became_ready) *became_ready = false;
    if (!snap || !m_step || m_phase == phase::idle || m_phase == phase::done || m_phase == phase::failed) return false;
    if (m_phase == phase::waiting_machine) {
        if (!is_new_machine(*snap)) return false;
        if (snap->state == sim::run_state::failed) {
            m_phase = phase::failed;
            m_error = snap->error.empty() ? "the machine could not be set up" : snap->error;
            return true;
        }
        // Boot events arrive with the first snapshots of the new machine; keep them while it boots.
        if (m_events.size() < k_max_step_events)
            m_events.insert(m_events.end(), snap->events.begin(), snap->events.end());
        m_last_seq = snap->seq;
        if (snap->state == sim::run_state::booting) return false;
        m_phase = phase::running;
        m_start_ns = snap->sim_time_ns;
        if (became_ready) *became_ready = true;
    } else {
        if (snap->seq == m_last_seq) return false; // the same snapshot again
        if (m_last && snap->seq < m_last->seq && snap->run.generation == m_last->run.generation)
            return false; // older than what was seen
        if (m_events.size() < k_max_step_events)
            m_events.insert(m_events.end(), snap->events.begin(), snap->events.end());
        m_last_seq = snap->seq;
    }
    m_last = snap;
    if (snap->state == sim::run_state::booting) return false;
    evaluate(*snap);
    if (run_over(*snap)) {
        m_phase = phase::done;
        if (!m_step->keep.empty()) m_kept[m_step->keep] = lessons::kept_state{snap, m_events};
    }
    return true;
}

} // namespace pcplab::ui
