// The live window: its parts built and wired together, and what each frame updates. What each control does to
// the machine is in machine_control.cpp; the menus are in main_window_menus.cpp, the remembered layout in
// main_window_settings.cpp.
#include "ui/window/main_window.hpp"

#include "ui/session/replay_source.hpp"
#include "ui/window/controls_panel.hpp"
#include "ui/window/delta_panel.hpp"
#include "ui/window/frame_pump.hpp"
#include "ui/window/key_strip.hpp"
#include "ui/window/lesson_control.hpp"
#include "ui/window/machine_control.hpp"
#include "ui/window/presenter_mode.hpp"
#include "ui/window/qt_text.hpp"
#include "ui/window/session_control.hpp"
#include "ui/window/story_caption.hpp"
#include "ui/window/story_list.hpp"
#include "ui/window/story_player.hpp"
#include "ui/window/view_area.hpp"
#include "ui/window/wheel_guard.hpp"
#include "ui/window/window_status.hpp"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace pcplab::ui
{

main_window::main_window(const window_options& opt, QWidget* parent)
    : QMainWindow(parent)
{
    setObjectName(QStringLiteral("pcplab-main-window"));
    if (opt.use_settings)
        m_settings = opt.settings_file.isEmpty()
            ? std::make_unique<QSettings>(QStringLiteral("pcplab"), QStringLiteral("pcplab"))
            : std::make_unique<QSettings>(opt.settings_file, QSettings::IniFormat);

    // The views under presenter mode's strip of key numbers.
    auto* centre = new QWidget(this);
    auto* centre_lay = new QVBoxLayout(centre);
    centre_lay->setContentsMargins(0, 0, 0, 0);
    centre_lay->setSpacing(0);
    auto* strip = new key_strip;
    m_views = new view_area(make_views(nullptr));
    centre_lay->addWidget(strip);
    centre_lay->addWidget(m_views, 1);
    setCentralWidget(centre);
    m_pump = new frame_pump(this);
    m_pump->set_views(m_views->views());
    connect(m_pump, &frame_pump::frame_shown, this, &main_window::on_frame);
    connect(m_pump, &frame_pump::machine_changed, this, [this] { m_deltas->clear(); });
    const auto fill_strip = [this, strip] {
        if (const auto a = m_pump->shown_a(); a && strip->isVisible()) strip->show_figures(*a, m_pump->shown_b().get());
    };
    connect(m_pump, &frame_pump::frame_shown, strip, fill_strip);
    connect(m_views, &view_area::layout_changed, m_pump, &frame_pump::refresh);

    m_controls = new controls_panel;
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_controls);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    guard_wheel(scroll); // scrolling the controls scrolls them, it does not turn a box under the pointer
    m_controls_dock = new QDockWidget(tr("Controls"), this);
    m_controls_dock->setObjectName(QStringLiteral("controls-dock"));
    m_controls_dock->setWidget(scroll);
    fit_controls();
    addDockWidget(Qt::LeftDockWidgetArea, m_controls_dock);

    m_deltas = new delta_panel;
    m_deltas_dock = new QDockWidget(tr("Key figures"), this);
    m_deltas_dock->setObjectName(QStringLiteral("figures-dock"));
    m_deltas_dock->setToolTip(tr("The run's key figures; in A/B mode B against A, live"));
    m_deltas_dock->setWidget(m_deltas);
    addDockWidget(Qt::LeftDockWidgetArea, m_deltas_dock);

    m_status = new window_status(statusBar(), m_pump, this);
    connect(m_status, &window_status::boot_tab_wanted, m_views, &view_area::show_boot);
    m_machine = new machine_control(m_pump, m_settings.get(), this);
    connect(m_machine, &machine_control::message, m_status, &window_status::show_message);
    connect(m_machine, &machine_control::boot_started, m_status, &window_status::show_boot_message);
    connect(m_machine, &machine_control::setup_changed, this, [this] {
        if (m_machine->source() && !m_machine->replaying()) {
            m_controls->show_setup(m_machine->setup(), m_machine->resolved());
            // Another machine's names and notes can need more width, measured once their layout has run.
            QTimer::singleShot(0, this, &main_window::fit_controls);
        }
        if (m_ab_action) m_ab_action->setChecked(m_machine->setup().ab);
        update_title();
    });
    connect(m_machine, &machine_control::speed_changed, m_controls, &controls_panel::set_speed);
    m_session = new session_control({this, m_machine, m_pump, m_views, m_controls, m_status}, this);
    connect(m_machine, &machine_control::source_changed, this, &main_window::update_title);
    m_lessons = new lesson_control({this, m_controls_dock, m_deltas_dock, m_machine, m_pump, m_views, m_status}, this);
    m_look = new presenter_mode(this, m_views, strip, m_settings.get(), this);
    m_stories = new story_player({m_machine, m_pump, m_views, m_status}, this);
    centre_lay->addWidget(m_stories->caption()); // under the views, not over their plots
    connect(m_look, &presenter_mode::entering, this, &main_window::save_settings);
    connect(m_look, &presenter_mode::changed, strip, fill_strip); // at once, also when no frame comes (paused)
    connect(m_look, &presenter_mode::changed, this, [this](bool on) {
        m_lessons->set_presenter(on);
        // The application font is set and every widget has it. Leaving, presenter mode puts back the docks'
        // minimum widths as they were (a hidden dock's layout runs late, so measuring now would be stale).
        if (on) fit_controls();
    });

    // The stories' start page, a tab beside the controls.
    auto* list = new story_list;
    connect(list, &story_list::story_requested, m_stories, &story_player::start);
    auto* list_scroll = new QScrollArea;
    list_scroll->setWidget(list);
    list_scroll->setWidgetResizable(true);
    list_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* stories_dock = new QDockWidget(tr("Stories"), this);
    stories_dock->setObjectName(QStringLiteral("stories-dock"));
    stories_dock->setToolTip(tr("The five seed stories: each seed's machine with its patch off (A) and on (B)"));
    stories_dock->setWidget(list_scroll);
    addDockWidget(Qt::LeftDockWidgetArea, stories_dock);
    tabifyDockWidget(m_controls_dock, stories_dock);
    m_controls_dock->raise();

    build_menus();
    connect_controls();
    resize(1600, 1000);
    resizeDocks({m_controls_dock, m_deltas_dock}, {760, 230}, Qt::Vertical);
    restore_settings(opt.first_start_fills_screen);
    if (opt.theme) m_look->set_theme(*opt.theme);
    if (opt.speed) m_machine->set_speed(*opt.speed);
    m_controls->set_speed(m_machine->speed());
    m_look->set_theme(m_look->theme());
    if (opt.presenter) m_look->set_presenter(true);

    // A story asked for, or the very first start (nothing saved, nothing asked for): the story plays instead of
    // the default machine.
    QString story = opt.story;
    const bool first_start = opt.first_start_story && m_settings && !m_settings->contains(QStringLiteral("run/preset"))
        && !m_settings->contains(QStringLiteral("ui/story")) && !opt.preset && !opt.era && !opt.ab
        && opt.patches.empty() && opt.replay.isEmpty() && opt.lesson.isEmpty();
    if (story.isEmpty() && first_start) story = QStringLiteral("000");
    if (!story.isEmpty() && m_stories->start(story).isEmpty()) {
        if (m_settings) m_settings->setValue(QStringLiteral("ui/story"), story);
        if (first_start) stories_dock->raise();
    }
    const QString err = m_machine->source() ? QString() : m_machine->apply_setup(initial_setup(opt));
    if (!err.isEmpty() && !m_machine->source()) {
        // The saved preset is gone or broken: fall back to the default rather than open on nothing.
        m_machine->apply_setup(run_setup{});
        m_status->show_message(tr("%1; opened the default preset instead").arg(err));
    }
    if (!opt.view.isEmpty()) m_views->set_focus_view(opt.view);
    if (!opt.replay.isEmpty()) m_session->open_recording(opt.replay);
    if (!opt.lesson.isEmpty() && !m_lessons->open_lesson_id(opt.lesson))
        m_status->show_message(tr("No lesson '%1'").arg(opt.lesson));
}

