// The lessons dock: the lesson panel beside the views, made on first use. The panel asks, this does: a step's
// machine is booted paused at the step's speed, its flips and sysctl writes go to the running engine, its run
// resumes the machine until the step's virtual time (or the workload's end), its view is brought forward, and
// every snapshot the window takes in is handed to the panel to judge.
#pragma once

#include "ui/window/lesson_pacing.hpp"

#include "mm/patch_switches.hpp"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <chrono>
#include <optional>

class QDockWidget;
class QMainWindow;

namespace pcplab::lessons
{
struct engine_setup;
}

namespace pcplab::ui
{

class frame_pump;
class lesson_panel;
class machine_control;
class view_area;
class window_status;

class lesson_control : public QObject
{
    Q_OBJECT
public:
    struct parts {
        QMainWindow* window;
        QDockWidget* tab_beside; // the dock the lessons' tab joins (the controls)
        // The dock below it (the key figures): a tab beside the lessons while they are open, so that a step
        // has the column's height (at 1280x800 it left the lessons some 450 px); back below when they close.
        QDockWidget* below;
        machine_control* machine;
        frame_pump* pump;
        view_area* views;
        window_status* status;
    };
    explicit lesson_control(const parts& p, QObject* parent = nullptr);

    lesson_panel* panel(); // made on first use
    QDockWidget* dock() const { return m_dock; }
    // Whether the dock is shown with its tab in front. Qt 6 keeps a tab behind another "visible" (it moves it
    // out of sight), so isVisible() alone cannot tell.
    bool dock_in_front() const;
    // Shows the dock (made on first use) and brings its tab forward; `toggle`: hides a dock in front instead.
    void show_dock(bool toggle = false);
    bool open_lesson_id(const QString& id); // "03", "03-seed-000-...", or a seed "000"
    void open_lesson_file(const QString& path);
    void open_lesson_for_patch(mm::patch p); // the lesson its table entry names
    // Boots the machine a lesson step asks for, paused, at its speed. "" or the problem.
    QString start_lesson_machine(const lessons::engine_setup& es);
    void set_presenter(bool on);
    // How long a step's run lasts on screen when the lesson does not set a speed (0: as fast as it goes).
    void set_watch_time(std::chrono::milliseconds t) { m_pacing.watch = t; }
    // A step's run is on screen at the lesson's pace (lesson_pacing), not yet at its end.
    bool pacing_run() const { return m_run_until.has_value(); }
    // Leaves the lesson (closing its dock does): its machine keeps running, at the user's own speed and
    // intensity, and the view it asked for no longer stays forward. The panel keeps its place; its next run
    // sets the step's machine up again.
    void leave_lesson();
    // The dock below (the key figures) goes back below the controls when it is a tab beside them: what an
    // open lesson does to the layout is undone. Also used on a restored layout that was saved while a
    // lesson was open (the lessons' dock itself is not restored: it is made when a lesson opens).
    void give_back_height();

private:
    void ensure_dock();
    void connect_panel();
    void run_paced(qint64 ns); // a step's run (ns < 0: until the workload finishes)
    void pace(); // each frame while a run is paced: the pace now, or the end of the run
    void stop_pacing();
    void bring_forward(); // the dock shown, its tab in front, the dock below made a tab beside it
    void machine_left(); // the machine is not the lesson's any more

    parts m_parts;
    QDockWidget* m_dock = nullptr;
    lesson_panel* m_panel = nullptr;
    bool m_presenter = false;
    double m_lesson_speed = 0; // the speed the lesson's step asked for (0: none)
    bool m_machine_is_lessons = false; // the machine running now was set up by a step
    bool m_installing = false; // start_lesson_machine in progress: its source change is the lesson's own
    lesson_pacing m_pacing;
    std::optional<sim::vtime_ns> m_run_span; // the paced run's virtual span (nullopt: until the end)
    std::optional<sim::vtime_ns> m_run_until; // set while a run is paced: where it pauses
    QElapsedTimer m_run_clock; // wall time since the paced run began
};

} // namespace pcplab::ui
