// The controls dock: every widget has a tooltip; setters never emit, so showing state cannot loop back.
#include "ui/window/controls_panel.hpp"

#include "ui/window/qt_text.hpp"

#include "sim/preset.hpp"
#include "sim/seed_reference.hpp"
#include "sim/workload.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <climits>
#include <cmath>
#include <variant>

namespace pcplab::ui
{

std::vector<std::pair<double, QString>> controls_panel::speeds()
{
    return {{0, tr("as fast as possible")}, {1e10, tr("10x real time")}, {1e9, tr("real time (1x)")}, {1e8, tr("0.1x")},
        {1e7, tr("0.01x")}, {1e6, tr("0.001x")}};
}

controls_panel::controls_panel(QWidget* parent)
    : QWidget(parent)
{
    auto* lay = new QVBoxLayout(this);
    m_replay_note = new QLabel(tr("<b>Replay:</b> the recording's machine, switches and workload, read-only "
                                  "(File &gt; Back to live machine to change them)"));
    m_replay_note->setObjectName(QStringLiteral("replay-note"));
    m_replay_note->setWordWrap(true);
    m_replay_note->hide();
    lay->addWidget(m_replay_note);
    auto* sw = new QGroupBox(tr("Patch switches"));
    sw->setToolTip(tr("Each seed patch as a switch; flipping one acts on the running machine at once"));
    auto* swl = new QVBoxLayout(sw);
    m_switches = new switch_table;
    connect(m_switches, &switch_table::reboot_requested, this, &controls_panel::reboot_requested);
    swl->addWidget(m_switches);
    // Run control first: it is what is used most, and it must show without scrolling on a small screen.
    lay->addWidget(run_group());
    m_recorded_groups = {machine_group(), sw, workload_group(), sysctl_group()};
    for (QWidget* g : m_recorded_groups) lay->addWidget(g);
    lay->addStretch(1);
}

void controls_panel::set_replay(bool on)
{
    m_replay = on;
    m_replay_note->setVisible(on);
    for (QWidget* g : m_recorded_groups) g->setEnabled(!on);
}

QWidget* controls_panel::machine_group()
{
    auto* g = new QGroupBox(tr("Machine"));
    auto* f = new QFormLayout(g);
    m_preset = new QComboBox;
    m_preset->setObjectName(QStringLiteral("preset"));
    m_preset->setToolTip(tr("Machine preset (resources/presets): topology, memory, era and switches of a seed's "
                            "machine. Changing it reboots."));
    for (const auto& name : sim::list_presets()) {
        m_preset->addItem(qs(name), qs(name));
        auto loaded = sim::load_preset(name);
        if (auto* spec = std::get_if<mm::machine_spec>(&loaded))
            m_preset->setItemData(m_preset->count() - 1, qs(spec->description), Qt::ToolTipRole);
    }
    connect(
        m_preset, &QComboBox::activated, this, [this](int i) { emit preset_chosen(m_preset->itemData(i).toString()); });
    f->addRow(tr("Preset"), m_preset);

    m_era = new QComboBox;
    m_era->setObjectName(QStringLiteral("era"));
    m_era->setEditable(true);
    m_era->setInsertPolicy(QComboBox::NoInsert);
    m_era->setToolTip(tr("Kernel version the machine runs as (any version maps to a modelled era; e.g. 5.4.0-rc3 "
                         "lacks seed 000's fix). Changing it reboots with the era's switch defaults."));
    m_era->addItem(tr("preset's era"), QString());
    for (const auto& e : era_choices()) m_era->addItem(qs(e), qs(e));
    connect(m_era, &QComboBox::activated, this, [this](int i) { emit era_chosen(m_era->itemData(i).toString()); });
    connect(m_era->lineEdit(), &QLineEdit::editingFinished, this, [this] {
        const QString t = m_era->currentText().trimmed();
        const int i = m_era->findText(t);
        emit era_chosen(i >= 0 ? m_era->itemData(i).toString() : t);
    });
    f->addRow(tr("Kernel era"), m_era);

    m_seed = new QSpinBox;
    m_seed->setObjectName(QStringLiteral("seed"));
    m_seed->setRange(0, INT_MAX);
    m_seed->setKeyboardTracking(false);
    m_seed->setToolTip(tr("Random seed of the workload: the same preset, switches, workload and seed give the same "
                          "run bit for bit. Changing it reboots."));
    connect(m_seed, &QSpinBox::valueChanged, this, [this](int v) { emit seed_chosen(static_cast<quint64>(v)); });
    f->addRow(tr("Seed"), m_seed);

    auto* row = new QHBoxLayout;
    m_ab = new QCheckBox(tr("A/B"));
    m_ab->setObjectName(QStringLiteral("ab"));
    m_ab->setToolTip(tr("Run a second machine B in lockstep with the same preset, workload and seed; B differs in "
                        "the switches of the B column (Ctrl+B)"));
    connect(m_ab, &QCheckBox::toggled, this, &controls_panel::ab_toggled);
    m_reboot = new QPushButton(tr("Reboot"));
    m_reboot->setToolTip(tr("Boot the machine again with the current switches and sysctls (Ctrl+R); "
                            "parallel-deferred-init takes effect here"));
    connect(m_reboot, &QPushButton::clicked, this, &controls_panel::reboot_requested);
    row->addWidget(m_ab);
    row->addStretch(1);
    row->addWidget(m_reboot);
    f->addRow(row);
    return g;
}

QWidget* controls_panel::workload_group()
{
    auto* g = new QGroupBox(tr("Workload"));
    auto* f = new QFormLayout(g);
    m_workload = new QComboBox;
    m_workload->setObjectName(QStringLiteral("workload"));
    m_workload->setToolTip(tr("What the simulated CPUs run. Changing it restarts the run with the same machine."));
    for (const auto& w : sim::workload_names()) m_workload->addItem(qs(w), qs(w));
    connect(m_workload, &QComboBox::activated, this,
        [this](int i) { emit workload_chosen(m_workload->itemData(i).toString()); });
    f->addRow(tr("Workload"), m_workload);
    m_intensity = new QDoubleSpinBox;
    m_intensity->setObjectName(QStringLiteral("intensity"));
    m_intensity->setRange(0.1, 4.0);
    m_intensity->setSingleStep(0.1);
    m_intensity->setDecimals(2);
    m_intensity->setKeyboardTracking(false);
    m_intensity->setToolTip(tr("Scales the workload's tasks and sizes; applies live from each CPU's next task"));
    connect(m_intensity, &QDoubleSpinBox::valueChanged, this, &controls_panel::intensity_chosen);
    f->addRow(tr("Intensity"), m_intensity);
    return g;
}

QWidget* controls_panel::sysctl_group()
{
    auto* g = new QGroupBox(tr("Sysctls (vm.*)"));
    g->setToolTip(tr("Applied live to the running machine (both machines in A/B) and kept across reboots"));
    auto* f = new QFormLayout(g);
    auto spin = [&](const char* object, int lo, int hi, const QString& special, const QString& tip) {
        auto* s = new QSpinBox;
        s->setObjectName(QString::fromLatin1(object));
        s->setRange(lo, hi);
        s->setKeyboardTracking(false);
        if (!special.isEmpty()) s->setSpecialValueText(special);
        s->setToolTip(tip);
        return s;
    };
    m_fraction = spin("pagelist-fraction", 0, 100000, tr("0 (default)"),
        tr("vm.percpu_pagelist_high_fraction (v5.14+) or vm.percpu_pagelist_fraction (up to v5.13): pcp->high from "
           "managed / fraction instead of the default rule; 0 = default, else at least 8"));
    connect(m_fraction, &QSpinBox::valueChanged, this, [this](int v) {
        if (v > 0 && v < 8) {
            QSignalBlocker b(m_fraction);
            m_fraction->setValue(v = 8);
        }
        emit sysctl_chosen(m_fraction_sysctl, v);
    });
    m_fraction_label = new QLabel;
    f->addRow(m_fraction_label, m_fraction);
    m_min_free = spin("min-free-kbytes", -1, INT_MAX, tr("kernel default"),
        tr("vm.min_free_kbytes: the min watermark of all zones together; sets every zone's watermarks"));
    connect(m_min_free, &QSpinBox::valueChanged, this, [this](int v) {
        if (v >= 0) emit sysctl_chosen(mm::vm_sysctl::min_free_kbytes, v);
    });
    f->addRow(tr("min_free_kbytes"), m_min_free);
    m_wsf = spin("watermark-scale-factor", 1, 3000, {},
        tr("vm.watermark_scale_factor: distance between the watermarks in 1/10000 of the zone (default 10)"));
    connect(m_wsf, &QSpinBox::valueChanged, this,
        [this](int v) { emit sysctl_chosen(mm::vm_sysctl::watermark_scale_factor, v); });
    f->addRow(tr("watermark_scale_factor"), m_wsf);
    m_scale = spin("pcp-batch-scale-max", 0, 6, {},
        tr("vm.pcp_batch_scale_max (v6.7+; a 2024 proposal, the kernel's CONFIG_PCP_BATCH_SCALE_MAX): the largest "
           "shift of pcp->batch for a refill or free run, a drain chunk and a decay step (default 5)"));
    connect(m_scale, &QSpinBox::valueChanged, this,
        [this](int v) { emit sysctl_chosen(mm::vm_sysctl::pcp_batch_scale_max, v); });
    // Like a switch, the batch scale links its lesson: the one of the scenario that compares its two values.
    QWidget* scale_cell = m_scale;
    for (const auto& r : sim::seed_references()) {
        if (!r.sysctl || r.sysctl->name != mm::vm_sysctl::pcp_batch_scale_max) continue;
        scale_cell = new QWidget;
        auto* row = new QHBoxLayout(scale_cell);
        row->setContentsMargins(0, 0, 0, 0);
        row->addWidget(m_scale, 1);
        auto* lesson = new QLabel(QStringLiteral("<a href=\"lesson\">%1</a>").arg(tr("lesson")));
        lesson->setObjectName(QStringLiteral("pcp-batch-scale-max-lesson"));
        lesson->setToolTip(tr("Open the lesson of scenario %1: %2").arg(qs(r.id), qs(sim::sides_label(r))));
        connect(lesson, &QLabel::linkActivated, this, [this, id = qs(r.id)] { emit lesson_id_requested(id); });
        row->addWidget(lesson);
        break;
    }
    f->addRow(tr("pcp_batch_scale_max"), scale_cell);
    return g;
}

QWidget* controls_panel::run_group()
{
    auto* g = new QGroupBox(tr("Run"));
    auto* f = new QFormLayout(g);
    auto* row = new QHBoxLayout;
    m_play = new QPushButton(tr("Pause"));
    m_play->setObjectName(QStringLiteral("play"));
    m_play->setToolTip(tr("Pause or resume the simulation (Space)"));
    connect(m_play, &QPushButton::clicked, this, &controls_panel::play_pause_requested);
    m_step = new QPushButton(tr("Step"));
    m_step->setToolTip(tr("Pause and advance one quantum of virtual time (S or .)"));
    connect(m_step, &QPushButton::clicked, this, &controls_panel::step_requested);
    row->addWidget(m_play);
    row->addWidget(m_step);
    f->addRow(row);
    m_state = new QLabel;
    m_state->setToolTip(tr("What the engine is doing, and the virtual time it has reached"));
    f->addRow(tr("State"), m_state);
    m_speed = new QComboBox;
    m_speed->setObjectName(QStringLiteral("speed"));
    m_speed->setToolTip(tr("Virtual time per wall-clock second (+ and - step through them); a large machine may "
                           "not keep up and runs as fast as it can"));
    for (const auto& [v, label] : speeds()) m_speed->addItem(label, v);
    connect(
        m_speed, &QComboBox::activated, this, [this](int i) { emit speed_chosen(m_speed->itemData(i).toDouble()); });
    f->addRow(tr("Speed"), m_speed);
    return g;
}

void controls_panel::set_speed(double v)
{
    QSignalBlocker b(m_speed);
    int best = 0;
    for (int i = 0; i < m_speed->count(); ++i)
        if (std::abs(m_speed->itemData(i).toDouble() - v) < std::abs(m_speed->itemData(best).toDouble() - v)) best = i;
    m_speed->setCurrentIndex(best);
}

void controls_panel::show_setup(const run_setup& s, const resolved_setup& r)
{
    const QSignalBlocker b1(m_preset), b2(m_era), b3(m_seed), b4(m_ab), b5(m_workload), b6(m_intensity), b7(m_fraction),
        b8(m_min_free), b9(m_wsf), b10(m_scale);
    int pi = m_preset->findData(qs(s.preset));
    if (pi < 0) {
        m_preset->addItem(qs(s.preset), qs(s.preset));
        pi = m_preset->count() - 1;
    }
    m_preset->setCurrentIndex(pi);
    m_era->setItemText(0, tr("preset's era (%1)").arg(qs(r.machine.spec.era)));
    const int ei = s.era.empty() ? 0 : m_era->findData(qs(s.era));
    if (ei >= 0)
        m_era->setCurrentIndex(ei);
    else
        m_era->setEditText(qs(s.era));
    m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(s.seed, INT_MAX)));
    m_ab->setChecked(s.ab);
    m_workload->setCurrentIndex(std::max(0, m_workload->findData(qs(s.workload))));
    m_intensity->setValue(s.intensity);

    m_fraction_sysctl = pagelist_fraction_sysctl(r.machine.era);
    m_fraction_label->setText(qs(mm::vm_sysctl_name(m_fraction_sysctl)).mid(3)); // the form's names go without "vm."
    m_fraction_label->setToolTip(m_fraction->toolTip());
    const auto& sc = r.a.spec.sysctl;
    m_fraction->setValue(r.machine.era.before(5, 14) ? sc.percpu_pagelist_fraction : sc.percpu_pagelist_high_fraction);
    m_min_free->setValue(sc.min_free_kbytes ? static_cast<int>(std::min<long>(*sc.min_free_kbytes, INT_MAX)) : -1);
    m_wsf->setValue(sc.watermark_scale_factor);
    m_scale->setValue(sc.pcp_batch_scale_max);
    m_scale->setEnabled(r.machine.era.at_least(6, 7));

    m_switches->set_ab(s.ab);
    m_switches->set_machine(r.machine.spec, r.machine.era, r.a.patches.init_threads);
    auto origin = r.machine.origin;
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i)
        if (s.sw_a[i] && *s.sw_a[i] != r.machine.patches.on[i]) origin[i] = sim::switch_origin::user;
    m_switches->set_origins(origin);
    m_switches->set_states(sim::command_target::a, r.a.patches);
    if (r.b) m_switches->set_states(sim::command_target::b, r.b->patches);
}

void controls_panel::show_snapshot(const sim::snapshot& a, const sim::snapshot* b, bool sync_switches)
{
    // What a press does: a finished workload starts again, a paused machine plays, a running one pauses.
    const bool paused = a.state == sim::run_state::paused;
    const bool finished = a.state == sim::run_state::finished;
    m_play->setText(finished ? tr("Run again") : paused ? tr("Play") : tr("Pause"));
    QString st = QString::fromLatin1(sim::run_state_name(a.state));
    if (a.state == sim::run_state::failed) st += QStringLiteral(": ") + qs(a.error);
    m_state->setText(st);
    m_state->setToolTip(st);
    m_switches->set_booted(a.state != sim::run_state::booting);
    if (sync_switches) {
        m_switches->sync_from(sim::command_target::a, a.patches);
        if (b) m_switches->sync_from(sim::command_target::b, b->patches);
    }
}

} // namespace pcplab::ui