main_window::~main_window()
{
    // The machine first: its engines stop (and its replay UI goes) before the recorder closes.
    delete m_machine;
    m_machine = nullptr;
    delete m_session;
    m_session = nullptr;
}

frame_source* main_window::source() const
{
    return m_machine ? m_machine->source() : nullptr;
}

const run_setup& main_window::setup() const
{
    return m_machine->setup();
}

QString main_window::last_message() const
{
    return m_status->last_message();
}

void main_window::play_pause()
{
    if (m_stories->checkpoint_shown() >= 0)
        m_stories->continue_story();
    else
        m_machine->play_pause();
}

run_setup main_window::initial_setup(const window_options& opt) const
{
    run_setup s;
    if (m_settings) {
        s.preset = m_settings->value(QStringLiteral("run/preset"), qs(s.preset)).toString().toStdString();
        s.era = m_settings->value(QStringLiteral("run/era")).toString().toStdString();
        s.workload = m_settings->value(QStringLiteral("run/workload"), qs(s.workload)).toString().toStdString();
    }
    if (opt.preset) {
        s.preset = *opt.preset;
        s.era.clear();
    }
    if (opt.era) s.era = *opt.era;
    if (opt.workload) s.workload = *opt.workload;
    if (opt.seed) s.seed = *opt.seed;
    for (const auto& sw : opt.patches) s.sw_a[static_cast<unsigned>(sw.p)] = sw.on;
    s.ab = opt.ab;
    if (s.ab) {
        if (auto r = resolve_setup(s); auto* ok = std::get_if<resolved_setup>(&r)) {
            if (opt.patches_b.empty())
                s.sw_b = default_b_switches(ok->a.patches, ok->machine);
            else
                for (unsigned i = 0; i < mm::NR_PATCHES; ++i) s.sw_b[i] = ok->a.patches.on[i];
        }
        for (const auto& sw : opt.patches_b) s.sw_b[static_cast<unsigned>(sw.p)] = sw.on;
    }
    return s;
}

