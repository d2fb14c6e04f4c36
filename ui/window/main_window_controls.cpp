// The controls dock wired to the machine: each signal of the panel is one call of machine_control.
#include "ui/window/main_window.hpp"

#include "ui/window/controls_panel.hpp"
#include "ui/window/frame_pump.hpp"
#include "ui/window/lesson_control.hpp"
#include "ui/window/machine_control.hpp"
#include "ui/window/switch_table.hpp"
#include "ui/window/window_status.hpp"

namespace pcplab::ui
{

void main_window::connect_controls()
{
    controls_panel* c = m_controls;
    machine_control* m = m_machine;
    connect(c, &controls_panel::preset_chosen, m, &machine_control::choose_preset);
    connect(c, &controls_panel::era_chosen, m, &machine_control::choose_era);
    connect(c, &controls_panel::seed_chosen, m, &machine_control::choose_seed);
    connect(c, &controls_panel::ab_toggled, m, &machine_control::set_ab);
    connect(c, &controls_panel::reboot_requested, this, [this] {
        m_machine->reboot();
        m_status->show_message(tr("Rebooting with the current switches and sysctls"), 3000);
    });
    connect(c->switches(), &switch_table::switch_toggled, m, &machine_control::flip_switch);
    connect(c->switches(), &switch_table::flip_refused, m_status,
        [this](const QString& why) { m_status->show_message(tr("Not flipped: %1").arg(why), 10000); });
    connect(c->switches(), &switch_table::lesson_requested, m_lessons, &lesson_control::open_lesson_for_patch);
    connect(c, &controls_panel::workload_chosen, m, &machine_control::set_workload);
    connect(c, &controls_panel::intensity_chosen, m, &machine_control::set_intensity);
    connect(c, &controls_panel::sysctl_chosen, m, &machine_control::set_sysctl);
    connect(c, &controls_panel::lesson_id_requested, m_lessons, &lesson_control::open_lesson_id);
    connect(c, &controls_panel::play_pause_requested, this, &main_window::play_pause);
    connect(c, &controls_panel::step_requested, m, &machine_control::step);
    connect(c, &controls_panel::speed_chosen, m, [m](double v) { m->set_speed(v); });
}

} // namespace pcplab::ui
