// The controls dock's contents: machine (preset, era, seed, A/B, reboot), the patch switches, workload and
// intensity, sysctls, run control (play/pause, step, speed). (Each per-zone view has its zone picker.) It only
// emits what the user asked for; the window turns that into engine commands and calls the setters back.
#pragma once

#include "ui/live/run_setup.hpp"
#include "ui/window/switch_table.hpp"

#include "sim/snapshot.hpp"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace pcplab::ui
{

class controls_panel : public QWidget
{
    Q_OBJECT
public:
    explicit controls_panel(QWidget* parent = nullptr);

    // Shows a setup and its resolution (preset's era, switch defaults and origins) without emitting.
    void show_setup(const run_setup& s, const resolved_setup& r);
    // Follows the running machine: run state, switches (unless sync_switches is false: a reboot with new
    // switches is on its way), the nodes and zones on offer.
    void show_snapshot(const sim::snapshot& a, const sim::snapshot* b, bool sync_switches = true);
    void set_speed(double vns_per_wall_s); // without emitting
    // During a replay the machine, switches, workload and sysctls show the recording's setup (show_setup with
    // setup_of_recording) and are disabled: nothing can change how a recording was made. Run control and the
    // zone shown stay live, they act on the replay.
    void set_replay(bool on);
    bool replay() const { return m_replay; }

    switch_table* switches() const { return m_switches; }
    QComboBox* preset_box() const { return m_preset; }
    QComboBox* era_box() const { return m_era; }
    QCheckBox* ab_box() const { return m_ab; }
    QSpinBox* seed_box() const { return m_seed; }
    QComboBox* workload_box() const { return m_workload; }
    QPushButton* play_button() const { return m_play; }

    // Speeds on offer, in virtual ns per wall second (0 = as fast as possible).
    static std::vector<std::pair<double, QString>> speeds();

signals:
    void preset_chosen(const QString& name);
    void era_chosen(const QString& era); // "" = the preset's
    void seed_chosen(quint64 seed);
    void ab_toggled(bool on);
    void reboot_requested();
    void workload_chosen(const QString& name);
    void intensity_chosen(double x);
    void sysctl_chosen(mm::vm_sysctl which, long value);
    // A sysctl's "lesson" link: the scenario that sets it to two values ("011"), whose lesson names it as `seed:`.
    void lesson_id_requested(const QString& id);
    void play_pause_requested();
    void step_requested();
    void speed_chosen(double vns_per_wall_s);

private:
    QWidget* machine_group();
    QWidget* workload_group();
    QWidget* sysctl_group();
    QWidget* run_group();

    switch_table* m_switches = nullptr;
    std::vector<QWidget*> m_recorded_groups; // what set_replay disables
    QLabel* m_replay_note = nullptr;
    bool m_replay = false;
    QComboBox* m_preset = nullptr;
    QComboBox* m_era = nullptr;
    QSpinBox* m_seed = nullptr;
    QCheckBox* m_ab = nullptr;
    QPushButton* m_reboot = nullptr;
    QComboBox* m_workload = nullptr;
    QDoubleSpinBox* m_intensity = nullptr;
    QLabel* m_fraction_label = nullptr;
    QSpinBox* m_fraction = nullptr;
    QSpinBox* m_min_free = nullptr;
    QSpinBox* m_wsf = nullptr;
    QSpinBox* m_scale = nullptr; // vm.pcp_batch_scale_max, v6.7+
    QPushButton* m_play = nullptr;
    QPushButton* m_step = nullptr;
    QComboBox* m_speed = nullptr;
    QLabel* m_state = nullptr;
    mm::vm_sysctl m_fraction_sysctl = mm::vm_sysctl::percpu_pagelist_fraction;
};

} // namespace pcplab::ui