void main_window::on_frame()
{
    const auto a = m_pump->shown_a();
    const auto b = m_pump->shown_b();
    if (!a) return;
    m_controls->show_snapshot(*a, b.get(), a->run.generation >= m_machine->sync_from_generation());
    m_deltas->show_figures(*a, b.get());
    m_status->show_frame(m_machine->replaying());
    m_session->show_recording_state();
}

// The controls never need a horizontal scroll bar, whatever the font (presenter mode scales it).
void main_window::fit_controls()
{
    if (auto* scroll = qobject_cast<QScrollArea*>(m_controls_dock->widget())) {
        // Wide enough for the widest control row; a switch's name and note wrap. At most a quarter of the screen,
        // so that the views keep the room (1280 px: about 320 px for the controls).
        const int line = QFontMetrics(m_controls->font()).horizontalAdvance(QString(36, QLatin1Char('n')));
        m_controls->adjustSize();
        scroll->setMinimumWidth(std::max(m_controls->minimumSizeHint().width(), line)
            + scroll->verticalScrollBar()->sizeHint().width() + 2 * scroll->frameWidth());
    }
}

void main_window::update_title()
{
    if (auto* r = qobject_cast<replay_source*>(source())) {
        setWindowTitle(tr("pcplab — replay of %1").arg(QFileInfo(qs(r->recording().path())).fileName()));
        return;
    }
    const run_setup& s = m_machine->setup();
    setWindowTitle(
        tr("pcplab — %1 (%2)%3")
            .arg(qs(s.preset), qs(m_machine->resolved().machine.requested.str()), s.ab ? tr(" — A/B") : QString()));
}

void main_window::showEvent(QShowEvent* e)
{
    QMainWindow::showEvent(e);
    QTimer::singleShot(0, this, &main_window::fit_controls); // the combo boxes size themselves when first shown
    // The window manager frames the window after it is shown. A screenshot (no settings) keeps the size it asks
    // for: its picture is not a screen.
    if (m_settings) QTimer::singleShot(250, this, &main_window::fit_to_screen);
}

void main_window::closeEvent(QCloseEvent* e)
{
    save_settings();
    QMainWindow::closeEvent(e);
}

} // namespace pcplab::ui
