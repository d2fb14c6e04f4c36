// The patch switches (mm::patch_table): a row each with its shortcut key, an A (and in A/B mode a B) check box, the
// name, a one-line explanation, where its value came from, and a link to its lesson. Where a flip cannot act on this
// machine the box is greyed and the row says why; where it acts only at the next boot the row says so and
// offers the reboot (sim::reach_of_flip decides both). The boxes follow the running engine
// (snapshot::patches), except for a moment after a click, until the engine shows the new value.
#pragma once

#include "sim/engine_command.hpp"
#include "sim/machine_config.hpp"
#include "sim/switch_reach.hpp"

#include "mm/kernel_version.hpp"
#include "mm/patch_switches.hpp"

#include <QElapsedTimer>
#include <QWidget>

#include <array>

class QCheckBox;
class QLabel;

namespace pcplab::ui
{

class switch_table : public QWidget
{
    Q_OBJECT
public:
    explicit switch_table(QWidget* parent = nullptr);

    void set_ab(bool ab); // shows the B column
    bool ab() const { return m_ab; }
    // The machine the switches act on: its nodes' CPUs and its era decide where a flip can act.
    void set_machine(const mm::machine_spec& spec, const mm::kernel_version& era, int init_threads);
    // Whether deferred init is over on the running machine (some flips then need a reboot).
    void set_booted(bool booted);
    // Where flipping `p` in `column` (a: the A or single machine's, b: B's) acts on this machine now (what the
    // row says).
    sim::flip_reach reach(sim::command_target column, mm::patch p) const;
    void set_origins(const std::array<sim::switch_origin, mm::NR_PATCHES>& origin);
    // Sets the boxes of a column without emitting; forgets pending clicks.
    void set_states(sim::command_target column, const mm::patch_set& ps);
    // The engine's live switches: boxes follow them, except those clicked in the last seconds whose command
    // the engine has not shown yet.
    void sync_from(sim::command_target column, const mm::patch_set& live);

    bool state(sim::command_target column, mm::patch p) const;
    QCheckBox* box(sim::command_target column, mm::patch p) const;
    // What a click does (keyboard shortcuts): flips the box of `target`'s column (a: the A or single machine's,
    // b: B's) and emits switch_toggled; a greyed box is left alone and flip_refused says why.
    void toggle(sim::command_target target, mm::patch p);

signals:
    // A box was clicked: the engine command's target (a or b, the column's), which machine_control sends on.
    void switch_toggled(sim::command_target target, mm::patch p, bool on);
    void lesson_requested(mm::patch p);
    void reboot_requested();
    void flip_refused(const QString& why);

protected:
    void changeEvent(QEvent* e) override;

private:
    // The boxes are kept in two columns, 0 (a) and 1 (b); `column` is never `both`.
    static int side_of(sim::command_target column);
    sim::flip_reach reach_at(int side, mm::patch p) const;
    void clicked(int side, unsigned i, bool on);
    void update_links();
    void update_notes();

    mm::patch_set states(int side) const;

    bool m_ab = false;
    bool m_booted = false;
    mm::machine_spec m_spec;
    mm::kernel_version m_era;
    int m_init_threads = 0;
    std::array<sim::switch_origin, mm::NR_PATCHES> m_origin{};
    std::array<std::array<QCheckBox*, mm::NR_PATCHES>, 2> m_box{};
    std::array<QLabel*, mm::NR_PATCHES> m_name{};
    std::array<QLabel*, mm::NR_PATCHES> m_note{};
    std::array<QLabel*, mm::NR_PATCHES> m_lesson{};
    QLabel* m_head_a = nullptr;
    QLabel* m_head_b = nullptr;
    struct pending {
        bool active = false;
        bool value = false;
        QElapsedTimer since;
    };
    std::array<std::array<pending, mm::NR_PATCHES>, 2> m_pending{};
};

} // namespace pcplab::ui
