// The machine's lifecycle (installing a setup, switching sources, retiring the old ones) and what each control
// does to it.
#include "ui/window/machine_control.hpp"

#include "ui/live/live_source.hpp"
#include "ui/session/replay_source.hpp"
#include "ui/window/controls_panel.hpp"
#include "ui/window/frame_pump.hpp"
#include "ui/window/qt_text.hpp"

#include "lessons/lesson_setup.hpp"
#include "sim/switch_reach.hpp"

#include <QSettings>

#include <algorithm>
#include <cmath>

namespace pcplab::ui
{

namespace
{
// B's switches as "A with these flipped", so that a preset or era change keeps what the user compares.
void carry_ab_difference(run_setup& next, const resolved_setup& prev_r)
{
    next.sw_a = {};
    next.sw_b = {};
    if (!next.ab) return;
    auto r = resolve_setup(next);
    auto* ok = std::get_if<resolved_setup>(&r);
    if (!ok) return;
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) {
        const bool differs = prev_r.b && prev_r.b->patches.on[i] != prev_r.a.patches.on[i];
        next.sw_b[i] = differs ? !ok->a.patches.on[i] : ok->a.patches.on[i];
    }
}
} // namespace

machine_control::machine_control(frame_pump* pump, QSettings* settings, QObject* parent)
    : QObject(parent)
    , m_pump(pump)
    , m_settings(settings)
{
    connect(m_pump, &frame_pump::frame_shown, this, &machine_control::follow_frame);
}

machine_control::~machine_control()
{
    emit source_leaving();
    m_pump->set_source(nullptr);
    if (m_source) retire(std::move(m_source));
    reap_retired(true);
}

void machine_control::set_publish_hook(std::function<void(std::uint64_t, const published_pair&)> hook)
{
    m_publish = std::move(hook);
}

QString machine_control::apply_setup(const run_setup& s)
{
    auto resolved = resolve_setup(s);
    if (auto* err = std::get_if<std::string>(&resolved)) {
        emit message(tr("Cannot start: %1").arg(qs(*err)), 15000);
        emit setup_changed(); // the controls go back to what runs
        return qs(*err);
    }
    if (m_custom) {
        // Leaving a lesson's or a story's machine: the user's own pace again (the intensity is in `s`).
        m_custom.reset();
        if (m_speed != m_own_speed) set_speed(m_own_speed, false);
    }
    m_free = s;
    install(s, std::get<resolved_setup>(std::move(resolved)), {});
    return {};
}

void machine_control::install_custom(const run_setup& shown, resolved_setup r, extras x)
{
    m_custom = custom_machine{shown, r, x};
    install(shown, std::move(r), x);
    if (x.speed) set_speed(*x.speed, false); // the lesson's or story's pace, not remembered as the user's
}

void machine_control::install(const run_setup& s, resolved_setup r, const extras& x)
{
    const auto shown = m_pump->shown_a();
    // A custom workload lives in its source (the loop's factory): another setup needs a new source, and so
    // does leaving one.
    const bool was_custom_load = m_source && !m_source->is_replay() && m_custom_load_running;
    const bool in_place
        = !x.make_load && !was_custom_load && m_source && m_source->reboot_with(r.a, r.b ? &*r.b : nullptr);
    if (in_place) {
        // Until the new machine shows, snapshots still carry the old switches: do not let them reset the boxes.
        m_sync_from_generation = std::max(m_sync_from_generation, (shown ? shown->run.generation : 0) + 1);
    } else {
        m_sync_from_generation = 0;
        live_options lo;
        lo.speed = x.speed.value_or(m_speed);
        lo.start_paused = x.start_paused;
        lo.make_load = x.make_load;
        lo.sample_every_ns = m_sample_ns;
        if (m_publish)
            lo.on_publish = [hook = m_publish, id = ++m_source_serial](const published_pair& p) { hook(id, p); };
        replace_source(std::make_unique<live_source>(r.a, r.b, lo));
        m_custom_load_running = static_cast<bool>(x.make_load);
    }
    m_setup = s;
    m_resolved = std::move(r);
    emit setup_changed();
    QString notes;
    for (const auto& n : m_resolved.notes) notes += (notes.isEmpty() ? QString() : QStringLiteral("; ")) + qs(n);
    if (notes.isEmpty())
        emit boot_started(tr("Booting %1 on %2").arg(qs(s.preset), qs(m_resolved.machine.requested.str())));
    else
        emit message(notes, 15000);
    if (m_settings && x.remember) {
        m_settings->setValue(QStringLiteral("run/preset"), qs(s.preset));
        m_settings->setValue(QStringLiteral("run/era"), qs(s.era));
        m_settings->setValue(QStringLiteral("run/workload"), qs(s.workload));
    }
}

