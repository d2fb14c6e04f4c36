// The live window: the views (view_area) fed by a frame_pump from a live source, the controls dock, the key
// figures dock (A/B deltas), menus with a shortcut for every switch and run control, themes, presenter mode and
// remembered layout. Every control acts on the running machine: switches, sysctls, intensity, workload and run
// control are engine commands; a preset, era or seed change reboots with a new engine configuration; A/B on or
// off starts a new pair (the old engines are stopped on a helper thread, so the window never waits for them).
#pragma once

#include "live/frame_source.hpp"
#include "live/run_setup.hpp"
#include "window/command_line.hpp"
#include "window/theme.hpp"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QPointer>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QSettings;
class QToolBar;

namespace pcplab::lessons
{
struct engine_setup;
}

namespace pcplab::ui
{

class controls_panel;
class delta_panel;
class frame_pump;
class lesson_panel;
class recording_tap;
class replay_source;
class timeline_bar;
class view_area;

class main_window : public QMainWindow
{
    Q_OBJECT
public:
    explicit main_window(const window_options& opt = {}, QWidget* parent = nullptr);
    ~main_window() override; // stops the engines and joins every thread the window started

    frame_source* source() const { return m_source.get(); }
    frame_pump* pump() const { return m_pump; }
    view_area* views() const { return m_views; }
    controls_panel* controls() const { return m_controls; }
    delta_panel* deltas() const { return m_deltas; }
    const run_setup& setup() const { return m_setup; }
    QString last_message() const { return m_last_message; }
    std::size_t retiring_sources() const; // old sources still stopping

    // Starts the machine of `s` (in place when the source can reboot with it). Returns "" or the error, which
    // is also shown in the status bar; the running machine is kept on error.
    QString apply_setup(const run_setup& s);
    // Watch another source (a replay): the current one is stopped, the histories start again. The controls
    // keep acting through the frame_source interface (a replay refuses the live-only commands).
    void open_source(std::unique_ptr<frame_source> s);
    void choose_preset(const QString& name);
    void choose_era(const QString& era);
    void choose_seed(quint64 seed);
    void set_ab(bool on);
    // A switch flip as the UI makes it: side 0 = A (or the single machine), 1 = B.
    void flip_switch(int side, mm::patch p, bool on);
    void set_speed(double vns_per_wall_s);
    double speed() const { return m_speed; }
    void play_pause();

    // Recordings (session_actions.cpp). Each returns "" or the problem, which is also shown in the status bar;
    // the menu actions ask for the files and show a problem in a message box as well.
    // Replays `path` (the live machine stops); on error the live machine keeps running.
    QString open_recording(const QString& path);
    void back_to_live(); // a new live machine with the current setup (or the lesson's machine)
    QString start_recording(const QString& path); // the live run(s) from now on, A and B in A/B mode
    QString stop_recording();
    bool recording() const;
    std::uint64_t recorded_snapshots() const; // written to the file so far by the recording in progress
    QString compare_recordings(const QStringList& paths); // a window with compare_view; needs two or more
    // The current view's plot (PNG, SVG or PDF by the extension) at its size; a view without a plot as an
    // image of the view.
    QString export_figure(const QString& path);
    timeline_bar* timeline() const; // while replaying, else null
    QWidget* compare_window() const { return m_compare_window; }

    // Lessons (lesson_dock.cpp): the dock with the lesson panel, made on first use.
    lesson_panel* lessons_panel();
    QDockWidget* lessons_dock() const { return m_lesson_dock; }
    bool open_lesson_id(const QString& id); // "03", "03-seed-000-...", or a seed "000"
    void open_lesson_file(const QString& path);
    // Boots the machine a lesson step asks for, paused, at its speed. "" or the problem.
    QString start_lesson_machine(const lessons::engine_setup& es);
    // Runs the live machine for `ns` of virtual time, then pauses (-1: until the workload finishes).
    void run_for(qint64 ns);

    void set_theme(theme_kind t);
    theme_kind theme() const { return m_theme; }
    void set_presenter(bool on);
    bool presenter() const { return m_presenter; }

protected:
    void closeEvent(QCloseEvent* e) override;

private:
    void build_menus();
    void build_switch_actions(QMenu* menu);
    void connect_controls();
    void on_frame();
    void show_message(const QString& text, int ms = 8000);
    void fit_controls();
    void update_title();
    void retire(std::unique_ptr<frame_source> old);
    void reap_retired(bool wait);
    run_setup initial_setup(const window_options& opt);
    void restore_settings();
    void save_settings();
    void step_speed(int direction);
    void save_screenshot_dialog();
    void open_lesson(int seed);

    struct machine_extras {
        sim::workload_factory make_load; // a lesson's workload with its tunables
        bool start_paused = false;
        std::optional<double> speed;
    };
    void install_setup(const run_setup& s, resolved_setup r, machine_extras x);
    void build_session_actions(QMenu* file);
    void begin_replay_ui(replay_source* r);
    void end_replay_ui(); // before the replay source goes: the timeline refers to it
    void show_recording_state();
    void ensure_lesson_dock();
    void connect_lesson_panel();

    window_options m_opt;
    std::unique_ptr<QSettings> m_settings; // null when settings are not used
    run_setup m_setup;
    resolved_setup m_resolved;
    std::unique_ptr<frame_source> m_source;
    struct retired {
        std::unique_ptr<frame_source> source;
        std::thread stopper;
        std::shared_ptr<std::atomic<bool>> done;
    };
    std::vector<retired> m_retired;
    frame_pump* m_pump = nullptr;
    view_area* m_views = nullptr;
    controls_panel* m_controls = nullptr;
    delta_panel* m_deltas = nullptr;
    QDockWidget* m_controls_dock = nullptr;
    QDockWidget* m_deltas_dock = nullptr;
    QLabel* m_status_state = nullptr;
    QLabel* m_status_rate = nullptr;
    QAction* m_presenter_action = nullptr;
    QAction* m_dark_action = nullptr;
    QAction* m_ab_action = nullptr;
    double m_speed = 1e9;
    theme_kind m_theme = theme_kind::light;
    bool m_presenter = false;
    bool m_was_maximized = false;
    QFont m_base_font;
    QString m_last_message;
    QString m_boot_message; // shown until the machine leaves booting
    QElapsedTimer m_clock;
    qint64 m_boot_done_at = 0; // m_clock ms when the last boot was seen finished; -1 while booting
    std::uint64_t m_commands_seen = 0;
    std::uint64_t m_sync_from_generation = 0; // switch boxes follow snapshots of this generation on

    std::shared_ptr<recording_tap> m_tap; // every live source publishes into it
    std::uint64_t m_source_serial = 0;
    bool m_custom_load = false; // the live source runs a lesson's workload: never reboot it with another setup
    std::shared_ptr<const lessons::engine_setup> m_lesson_machine; // the live machine is this lesson step's
    QToolBar* m_replay_bar = nullptr;
    timeline_bar* m_timeline = nullptr;
    QAction* m_record_action = nullptr;
    QAction* m_live_action = nullptr;
    QLabel* m_status_record = nullptr;
    QPointer<QWidget> m_compare_window;
    QDockWidget* m_lesson_dock = nullptr;
    lesson_panel* m_lesson_panel = nullptr;
};

} // namespace pcplab::ui
