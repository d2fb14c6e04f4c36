// The window's controls acting on the machine: a preset, era, seed or A/B change reboots with a new setup
// (keeping what A/B compares), a switch flip, workload, intensity, sysctl or run control is an engine command.
#include "window/main_window.hpp"

#include "session/replay_source.hpp"
#include "window/controls_panel.hpp"
#include "window/frame_pump.hpp"
#include "window/qt_text.hpp"
#include "window/switch_table.hpp"

#include <QSettings>

#include <cmath>

namespace pcplab::ui
{

// B's switches as "A with these flipped", so that a preset or era change keeps what the user compares.
namespace
{
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

void main_window::choose_preset(const QString& name)
{
    run_setup s = m_setup;
    s.preset = name.toStdString();
    s.era.clear();
    s.pagelist_fraction.reset();
    s.min_free_kbytes.reset();
    s.watermark_scale_factor.reset();
    carry_ab_difference(s, m_resolved);
    apply_setup(s);
}

void main_window::choose_era(const QString& era)
{
    run_setup s = m_setup;
    s.era = era.toStdString();
    s.pagelist_fraction.reset();
    carry_ab_difference(s, m_resolved);
    apply_setup(s);
}

void main_window::choose_seed(quint64 seed)
{
    run_setup s = m_setup;
    s.seed = seed;
    apply_setup(s);
}

void main_window::set_ab(bool on)
{
    if (on == m_setup.ab) return;
    run_setup s = m_setup;
    s.ab = on;
    // B starts as A with one switch flipped that matters on this era; the B column changes the rest.
    s.sw_b = on ? default_b_switches(m_resolved.a.patches, m_resolved.machine.era) : switch_overrides{};
    apply_setup(s);
}

void main_window::flip_switch(int side, mm::patch p, bool on)
{
    const unsigned i = static_cast<unsigned>(p);
    if (side == 1 && !m_setup.ab) return;
    (side == 0 ? m_setup.sw_a : m_setup.sw_b)[i] = on;
    if (m_source) m_source->set_patch(m_setup.ab ? side + 1 : 0, std::string(mm::patch_name(p)), on);
    if (auto why = mm::patch_not_applicable(p, on, m_resolved.machine.era); !why.empty())
        show_message(qs(why), 10000);
    else if (p == mm::patch::parallel_deferred_init)
        show_message(tr("parallel-deferred-init takes effect at the next boot (Reboot, Ctrl+R)"));
}

void main_window::set_speed(double v)
{
    m_speed = v;
    if (m_source) m_source->set_speed(v);
    m_controls->set_speed(v);
    if (m_settings) m_settings->setValue(QStringLiteral("run/speed"), v);
}

void main_window::step_speed(int direction)
{
    const auto speeds = controls_panel::speeds(); // fastest first
    std::size_t at = 0;
    for (std::size_t i = 0; i < speeds.size(); ++i)
        if (std::abs(speeds[i].first - m_speed) < std::abs(speeds[at].first - m_speed)) at = i;
    const std::size_t next = direction > 0 ? (at == 0 ? 0 : at - 1) : std::min(at + 1, speeds.size() - 1);
    set_speed(speeds[next].first);
    show_message(tr("Speed: %1").arg(speeds[next].second), 2000);
}

void main_window::play_pause()
{
    if (!m_source) return;
    if (auto* r = qobject_cast<replay_source*>(m_source.get())) {
        r->playing() ? r->pause() : r->resume(); // a replay's snapshots carry the recorded state
        return;
    }
    const auto a = m_pump->shown_a();
    if (a && a->state == sim::run_state::paused)
        m_source->resume();
    else
        m_source->pause();
}

void main_window::connect_controls()
{
    controls_panel* c = m_controls;
    connect(c, &controls_panel::preset_chosen, this, &main_window::choose_preset);
    connect(c, &controls_panel::era_chosen, this, &main_window::choose_era);
    connect(c, &controls_panel::seed_chosen, this, &main_window::choose_seed);
    connect(c, &controls_panel::ab_toggled, this, &main_window::set_ab);
    connect(c, &controls_panel::reboot_requested, this, [this] {
        if (m_source) m_source->reboot();
        show_message(tr("Rebooting with the current switches and sysctls"), 3000);
    });
    connect(c->switches(), &switch_table::switch_toggled, this, &main_window::flip_switch);
    connect(c->switches(), &switch_table::lesson_requested, this, &main_window::open_lesson);
    connect(c, &controls_panel::workload_chosen, this, [this](const QString& w) {
        m_setup.workload = w.toStdString();
        if (m_source) m_source->set_workload(m_setup.workload);
        if (m_settings) m_settings->setValue(QStringLiteral("run/workload"), w);
    });
    connect(c, &controls_panel::intensity_chosen, this, [this](double x) {
        m_setup.intensity = x;
        if (m_source) m_source->set_intensity(x);
    });
    connect(c, &controls_panel::sysctl_chosen, this, [this](const QString& name, long v) {
        if (name == QLatin1String("min_free_kbytes"))
            m_setup.min_free_kbytes = v;
        else if (name == QLatin1String("watermark_scale_factor"))
            m_setup.watermark_scale_factor = static_cast<int>(v);
        else
            m_setup.pagelist_fraction = static_cast<int>(v);
        if (m_source) m_source->set_sysctl(0, name.toStdString(), v);
    });
    connect(c, &controls_panel::play_pause_requested, this, &main_window::play_pause);
    connect(c, &controls_panel::step_requested, this, [this] {
        if (m_source) m_source->step();
    });
    connect(c, &controls_panel::speed_chosen, this, &main_window::set_speed);
}

} // namespace pcplab::ui
