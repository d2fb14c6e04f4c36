// The switch rows of the controls dock.
#include "ui/window/switch_table.hpp"

#include "ui/window/qt_text.hpp"

#include <QCheckBox>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>

#include <algorithm>
#include <cassert>

namespace pcplab::ui
{

namespace
{
constexpr qint64 PENDING_MS = 3000; // a click the engine has not confirmed by then has failed

// The switch's scenario id in `pcplab-cli seeds` ("000"), as the table declares it.
QString scenario_id(unsigned i)
{
    return qs(mm::patch_info(static_cast<mm::patch>(i)).scenario);
}
} // namespace

switch_table::switch_table(QWidget* parent)
    : QWidget(parent)
{
    auto* g = new QGridLayout(this);
    g->setContentsMargins(0, 0, 0, 0);
    g->setHorizontalSpacing(6);
    g->setVerticalSpacing(2);
    m_head_a = new QLabel(tr("on"));
    const int last_key = static_cast<int>(std::min(mm::NR_PATCHES, 10u)) - 1;
    m_head_a->setToolTip(
        tr("The switch on the running machine (A in A/B mode). Keys 0-%1 (Ctrl+0-%1 for A in A/B).").arg(last_key));
    m_head_b = new QLabel(tr("B"));
    m_head_b->setToolTip(tr("The switch on machine B (A/B mode). Keys 0-%1.").arg(last_key));
    g->addWidget(m_head_a, 0, 1, Qt::AlignHCenter);
    g->addWidget(m_head_b, 0, 2, Qt::AlignHCenter);
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) {
        const auto p = static_cast<mm::patch>(i);
        const QString name = qs(mm::patch_name(p));
        const QString summary = qs(mm::patch_summary(p));
        const int row = 1 + static_cast<int>(i) * 2;
        auto* key = new QLabel(i < 10 ? QString::number(i) : QString());
        if (i < 10) key->setToolTip(tr("Press %1 to flip this switch").arg(i));
        key->setEnabled(false);
        g->addWidget(key, row, 0, Qt::AlignTop);
        for (int side = 0; side < 2; ++side) {
            auto* b = new QCheckBox;
            b->setObjectName(QStringLiteral("switch-%1-%2").arg(side == 0 ? "a" : "b", name));
            b->setToolTip(side == 0 ? tr("Turn %1 on or off on the running machine").arg(name)
                                    : tr("Turn %1 on or off on machine B").arg(name));
            connect(b, &QCheckBox::clicked, this, [this, side, i](bool on) { clicked(side, i, on); });
            m_box[side][i] = b;
            g->addWidget(b, row, 1 + side, Qt::AlignTop | Qt::AlignHCenter);
        }
        m_name[i] = new QLabel;
        m_name[i]->setTextFormat(Qt::RichText);
        m_name[i]->setWordWrap(true); // a narrow dock wraps rather than cutting the line off
        m_name[i]->setToolTip(QStringLiteral("%1 (%2; kernels: %3)")
                                  .arg(summary, qs(mm::patch_info(p).origin), qs(mm::patch_info(p).kernels.str())));
        g->addWidget(m_name[i], row, 3);
        auto* lesson = new QLabel;
        m_lesson[i] = lesson;
        lesson->setToolTip(mm::patch_info(p).lesson.empty()
                ? tr("No lesson on %1 yet (lessons/)").arg(name)
                : tr("Open the lesson on %1: lessons/%2.md").arg(name, qs(mm::patch_info(p).lesson)));
        connect(lesson, &QLabel::linkActivated, this, [this, p] { emit lesson_requested(p); });
        g->addWidget(lesson, row, 4, Qt::AlignTop | Qt::AlignRight);
        m_note[i] = new QLabel; // text in update_notes(), <small> so that it follows the font (presenter mode)
        m_note[i]->setObjectName(QStringLiteral("switch-note-%1").arg(name));
        m_note[i]->setWordWrap(true);
        m_note[i]->setTextFormat(Qt::RichText);
        connect(m_note[i], &QLabel::linkActivated, this, [this](const QString& link) {
            if (link == QLatin1String("reboot")) emit reboot_requested();
        });
        g->addWidget(m_note[i], row + 1, 3, 1, 2);
    }
    g->setColumnStretch(3, 1);
    update_links();
    set_ab(false);
    update_notes();
}

// Rich-text links keep the colour they were laid out with: a theme change lays them out again.
void switch_table::update_links()
{
    const QString colour = palette().color(QPalette::Link).name();
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i)
        m_lesson[i]->setText(mm::patch_table()[i].lesson.empty()
                ? QString()
                : QStringLiteral("<a href=\"lesson:%1\" style=\"color:%2\">%3</a>").arg(i).arg(colour, tr("lesson")));
}

void switch_table::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::PaletteChange) {
        update_links();
        update_notes();
    }
    QWidget::changeEvent(e);
}

void switch_table::set_ab(bool ab)
{
    m_ab = ab;
    m_head_a->setText(ab ? tr("A") : tr("on"));
    m_head_b->setVisible(ab);
    for (auto* b : m_box[1]) b->setVisible(ab);
    update_notes();
}

void switch_table::set_machine(const mm::machine_spec& spec, const mm::kernel_version& era, int init_threads)
{
    m_spec = spec;
    m_era = era;
    m_init_threads = init_threads;
    update_notes();
}

