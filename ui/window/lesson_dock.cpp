// The lessons dock: the lesson panel beside the views. The panel asks, the window does: a step's machine is
// booted paused at the step's speed, its flips and sysctl writes go to the running engine, its run resumes
// the machine until the step's virtual time (or the workload's end), its view is brought forward, and every
// snapshot the window takes in is handed to the panel to judge.
#include "window/main_window.hpp"

#include "lessons/lesson_panel.hpp"
#include "live/live_source.hpp"
#include "window/controls_panel.hpp"
#include "window/frame_pump.hpp"
#include "window/help_dialogs.hpp"
#include "window/lessons.hpp"
#include "window/qt_text.hpp"
#include "window/view_area.hpp"

#include "lessons/lesson_parser.hpp"
#include "lessons/lesson_setup.hpp"

#include <QDockWidget>
#include <QFileInfo>
#include <QScrollArea>
#include <QTimer>

namespace pcplab::ui
{

void main_window::ensure_lesson_dock()
{
    if (m_lesson_dock) return;
    m_lesson_panel = new lesson_panel(lessons::load_lessons(lessons::default_lessons_dir()));
    m_lesson_panel->set_presenter_mode(m_presenter);
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_lesson_panel);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_lesson_dock = new QDockWidget(tr("Lessons"), this);
    m_lesson_dock->setObjectName(QStringLiteral("lessons-dock"));
    m_lesson_dock->setToolTip(tr("Step-by-step lessons on the five seed patches, run on the live machine"));
    m_lesson_dock->setWidget(scroll);
    scroll->setMinimumWidth(QFontMetrics(m_lesson_panel->font()).horizontalAdvance(QString(48, QLatin1Char('n'))));
    // A tab beside the controls rather than a third column: the steps set the machine up themselves, and the
    // views keep the width they need (a right-hand column left them half the window).
    addDockWidget(Qt::LeftDockWidgetArea, m_lesson_dock);
    tabifyDockWidget(m_controls_dock, m_lesson_dock);
    m_lesson_dock->raise();
    // The prose needs room; a window already shown lays the new dock out only after this returns.
    auto widen = [this] { resizeDocks({m_lesson_dock}, {std::max(520, width() / 3)}, Qt::Horizontal); };
    widen();
    QTimer::singleShot(0, this, widen);
    connect_lesson_panel();
}

lesson_panel* main_window::lessons_panel()
{
    ensure_lesson_dock();
    return m_lesson_panel;
}

void main_window::connect_lesson_panel()
{
    lesson_panel* p = m_lesson_panel;
    connect(p, &lesson_panel::setup_requested, this, [this](std::shared_ptr<const lessons::engine_setup> es) {
        if (es) start_lesson_machine(*es);
    });
    connect(p, &lesson_panel::flip_requested, this, [this](const QString& name, bool on) {
        if (auto patch = mm::patch_from_name(name.toStdString()))
            flip_switch(0, *patch, on);
        else
            show_message(tr("Lesson: unknown switch %1").arg(name));
    });
    connect(p, &lesson_panel::sysctl_requested, this, [this](const QString& name, qint64 v) {
        if (m_source && !m_source->set_sysctl(0, name.toStdString(), static_cast<long>(v)))
            show_message(tr("Lesson: %1 cannot be written on a replay").arg(name));
    });
    connect(p, &lesson_panel::run_requested, this, &main_window::run_for);
    connect(p, &lesson_panel::highlight_requested, this, [this](const QString& id) {
        m_views->highlight(id); // leaves a focused view (raise_view does) and outlasts the boot's tab
    });
    // Every snapshot the window takes in, in order: the step's events come from all of them.
    connect(m_pump, &frame_pump::taken, p, [p](const published_pair& pair) {
        if (pair.a) p->on_snapshot(pair.a);
    });
}

bool main_window::open_lesson_id(const QString& id)
{
    ensure_lesson_dock();
    const int i = find_lesson(m_lesson_panel->lesson_set(), id);
    if (i < 0) return false;
    m_lesson_panel->select_lesson(i);
    m_lesson_dock->show();
    m_lesson_dock->raise();
    return true;
}

void main_window::open_lesson_file(const QString& path)
{
    ensure_lesson_dock();
    if (!open_lesson_id(path)) {
        // It did not load (the panel lists why): show the file as text rather than nothing.
        show_lesson(this, path);
    }
}

void main_window::open_lesson(int seed)
{
    const QString f = lesson_for_seed(seed);
    ensure_lesson_dock();
    const QString id = QStringLiteral("%1").arg(seed, 3, 10, QLatin1Char('0'));
    if (open_lesson_id(id)) return;
    if (!f.isEmpty())
        open_lesson_file(f);
    else
        show_lesson(this, f, seed); // says there is none yet
}

QString main_window::start_lesson_machine(const lessons::engine_setup& es)
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
    auto keep = std::make_shared<const lessons::engine_setup>(es);
    machine_extras x;
    x.make_load = es.make_load;
    x.start_paused = true; // the step's run starts it (run_for)
    x.speed = es.speed_vns_per_s;
    install_setup(s, std::move(r), x);
    m_lesson_machine = std::move(keep);
    m_speed = es.speed_vns_per_s;
    m_controls->set_speed(m_speed);
    return {};
}

void main_window::run_for(qint64 ns)
{
    auto* live = qobject_cast<live_source*>(m_source.get());
    if (!live) {
        show_message(tr("A lesson runs on the live machine: File > Back to live machine"));
        return;
    }
    const auto a = live->latest_a();
    const sim::vtime_ns now = a ? a->sim_time_ns : 0;
    const sim::vtime_ns span = ns < 0 ? lessons::RUN_FINISH_CAP_NS : static_cast<sim::vtime_ns>(ns);
    live->pause_at(now + span); // a timed command: applied at that boundary, whatever the pacing
    live->resume();
}

} // namespace pcplab::ui
