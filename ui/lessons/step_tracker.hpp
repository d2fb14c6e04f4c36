// Following one lesson step on a live machine (no Qt): wait for the snapshots of the machine the step asked
// for, note when its run is over, collect the step's events from every snapshot, and judge the step on
// each snapshot (live values while it runs, the verdict once it is done). The lesson panel drives it; the
// window only relays snapshots.
#pragma once

#include "lessons/lesson.hpp"
#include "lessons/lesson_setup.hpp"
#include "lessons/step_eval.hpp"

#include "sim/snapshot.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pcplab::ui
{

class step_tracker
{
public:
    enum class phase {
        idle, // nothing asked yet
        waiting_machine, // a new machine was asked for; snapshots of the old one are ignored
        running, // the machine is the step's; its run (if any) is not over
        done, // judged on the state the run ended in; later snapshots no longer change it
        failed, // the machine could not be set up (snapshot::error)
    };

    // Starts following `s` (which must outlive the tracker's use of it). `setup` is the machine the step
    // asked for, or null when it continues on the current one. `last` is the newest snapshot seen before
    // the request: a new machine is recognised by its configuration and by a new run (generation, seq or
    // virtual time going back).
    void begin(const lessons::step& s, std::shared_ptr<const lessons::engine_setup> setup,
        std::shared_ptr<const sim::snapshot> last);
    // Forget the step (another step or lesson was chosen).
    void reset();

    // One snapshot of the machine; returns true when the phase or the evaluation changed. `became_ready`
    // is set when this snapshot is the first of the step's machine (the panel then sends flips, writes and
    // the run).
    bool feed(const std::shared_ptr<const sim::snapshot>& snap, bool* became_ready = nullptr);

    phase current_phase() const { return m_phase; }
    const lessons::step_evaluation& evaluation() const { return m_eval; }
    bool evaluated() const { return m_evaluated; }
    // Share of the run done, 0..1 (1 without a run); none while a `run: finish` runs, whose end only the
    // workload knows (the panel then shows a busy bar rather than one stuck at 0%).
    std::optional<double> progress() const;
    sim::vtime_ns run_start_ns() const { return m_start_ns; }
    const std::string& error() const { return m_error; }
    const std::shared_ptr<const sim::snapshot>& last_snapshot() const { return m_last; }

    // States kept by earlier steps of this lesson (`keep:`), read by from("NAME", ...).
    std::map<std::string, lessons::kept_state>& kept() { return m_kept; }

private:
    bool is_new_machine(const sim::snapshot& s) const;
    bool run_over(const sim::snapshot& s) const;
    void evaluate(const sim::snapshot& s);

    const lessons::step* m_step = nullptr;
    std::shared_ptr<const lessons::engine_setup> m_setup;
    phase m_phase = phase::idle;
    // The newest snapshot before the request (to tell the old machine from the new one).
    std::uint64_t m_before_seq = 0, m_before_generation = 0;
    sim::vtime_ns m_before_time = 0;
    bool m_before_known = false;
    bool m_before_matches = false; // the old machine already looked like the requested one
    sim::vtime_ns m_start_ns = 0;
    std::uint64_t m_last_seq = 0;
    std::shared_ptr<const sim::snapshot> m_last;
    std::vector<sim::sim_event> m_events;
    lessons::step_evaluation m_eval;
    bool m_evaluated = false;
    std::string m_error;
    std::map<std::string, lessons::kept_state> m_kept;
};

} // namespace pcplab::ui