void machine_control::replace_source(std::unique_ptr<frame_source> next)
{
    emit source_leaving();
    m_pump->set_source(next.get());
    if (m_source) retire(std::move(m_source));
    m_source = std::move(next);
    emit source_changed(m_source.get());
}

void machine_control::open_source(std::unique_ptr<frame_source> s)
{
    m_sync_from_generation = 0;
    m_custom_load_running = false;
    replace_source(std::move(s));
}

void machine_control::back_to_live()
{
    if (m_source && !m_source->is_replay()) return;
    if (m_custom)
        install_custom(m_custom->shown, m_custom->r, m_custom->x);
    else
        apply_setup(m_setup);
}

void machine_control::choose_preset(const QString& name)
{
    run_setup s = m_custom ? m_free : m_setup; // leaving a lesson's or a story's machine: the user's own
    s.preset = name.toStdString();
    s.era.clear();
    s.pagelist_fraction.reset();
    s.min_free_kbytes.reset();
    s.watermark_scale_factor.reset();
    s.pcp_batch_scale_max.reset();
    carry_ab_difference(s, m_resolved);
    apply_setup(s);
}

void machine_control::choose_era(const QString& era)
{
    run_setup s = m_custom ? m_free : m_setup; // leaving a lesson's or a story's machine: the user's own
    s.era = era.toStdString();
    s.pagelist_fraction.reset();
    carry_ab_difference(s, m_resolved);
    apply_setup(s);
}

void machine_control::choose_seed(quint64 seed)
{
    run_setup s = m_custom ? m_free : m_setup; // leaving a lesson's or a story's machine: the user's own
    s.seed = seed;
    apply_setup(s);
}

void machine_control::set_ab(bool on)
{
    if (on == m_setup.ab && !m_custom) return;
    run_setup s = m_custom ? m_free : m_setup; // leaving a lesson's or a story's machine: the user's own
    s.ab = on;
    // B starts as A with one switch flipped that matters on this era; the B column changes the rest.
    s.sw_b = on ? default_b_switches(m_resolved.a.patches, m_resolved.machine) : switch_overrides{};
    apply_setup(s);
}

void machine_control::flip_switch(sim::command_target target, mm::patch p, bool on)
{
    const bool on_b = target == sim::command_target::b;
    if (on_b && !m_setup.ab) return;
    // Where this flip acts on this machine (its CPUs, the boot), asked before it is made (reach_on_machine is
    // about flipping away from the current value). Whether the era has the switch at all is the engine's
    // answer: window_status shows it from the command's result.
    const auto shown = m_pump->shown_a();
    mm::patch_set before = on_b && m_resolved.b ? m_resolved.b->patches : m_resolved.a.patches;
    if (const auto& s = on_b ? m_pump->shown_b() : shown) before.on = s->patches.on;
    before.set(p, !on);
    const bool booted = shown && shown->state != sim::run_state::booting;
    const sim::flip_reach r = sim::reach_on_machine(m_resolved.machine.spec, m_resolved.machine.era, before, p, booted);
    (on_b ? m_setup.sw_b : m_setup.sw_a)[static_cast<unsigned>(p)] = on;
    // One engine: the command is for it whichever column was clicked (its result names no side).
    if (!m_setup.ab) target = sim::command_target::both;
    if (m_source) m_source->send(sim::make_set_patch(p, on, target));
    if (r.when == sim::switch_reach::never)
        emit message(tr("%1 (the switch is set, but it changes nothing here)").arg(qs(r.why)), 10000);
    else if (r.when == sim::switch_reach::next_boot)
        emit message(tr("%1 (Reboot: Ctrl+R)").arg(qs(r.why)), 10000);
}

void machine_control::set_workload(const QString& name)
{
    m_setup.workload = name.toStdString();
    if (m_source) m_source->send(sim::make_set_workload(m_setup.workload));
    if (m_settings) m_settings->setValue(QStringLiteral("run/workload"), name);
}

void machine_control::set_intensity(double x)
{
    m_setup.intensity = x;
    if (!m_custom) m_free.intensity = x; // the user's own (on a lesson's machine it is the lesson's)
    if (m_source) m_source->send(sim::make_set_intensity(x));
}

void machine_control::set_sysctl(mm::vm_sysctl which, long v)
{
    switch (which) {
    case mm::vm_sysctl::min_free_kbytes:
        m_setup.min_free_kbytes = v;
        break;
    case mm::vm_sysctl::watermark_scale_factor:
        m_setup.watermark_scale_factor = static_cast<int>(v);
        break;
    case mm::vm_sysctl::pcp_batch_scale_max:
        m_setup.pcp_batch_scale_max = static_cast<int>(v);
        break;
    case mm::vm_sysctl::percpu_pagelist_fraction:
    case mm::vm_sysctl::percpu_pagelist_high_fraction: // one box: the era's own (pagelist_fraction_sysctl)
        m_setup.pagelist_fraction = static_cast<int>(v);
        break;
    }
    if (m_source) m_source->send(sim::make_set_sysctl(which, v));
}

