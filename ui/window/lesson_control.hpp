// The lessons dock: the lesson panel beside the views, made on first use. The panel asks, this does: a step's
// machine is booted paused at the step's speed, its flips and sysctl writes go to the running engine, its run
// resumes the machine until the step's virtual time (or the workload's end), its view is brought forward, and
// every snapshot the window takes in is handed to the panel to judge.
#pragma once

#include <QObject>
#include <QString>

#include <chrono>

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
    void open_lesson_for_seed(int seed);
    // Boots the machine a lesson step asks for, paused, at its speed. "" or the problem.
    QString start_lesson_machine(const lessons::engine_setup& es);
    void set_presenter(bool on);
    // How long a step's run lasts on screen when the lesson does not set a speed (0: as fast as it goes).
    void set_watch_time(std::chrono::milliseconds t) { m_watch = t; }

private:
    void ensure_dock();
    void connect_panel();

    parts m_parts;
    QDockWidget* m_dock = nullptr;
    lesson_panel* m_panel = nullptr;
    bool m_presenter = false;
    double m_lesson_speed = 0; // the speed the lesson's step asked for (0: none)
    std::chrono::milliseconds m_watch{4000};
};

} // namespace pcplab::ui
