// The live window's menus: every action has a shortcut where it is used often (one key per switch, Space for
// play/pause, S or . to step, F11 for presenter mode), and the Help menu lists them all from the actions
// themselves, so the list cannot drift from what the keys do.
#include "ui/window/main_window.hpp"

#include "ui/window/controls_panel.hpp"
#include "ui/window/help_dialogs.hpp"
#include "ui/window/lesson_control.hpp"
#include "ui/window/lessons.hpp"
#include "ui/window/machine_control.hpp"
#include "ui/window/presenter_mode.hpp"
#include "ui/window/qt_text.hpp"
#include "ui/window/session_control.hpp"
#include "ui/window/story_player.hpp"
#include "ui/window/switch_table.hpp"
#include "ui/window/view_area.hpp"
#include "ui/window/window_status.hpp"
#include "ui/window/zoneinfo_dialog.hpp"

#include "lessons/seed_stories.hpp"

#include <QAction>
#include <QActionGroup>
#include <QDesktopServices>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QUrl>

namespace pcplab::ui
{

void main_window::build_menus()
{
    auto add = [this](QMenu* m, const QString& text, const QList<QKeySequence>& keys, const QString& tip, auto fn) {
        QAction* a = m->addAction(text);
        a->setShortcuts(keys);
        a->setToolTip(tip);
        a->setStatusTip(tip);
        connect(a, &QAction::triggered, this, fn);
        addAction(a); // shortcuts keep working with the menu bar hidden (presenter mode)
        return a;
    };

    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_session->add_actions(file);
    add(file, tr("Open /proc/zoneinfo..."), {}, tr("Check a real machine's /proc/zoneinfo and boot that machine"),
        [this] {
            auto* d = new zoneinfo_dialog(this);
            d->setAttribute(Qt::WA_DeleteOnClose);
            connect(d, &zoneinfo_dialog::boot_requested, m_machine, &machine_control::choose_preset);
            d->show();
        });
    file->addSeparator();
    add(file, tr("Save screenshot..."), {QKeySequence(tr("Ctrl+Shift+S"))}, tr("Save a PNG of the window"),
        [this] { save_screenshot_dialog(); });
    file->addSeparator();
    add(file, tr("Quit"), {QKeySequence::Quit}, tr("Stop the machine and close"), [this] { close(); });

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    machine_control* m = m_machine;
    add(run, tr("Play / pause"), {QKeySequence(Qt::Key_Space)},
        tr("Pause or resume the simulation (at a story's checkpoint: continue the story)"), [this] { play_pause(); });
    add(run, tr("Step"), {QKeySequence(Qt::Key_S), QKeySequence(Qt::Key_Period)},
        tr("Pause and advance one quantum of virtual time"), [m] { m->step(); });
    add(run, tr("Faster"), {QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)}, tr("Next faster speed"),
        [m] { m->step_speed(+1); });
    add(run, tr("Slower"), {QKeySequence(Qt::Key_Minus)}, tr("Next slower speed"), [m] { m->step_speed(-1); });
    add(run, tr("Reboot"), {QKeySequence(tr("Ctrl+R"))}, tr("Boot again with the current switches and sysctls"),
        [m] { m->reboot(); });
    run->addSeparator();
    m_ab_action = add(run, tr("A/B: two machines"), {QKeySequence(tr("Ctrl+B"))},
        tr("Run machine B beside A in lockstep, differing in the B column's switches"),
        [m](bool on) { m->set_ab(on); });
    m_ab_action->setCheckable(true);

    build_switch_actions(menuBar()->addMenu(tr("&Switches")));
    build_story_menu(menuBar()->addMenu(tr("S&tories")));