void machine_control::set_speed(double v, bool remember)
{
    m_speed = v;
    if (m_source) m_source->set_speed(v);
    if (remember) {
        m_own_speed = v;
        if (m_settings) m_settings->setValue(QStringLiteral("run/speed"), v);
    }
    emit speed_changed(v);
}

void machine_control::restore_own_pace()
{
    if (m_speed != m_own_speed) set_speed(m_own_speed, false);
    if (m_setup.intensity != m_free.intensity && !replaying()) {
        set_intensity(m_free.intensity);
        emit setup_changed(); // the controls show it
    }
}

void machine_control::step_speed(int direction)
{
    const auto speeds = controls_panel::speeds(); // fastest first
    std::size_t at = 0;
    for (std::size_t i = 0; i < speeds.size(); ++i)
        if (std::abs(speeds[i].first - m_speed) < std::abs(speeds[at].first - m_speed)) at = i;
    const std::size_t next = direction > 0 ? (at == 0 ? 0 : at - 1) : std::min(at + 1, speeds.size() - 1);
    set_speed(speeds[next].first);
    emit message(tr("Speed: %1").arg(speeds[next].second), 2000);
}

void machine_control::play_pause()
{
    if (!m_source) return;
    if (auto* r = qobject_cast<replay_source*>(m_source.get())) {
        r->playing() ? r->pause() : r->resume(); // a replay's snapshots carry the recorded state
        return;
    }
    const auto a = m_pump->shown_a();
    if (a && a->state == sim::run_state::finished) {
        m_source->reboot();
        emit message(tr("The workload had finished: it starts again"), 4000);
    } else if (a && a->state == sim::run_state::paused) {
        m_source->resume();
    } else {
        m_source->pause();
    }
}

void machine_control::follow_frame()
{
    reap_retired();
    if (!m_keep_running || replaying()) return;
    const auto a = m_pump->shown_a();
    const auto b = m_pump->shown_b();
    const auto done = [](const auto& s) { return !s || s->state == sim::run_state::finished; };
    if (!a || !done(a) || (m_setup.ab && !done(b))) return;
    if (m_restarted_generation == a->run.generation) return; // its reboot is on the way
    m_restarted_generation = a->run.generation;
    m_source->reboot();
}

void machine_control::set_sample_interval(sim::vtime_ns every_ns)
{
    m_sample_ns = every_ns;
    if (auto* live = qobject_cast<live_source*>(m_source.get())) live->set_sample_interval(every_ns);
}

void machine_control::step()
{
    if (m_source) m_source->step();
}

void machine_control::reboot()
{
    if (m_source) m_source->reboot();
}

std::optional<sim::vtime_ns> machine_control::run_for(qint64 ns)
{
    auto* live = qobject_cast<live_source*>(m_source.get());
    if (!live) {
        emit message(tr("A lesson runs on the live machine: File > Back to live machine"), 8000);
        return std::nullopt;
    }
    const auto a = live->latest_a();
    const sim::vtime_ns now = a ? a->sim_time_ns : 0;
    const sim::vtime_ns span = ns < 0 ? lessons::RUN_FINISH_CAP_NS : static_cast<sim::vtime_ns>(ns);
    live->pause_at(now + span); // a timed command: applied at that boundary, whatever the pacing
    live->resume();
    return now + span;
}

// The old source is stopped on a helper thread (a boot in progress completes first, a large machine takes a
// while to free); its QObject is deleted here, on the window's thread, once that is done.
void machine_control::retire(std::unique_ptr<frame_source> old)
{
    if (!qobject_cast<live_source*>(old.get())) {
        old->stop(); // a replay's timers belong to this thread, and it has no engine to wait for
        return;
    }
    retired r;
    r.done = std::make_shared<std::atomic<bool>>(false);
    frame_source* raw = old.get();
    r.stopper = std::thread([raw, done = r.done] {
        raw->stop();
        done->store(true);
    });
    r.source = std::move(old);
    m_retired.push_back(std::move(r));
}

void machine_control::reap_retired(bool wait)
{
    for (auto it = m_retired.begin(); it != m_retired.end();) {
        if (wait || it->done->load()) {
            it->stopper.join();
            it = m_retired.erase(it);
        } else {
            ++it;
        }
    }
}

} // namespace pcplab::ui
