// The live window, composed of parts with one job each (as hotspot's MainWindow composes its pages):
//   machine_control   the source the views watch (live engine, A/B pair, replay) and its lifetime
//   session_control   record, replay, compare, export
//   lesson_control    the lessons dock
//   window_status     the status bar
//   presenter_mode    theme and presenter mode
//   story_player      the seed stories and their checkpoints
// plus the views (view_area) fed by a frame_pump, the controls dock and the key figures dock. The window
// builds them, wires them together, builds the menus and remembers the layout.
#pragma once

#include "ui/live/run_setup.hpp"
#include "ui/window/command_line.hpp"

#include <QMainWindow>

#include <memory>

class QAction;
class QDockWidget;
class QSettings;

namespace pcplab::ui
{

class controls_panel;
class delta_panel;
class frame_pump;
class frame_source;
class lesson_control;
class machine_control;
class presenter_mode;
class session_control;
class story_player;
class view_area;
class window_status;

class main_window : public QMainWindow
{
    Q_OBJECT
public:
    explicit main_window(const window_options& opt = {}, QWidget* parent = nullptr);
    ~main_window() override; // stops the engines and joins every thread the window started

    machine_control* machine() const { return m_machine; }
    session_control* session() const { return m_session; }
    lesson_control* lessons() const { return m_lessons; }
    window_status* status() const { return m_status; }
    presenter_mode* look() const { return m_look; }
    story_player* stories() const { return m_stories; }
    frame_pump* pump() const { return m_pump; }
    view_area* views() const { return m_views; }
    controls_panel* controls() const { return m_controls; }
    delta_panel* deltas() const { return m_deltas; }

    frame_source* source() const; // the machine's
    const run_setup& setup() const; // the machine's
    QString last_message() const; // the status bar's
    // Play / pause as the button and Space do it: at a story's checkpoint, the story continues.
    void play_pause();

protected:
    void closeEvent(QCloseEvent* e) override;
    void showEvent(QShowEvent* e) override;

private:
    void build_menus();
    void build_switch_actions(QMenu* menu);
    void build_story_menu(QMenu* menu);
    void connect_controls();
    void on_frame();
    void fit_controls();
    void update_title();
    run_setup initial_setup(const window_options& opt) const;
    void restore_settings(bool fill_screen_when_new);
    void fit_to_screen();
    void save_settings();
    void save_screenshot_dialog();

    std::unique_ptr<QSettings> m_settings; // null when settings are not used
    frame_pump* m_pump = nullptr;
    view_area* m_views = nullptr;
    controls_panel* m_controls = nullptr;
    delta_panel* m_deltas = nullptr;
    QDockWidget* m_controls_dock = nullptr;
    QDockWidget* m_deltas_dock = nullptr;
    QAction* m_ab_action = nullptr;
    window_status* m_status = nullptr;
    machine_control* m_machine = nullptr;
    session_control* m_session = nullptr;
    lesson_control* m_lessons = nullptr;
    presenter_mode* m_look = nullptr;
    story_player* m_stories = nullptr;
};

} // namespace pcplab::ui