    QMenu* view_menu = menuBar()->addMenu(tr("&View"));
    m_look->add_actions(view_menu);
    view_menu->addSeparator();
    QMenu* focus = view_menu->addMenu(tr("Focus one view"));
    int n = 1;
    for (view* v : m_views->views()) {
        const QString id = v->view_id();
        QList<QKeySequence> keys;
        if (n <= 9) keys << QKeySequence(QStringLiteral("Alt+%1").arg(n++));
        add(focus, v->title(), keys, tr("Show only %1, large").arg(v->title()),
            [this, id] { m_views->set_focus_view(id); });
    }
    add(view_menu, tr("All views / leave presenter mode"), {QKeySequence(Qt::Key_Escape)},
        tr("Back to every view; a second press leaves presenter mode"), [this] {
            if (!m_views->focus_view().isEmpty())
                m_views->set_focus_view({});
            else if (m_look->on())
                m_look->set_presenter(false);
        });
    view_menu->addSeparator();
    QAction* controls = m_controls_dock->toggleViewAction();
    controls->setShortcut(QKeySequence(tr("Ctrl+Shift+C")));
    view_menu->addAction(controls);
    view_menu->addAction(m_deltas_dock->toggleViewAction());
    add(view_menu, tr("Lessons"), {QKeySequence(tr("Ctrl+L"))}, tr("Show or hide the lessons panel"),
        [this] { m_lessons->show_dock(true); });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    add(help, tr("The seeds and later patches..."), {}, tr("What each patch changed, and its published numbers"),
        [this] { show_seeds(this, [this](const QString& id) { m_stories->start(id); }); });
    QMenu* lessons = help->addMenu(tr("Lessons"));
    connect(lessons, &QMenu::aboutToShow, this, [this, lessons] {
        lessons->clear();
        for (const QString& f : lesson_files()) {
            QAction* a = lessons->addAction(lesson_title(f));
            a->setToolTip(f);
            connect(a, &QAction::triggered, this, [this, f] { m_lessons->open_lesson_file(f); });
        }
        if (lessons->isEmpty()) lessons->addAction(tr("(none yet)"))->setEnabled(false);
        lessons->addSeparator();
        connect(lessons->addAction(tr("Open the lessons folder")), &QAction::triggered, this,
            [] { QDesktopServices::openUrl(QUrl::fromLocalFile(lessons_dir())); });
    });
    add(help, tr("Keyboard shortcuts..."), {QKeySequence(Qt::Key_F1)}, tr("Every key the window answers"), [this] {
        QString h = tr("<h2>Keyboard shortcuts</h2><table cellpadding=\"3\">");
        for (QAction* a : actions()) {
            if (a->shortcuts().isEmpty()) continue;
            QStringList keys;
            for (const auto& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
            h += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                     .arg(keys.join(QStringLiteral(", ")).toHtmlEscaped(), a->text().remove('&').toHtmlEscaped());
        }
        h += QStringLiteral("</table>");
        show_text(this, tr("Keyboard shortcuts"), h, QStringLiteral("help-shortcuts"));
    });
    add(help, tr("About pcplab"), {}, tr("Version and what pcplab is"),
        [this] { show_text(this, tr("About pcplab"), about_html(), QStringLiteral("help-about")); });
}

// Keys 0-9 flip the switches in table order (of B in A/B mode); Ctrl+0-9 flip A's in A/B mode (the same as 0-9
// otherwise). Each menu entry names the switch's scenario id.
void main_window::build_switch_actions(QMenu* menu)
{
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) {
        const auto p = static_cast<mm::patch>(i);
        const QString name = qs(mm::patch_name(p));
        QAction* main_key = menu->addAction(tr("Flip %1 %2").arg(qs(mm::patch_info(p).scenario), name));
        if (i < 10) main_key->setShortcut(QKeySequence(Qt::Key_0 + static_cast<int>(i)));
        main_key->setToolTip(tr("Flip %1 (machine B in A/B mode)").arg(name));
        connect(main_key, &QAction::triggered, this, [this, p] {
            m_controls->switches()->toggle(m_machine->setup().ab ? sim::command_target::b : sim::command_target::a, p);
        });
        addAction(main_key);
        QAction* a_key = menu->addAction(tr("Flip %1 on machine A").arg(name));
        if (i < 10) a_key->setShortcut(QKeySequence(Qt::CTRL | (Qt::Key_0 + static_cast<int>(i))));
        a_key->setToolTip(tr("Flip %1 on machine A (A/B mode)").arg(name));
        connect(
            a_key, &QAction::triggered, this, [this, p] { m_controls->switches()->toggle(sim::command_target::a, p); });
        addAction(a_key);
    }
}

// A story per seed (Ctrl+Shift+0 to 9 for the first ten, in the table's order), and stopping the one that plays.
void main_window::build_story_menu(QMenu* menu)
{
    int n = 0;
    for (const auto& s : lessons::seed_stories()) {
        const QString id = qs(s.seed->id);
        QAction* a = menu->addAction(qs(s.title));
        if (n < 10) a->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | (Qt::Key_0 + n))); // past 9: the menu only
        ++n;
        a->setToolTip(qs(s.summary));
        a->setStatusTip(a->toolTip());
        connect(a, &QAction::triggered, this, [this, id] { m_stories->start(id); });
        addAction(a);
    }
    menu->addSeparator();
    QAction* stop = menu->addAction(tr("Stop the story"));
    stop->setToolTip(tr("The machines keep running; the views go back to normal"));
    connect(stop, &QAction::triggered, m_stories, &story_player::stop);
    connect(menu, &QMenu::aboutToShow, this, [this, stop] { stop->setEnabled(m_stories->playing()); });
}

void main_window::save_screenshot_dialog()
{
    const QString file = QFileDialog::getSaveFileName(this, tr("Save screenshot"),
        QStringLiteral("pcplab-%1.png").arg(qs(m_machine->setup().preset)), tr("PNG images (*.png)"));
    if (file.isEmpty()) return;
    if (grab().save(file, "PNG"))
        m_status->show_message(tr("Saved %1").arg(file));
    else
        m_status->show_message(tr("Could not write %1").arg(file));
}

} // namespace pcplab::ui