void switch_table::set_booted(bool booted)
{
    if (booted == m_booted) return;
    m_booted = booted;
    update_notes();
}

mm::patch_set switch_table::states(int side) const
{
    mm::patch_set ps;
    ps.init_threads = m_init_threads;
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) ps.on[i] = m_box[side][i]->isChecked();
    return ps;
}

int switch_table::side_of(sim::command_target column)
{
    assert(column != sim::command_target::both);
    return column == sim::command_target::b ? 1 : 0;
}

sim::flip_reach switch_table::reach(sim::command_target column, mm::patch p) const
{
    return reach_at(side_of(column), p);
}

sim::flip_reach switch_table::reach_at(int side, mm::patch p) const
{
    return sim::reach_of_flip(m_spec, m_era, states(side), p, m_booted);
}

void switch_table::set_origins(const std::array<sim::switch_origin, mm::NR_PATCHES>& origin)
{
    m_origin = origin;
    update_notes();
}

// Name, origin, and where a flip cannot act here (greyed) or acts only at the next boot, why.
void switch_table::update_notes()
{
    const QString link = palette().color(QPalette::Link).name();
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) {
        const auto p = static_cast<mm::patch>(i);
        const QString name = qs(mm::patch_name(p));
        const QString summary = qs(mm::patch_summary(p));
        QString origin = qs(sim::switch_origin_name(m_origin[i]));
        if (m_ab && state(sim::command_target::a, p) != state(sim::command_target::b, p))
            origin += tr("; <b>B differs</b>");
        m_name[i]->setText(
            QStringLiteral("<b>%1</b> %2 <small>(%3)</small>").arg(scenario_id(i), name.toHtmlEscaped(), origin));
        sim::flip_reach shown;
        for (int side = 0; side < (m_ab ? 2 : 1); ++side) {
            sim::flip_reach r = reach_at(side, p);
            // In A/B a limit that only one side has is that side's.
            if (m_ab && r.when != sim::switch_reach::now && reach_at(1 - side, p).when != r.when)
                r.why = (side == 0 ? "A: " : "B: ") + r.why;
            m_box[side][i]->setEnabled(r.when != sim::switch_reach::never);
            m_box[side][i]->setToolTip(r.when == sim::switch_reach::never ? qs(r.why)
                    : side == 0 ? tr("Turn %1 on or off on the running machine").arg(name)
                                : tr("Turn %1 on or off on machine B").arg(name));
            if (r.when > shown.when) shown = r; // the row tells the strongest limit of either side
        }
        QString note;
        switch (shown.when) {
        case sim::switch_reach::now:
            note = summary.toHtmlEscaped();
            break;
        case sim::switch_reach::next_boot:
            note = QStringLiteral("\u21bb %1 <a href=\"reboot\" style=\"color:%2\">%3</a>")
                       .arg(qs(shown.why).toHtmlEscaped(), link, tr("Reboot now"));
            break;
        case sim::switch_reach::never:
            note = QStringLiteral("\u26a0 %1").arg(tr("Cannot act here: %1").arg(qs(shown.why)).toHtmlEscaped());
            break;
        }
        m_note[i]->setText(QStringLiteral("<small>%1</small>").arg(note));
        m_note[i]->setToolTip(shown.when == sim::switch_reach::now ? summary : qs(shown.why));
    }
}

void switch_table::set_states(sim::command_target column, const mm::patch_set& ps)
{
    const int side = side_of(column);
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) {
        m_box[side][i]->setChecked(ps.on[i]);
        m_pending[side][i].active = false;
    }
    update_notes();
}

void switch_table::sync_from(sim::command_target column, const mm::patch_set& live)
{
    const int side = side_of(column);
    bool changed = false;
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) {
        pending& pd = m_pending[side][i];
        if (pd.active && (live.on[i] == pd.value || pd.since.elapsed() > PENDING_MS)) pd.active = false;
        if (pd.active || m_box[side][i]->isChecked() == live.on[i]) continue;
        m_box[side][i]->setChecked(live.on[i]);
        changed = true;
    }
    if (changed) update_notes();
}

bool switch_table::state(sim::command_target column, mm::patch p) const
{
    return box(column, p)->isChecked();
}

QCheckBox* switch_table::box(sim::command_target column, mm::patch p) const
{
    return m_box[side_of(column)][static_cast<unsigned>(p)];
}

void switch_table::toggle(sim::command_target target, mm::patch p)
{
    if (target == sim::command_target::b && !m_ab) return;
    const int side = side_of(target);
    QCheckBox* b = box(target, p);
    if (!b->isEnabled()) {
        emit flip_refused(b->toolTip());
        return;
    }
    b->setChecked(!b->isChecked());
    clicked(side, static_cast<unsigned>(p), b->isChecked());
}

void switch_table::clicked(int side, unsigned i, bool on)
{
    pending& pd = m_pending[side][i];
    pd.active = true;
    pd.value = on;
    pd.since.start();
    if (side == 0) m_origin[i] = sim::switch_origin::user;
    update_notes();
    emit switch_toggled(side == 1 ? sim::command_target::b : sim::command_target::a, static_cast<mm::patch>(i), on);
}

} // namespace pcplab::ui
