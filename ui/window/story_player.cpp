// A story's machine, its checkpoints and its caption.
#include "ui/window/story_player.hpp"

#include "ui/live/live_source.hpp"
#include "ui/views/view_style.hpp"
#include "ui/window/frame_pump.hpp"
#include "ui/window/machine_control.hpp"
#include "ui/window/qt_text.hpp"
#include "ui/window/story_caption.hpp"
#include "ui/window/view_area.hpp"
#include "ui/window/window_status.hpp"

#include "lessons/seed_stories.hpp"

namespace pcplab::ui
{

namespace
{
QString figure_value(const lessons::story_figure& f, const sim::snapshot* s)
{
    if (!s) return QStringLiteral("-");
    lessons::eval_context ctx;
    ctx.snap = s;
    const auto r = f.expr.evaluate(ctx);
    const auto* v = std::get_if<lessons::value>(&r);
    if (!v) return QStringLiteral("-");
    if (f.unit == "ns") return format_ns(v->number);
    if (f.unit == "%") return QStringLiteral("%1 %").arg(v->number, 0, 'f', 1);
    return compact(v->number);
}
} // namespace

story_player::story_player(const parts& p, QObject* parent)
    : QObject(parent)
    , m_parts(p)
{
    m_caption = new story_caption(p.views->parentWidget()); // the window lays it out below the views
    connect(m_caption, &story_caption::continue_clicked, this, &story_player::continue_story);
    connect(m_caption, &story_caption::stop_clicked, this, &story_player::stop);
    connect(p.pump, &frame_pump::frame_shown, this, &story_player::on_frame);
    // Another machine (a preset chosen, a replay, a lesson) ends the story.
    connect(p.machine, &machine_control::source_leaving, this, [this] {
        if (!m_starting) stop();
    });
    connect(p.machine, &machine_control::setup_changed, this, [this] {
        if (!m_starting && m_story) stop();
    });
}

QString story_player::start(const QString& id)
{
    const lessons::story* s = lessons::find_story(id.toStdString());
    if (!s) {
        const QString what = tr("There is no story for seed '%1' (000 to 004)").arg(id);
        m_parts.status->show_message(what);
        return what;
    }
    lessons::story_machines m;
    try {
        m = lessons::make_story_machines(*s);
    } catch (const std::exception& e) {
        const QString what = tr("Story %1 cannot start: %2").arg(qs(s->seed->id), qs(e.what()));
        m_parts.status->show_message(what, 15000);
        return what;
    }
    stop();
    // What the controls show: the seed's preset and era in A/B, only the seed's switch differing.
    run_setup shown;
    shown.preset = s->seed->preset;
    shown.era = s->seed->era;
    shown.ab = true;
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) {
        shown.sw_a[i] = m.a.patches.on[i];
        shown.sw_b[i] = m.b.patches.on[i];
    }
    shown.workload = s->seed->workload;
    shown.intensity = m.a.intensity;
    shown.seed = m.a.seed;
    resolved_setup r;
    r.machine = m.scenario.off;
    keep_for_views(m.a);
    keep_for_views(m.b);
    r.a = m.a;
    r.b = m.b;
    machine_control::extras x;
    x.make_load = m.make_load;
    x.speed = s->speed;
    x.remember = false;
    m_starting = true;
    m_parts.machine->install_custom(shown, std::move(r), x);
    m_parts.machine->set_keep_running(true);
    m_starting = false;
    m_story = s;
    m_next = 0;
    m_shown = -1;
    m_boot_end_ns.reset();
    m_armed = false;
    // The story's machines in a line that fits the status bar beside its permanent part at 1280 px (with "It
    // pauses where the patch shows." appended, 005's was cut mid-sentence at 1600 px; the Stories page says it).
    m_parts.status->show_message(tr("Story %1: %2").arg(qs(s->seed->id), qs(s->summary)), 10000);
    return {};
}

void story_player::stop()
{
    if (!m_story) return;
    m_story = nullptr;
    m_shown = -1;
    m_armed = false;
    m_caption->hide();
    m_parts.views->set_focus_view({});
    m_parts.machine->set_keep_running(false);
    m_parts.machine->restore_own_pace(); // the story's machine runs on in free play, at the user's pace
    emit finished_story();
}

void story_player::arm_next(std::uint64_t now_ns)
{
    m_armed = false;
    if (!m_story || !m_boot_end_ns || m_next >= static_cast<int>(m_story->checkpoints.size())) return;
    auto* live = qobject_cast<live_source*>(m_parts.machine->source());
    if (!live) return;
    m_target_ns = *m_boot_end_ns + m_story->checkpoints[static_cast<std::size_t>(m_next)].after_boot_ns;
    m_armed = true;
    if (m_target_ns <= now_ns)
        live->pause(); // already there (a checkpoint at the end of the boot)
    else
        live->pause_at(m_target_ns); // a timed command: exact whatever the pacing
}

void story_player::on_frame()
{
    if (!m_story) return;
    const auto a = m_parts.pump->shown_a();
    if (!a || a->state == sim::run_state::booting) return;
    if (!m_boot_end_ns || a->run.generation != m_generation) {
        // This machine's boot is over (a restarted workload boots again: its checkpoints are behind it).
        m_generation = a->run.generation;
        m_boot_end_ns = a->sim_time_ns;
        if (m_shown < 0) arm_next(a->sim_time_ns);
        return;
    }
    if (m_armed && m_shown < 0 && a->state == sim::run_state::paused && a->sim_time_ns >= m_target_ns)
        show_checkpoint(m_next);
}

void story_player::show_checkpoint(int index)
{
    const auto& cps = m_story->checkpoints;
    const lessons::story_checkpoint& c = cps[static_cast<std::size_t>(index)];
    m_armed = false;
    m_shown = index;
    m_parts.views->set_focus_view(qs(c.view));
    const auto a = m_parts.pump->shown_a();
    const auto b = m_parts.pump->shown_b();
    std::vector<story_caption::figure_row> rows;
    for (const auto& f : c.figures) rows.push_back({qs(f.label), figure_value(f, a.get()), figure_value(f, b.get())});
    // A scenario that differs by a sysctl (011) names its two values; the others, the patch.
    const auto& sc = m_story->seed->sysctl;
    const std::array<QString, 2> sides = sc
        ? std::array<QString, 2>{tr("A: %1 = %2").arg(qs(mm::vm_sysctl_name(sc->name))).arg(sc->off),
            tr("B: %1 = %2").arg(qs(mm::vm_sysctl_name(sc->name))).arg(sc->on)}
        : std::array<QString, 2>{tr("A: without the patch"), tr("B: with the patch")};
    m_caption->show_text(tr("Story %1 · %2 of %3").arg(qs(m_story->seed->id)).arg(index + 1).arg(cps.size()),
        qs(c.title), qs(c.caption), sides, rows, index + 1 == static_cast<int>(cps.size()));
    emit checkpoint_reached(index);
}

void story_player::continue_story()
{
    if (!m_story || m_shown < 0) return;
    m_caption->hide();
    m_parts.views->set_focus_view({});
    m_next = m_shown + 1;
    m_shown = -1;
    const auto a = m_parts.pump->shown_a();
    arm_next(a ? a->sim_time_ns : 0);
    if (frame_source* src = m_parts.machine->source()) src->resume();
}

} // namespace pcplab::ui
