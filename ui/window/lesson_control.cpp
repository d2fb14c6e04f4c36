// The lessons dock and what a lesson step asks of the machine.
#include "ui/window/lesson_control.hpp"

#include "ui/lessons/lesson_panel.hpp"
#include "ui/window/frame_pump.hpp"
#include "ui/window/help_dialogs.hpp"
#include "ui/window/lessons.hpp"
#include "ui/window/machine_control.hpp"
#include "ui/window/qt_text.hpp"
#include "ui/window/view_area.hpp"
#include "ui/window/window_status.hpp"

#include "lessons/lesson_parser.hpp"
#include "lessons/lesson_setup.hpp"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QScrollArea>
#include <QTimer>

#include <cmath>

namespace pcplab::ui
{

lesson_control::lesson_control(const parts& p, QObject* parent)
    : QObject(parent)
    , m_parts(p)
{
}

void lesson_control::ensure_dock()
{
    if (m_dock) return;
    QMainWindow* win = m_parts.window;
    // The panel scrolls its step itself and keeps its navigation in view: no scroll area around it.
    m_panel = new lesson_panel(lessons::load_lessons(lessons::default_lessons_dir()));
    m_panel->set_presenter_mode(m_presenter);
    m_dock = new QDockWidget(tr("Lessons"), win);
    m_dock->setObjectName(QStringLiteral("lessons-dock"));
    m_dock->setToolTip(tr("Step-by-step lessons on the five seed patches, run on the live machine"));
    m_dock->setWidget(m_panel);
    m_panel->setMinimumWidth(QFontMetrics(m_panel->font()).horizontalAdvance(QString(48, QLatin1Char('n'))));
    // A tab beside the controls rather than a third column: the steps set the machine up themselves, and the
    // views keep the width they need (a right-hand column left them half the window).
    win->addDockWidget(Qt::LeftDockWidgetArea, m_dock);
    win->tabifyDockWidget(m_parts.tab_beside, m_dock);
    m_dock->raise();
    // The prose needs room; a window already shown lays the new dock out only after this returns.
    auto widen = [this, win] { win->resizeDocks({m_dock}, {std::max(520, win->width() / 3)}, Qt::Horizontal); };
    widen();
    QTimer::singleShot(0, this, widen);
    connect_panel();
}

lesson_panel* lesson_control::panel()
{
    ensure_dock();
    return m_panel;
}

// A dock behind another tab is not visible but still open: the first press brings it forward, a press on the
// dock in front hides it.
void lesson_control::show_dock(bool toggle)
{
    const bool fresh = !m_dock;
    ensure_dock();
    if (!fresh && toggle && dock_in_front()) {
        m_dock->hide();
        return;
    }
    bring_forward();
}

void lesson_control::bring_forward()
{
    QMainWindow* win = m_parts.window;
    if (QDockWidget* below = m_parts.below; below && !win->tabifiedDockWidgets(m_dock).contains(below))
        win->tabifyDockWidget(m_dock, below);
    m_dock->show();
    m_dock->raise();
    // A tab added just now is laid out after this returns: raise it again then.
    QTimer::singleShot(0, m_dock, [d = m_dock] { d->raise(); });
}

void lesson_control::give_back_height()
{
    QMainWindow* win = m_parts.window;
    QDockWidget* below = m_parts.below;
    // Asked of the controls: the lessons' dock may be closed, and a closed dock has no tabs beside it.
    if (!below || !win->tabifiedDockWidgets(m_parts.tab_beside).contains(below)) return;
    win->addDockWidget(Qt::LeftDockWidgetArea, below, Qt::Vertical); // out of the tabs, under them
    below->show();
    win->resizeDocks({m_parts.tab_beside, below}, {win->height(), 1}, Qt::Vertical); // as small as it goes
}

bool lesson_control::dock_in_front() const
{
    return m_dock && m_dock->isVisible() && !m_dock->visibleRegion().isEmpty();
}

void lesson_control::set_presenter(bool on)
{
    m_presenter = on;
    if (m_panel) m_panel->set_presenter_mode(on);
}

void lesson_control::connect_panel()
{
    lesson_panel* p = m_panel;
    machine_control* m = m_parts.machine;
    connect(p, &lesson_panel::setup_requested, this, [this](std::shared_ptr<const lessons::engine_setup> es) {
        if (es) start_lesson_machine(*es);
    });
    // A step's flips and writes come typed from its lesson file (lessons::step): the machine's A side, as in
    // free play a click on the A column.
    connect(p, &lesson_panel::flip_requested, m,
        [m](mm::patch sw, bool on) { m->flip_switch(sim::command_target::a, sw, on); });
    connect(p, &lesson_panel::sysctl_requested, this, [this, m](mm::vm_sysctl which, long v) {
        if (m->source() && !m->source()->send(sim::make_set_sysctl(which, v)))
            m_parts.status->show_message(
                tr("Lesson: %1 cannot be written on a replay").arg(qs(mm::vm_sysctl_name(which))));
    });
    connect(p, &lesson_panel::run_requested, this, &lesson_control::run_paced);
    view_area* views = m_parts.views;
    connect(p, &lesson_panel::highlight_requested, this, [views](const QString& id) {
        views->highlight(id); // leaves a focused view (raise_view does) and outlasts the boot's tab
    });
    // Every snapshot the window takes in, in order: the step's events come from all of them.
    connect(m_parts.pump, &frame_pump::taken, p, [p](const published_pair& pair) {
        if (pair.a) p->on_snapshot(pair.a);
    });
    connect(m_parts.pump, &frame_pump::frame_shown, this, &lesson_control::pace);
    // Another machine (a preset chosen, a story, a replay) is not the lesson's. A lesson's machine runs a
    // workload of its own, so whatever replaces it is a new source.
    connect(m, &machine_control::source_leaving, this, [this] {
        if (!m_installing) machine_left();
    });
    // Closing the dock leaves the lesson (a tab behind another is not closed: Qt 6 keeps it shown).
    connect(m_dock->toggleViewAction(), &QAction::toggled, this, [this](bool shown) {
        if (!shown) leave_lesson();
    });
}

void lesson_control::run_paced(qint64 ns)
{
    machine_control* m = m_parts.machine;
    stop_pacing();
    // A lesson that sets its own speed runs at it; the others are paced to be watched (lesson_pacing).
    const bool paced = m_lesson_speed == 0 && m_pacing.watch.count() > 0;
    m_run_span = ns >= 0 ? std::optional<sim::vtime_ns>(static_cast<sim::vtime_ns>(ns)) : std::nullopt;
    if (paced) m->set_speed(m_pacing.speed_at(m_run_span, std::chrono::milliseconds(0)), false);
    const auto until = m->run_for(ns);
    if (paced && until) {
        m_run_until = until;
        m_run_clock.start();
    }
}

void lesson_control::pace()
{
    if (!m_run_until) return;
    const auto a = m_parts.pump->shown_a();
    if (a
        && (a->state == sim::run_state::finished
            || (a->state == sim::run_state::paused && a->sim_time_ns >= *m_run_until))) {
        stop_pacing(); // the run is over; its last pace stays until the next run or the lesson is left
        return;
    }
    if (!m_pacing.speeds_up(m_run_span)) return;
    machine_control* m = m_parts.machine;
    const double v = m_pacing.speed_at(m_run_span, std::chrono::milliseconds(m_run_clock.elapsed()));
    if (std::abs(v - m->speed()) > 0.05 * m->speed()) m->set_speed(v, false); // a new command only for a change
}

void lesson_control::stop_pacing()
{
    m_run_until.reset();
    m_run_span.reset();
}

void lesson_control::machine_left()
{
    if (!m_machine_is_lessons) return;
    m_machine_is_lessons = false;
    stop_pacing();
    m_parts.views->clear_highlight();
    if (m_panel) m_panel->machine_left();
}

void lesson_control::leave_lesson()
{
    give_back_height();
    // Qt brings the next tab of the group forward (the stories); the controls are what free play needs.
    if (m_dock && m_dock->isHidden()) m_parts.tab_beside->raise();
    m_parts.views->clear_highlight(); // a step pins its view as soon as it is shown, run or not
    if (!m_machine_is_lessons) return;
    machine_left();
    m_parts.machine->restore_own_pace();
}

bool lesson_control::open_lesson_id(const QString& id)
{
    ensure_dock();
    const int i = find_lesson(m_panel->lesson_set(), id);
    if (i < 0) return false;
    m_panel->select_lesson(i);
    bring_forward();
    return true;
}

void lesson_control::open_lesson_file(const QString& path)
{
    ensure_dock();
    if (!open_lesson_id(path)) {
        // It did not load (the panel lists why): show the file as text rather than nothing.
        show_lesson(m_parts.window, path);
    }
}

void lesson_control::open_lesson_for_patch(mm::patch p)
{
    const auto& d = mm::patch_info(p);
    ensure_dock();
    if (!d.lesson.empty() && open_lesson_id(qs(d.lesson))) return;
    if (open_lesson_id(qs(d.scenario))) return; // a lesson whose `seed:` is the switch's scenario
    const QString f = lesson_for_patch(p);
    if (!f.isEmpty())
        open_lesson_file(f);
    else
        show_lesson(m_parts.window, f, qs(d.name)); // says there is none yet
}

QString lesson_control::start_lesson_machine(const lessons::engine_setup& es)
{
    // What the controls show: the lesson's machine as explicit choices (every switch set).
    run_setup s;
    s.preset = es.machine.spec.name;
    s.era = es.machine.requested.str();
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) s.sw_a[i] = es.config.patches.on[i];
    s.workload = es.config.workload;
    s.intensity = es.config.intensity;
    s.seed = es.config.seed;
    resolved_setup r;
    r.machine = es.machine;
    r.a = es.config;
    r.a.keep_holds = s.keep_holds; // the lanes view
    machine_control::extras x;
    x.make_load = es.make_load;
    x.start_paused = true; // the step's run starts it (run_for)
    x.speed = es.speed_vns_per_s;
    x.remember = false; // a lesson's machine is the lesson's, not the one to open on next time
    m_lesson_speed = es.speed_vns_per_s;
    stop_pacing();
    m_installing = true;
    m_parts.machine->install_custom(s, std::move(r), x);
    m_installing = false;
    m_machine_is_lessons = true;
    return {};
}

} // namespace pcplab::ui
