// The window's recordings: recording the live run(s) (A and B in A/B mode) while File > Record is on, replaying
// a recording in the same views with a timeline bar, comparing recordings side by side, and exporting the
// current view as a figure. Each action returns "" or the problem, which is also shown in the status bar and
// names the file; the live machine is never stopped by a problem.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>

class QAction;
class QLabel;
class QMainWindow;
class QMenu;
class QToolBar;

namespace pcplab::ui
{

class controls_panel;
class frame_pump;
class frame_source;
class machine_control;
class recording_tap;
class replay_source;
class timeline_bar;
class view_area;
class window_status;

class session_control : public QObject
{
    Q_OBJECT
public:
    struct parts {
        QMainWindow* window; // the replay bar's home and the dialogs' parent
        machine_control* machine;
        frame_pump* pump;
        view_area* views;
        controls_panel* controls;
        window_status* status;
    };
    explicit session_control(const parts& p, QObject* parent = nullptr);
    ~session_control() override;

    // The File menu's entries (open, back to live, record, compare, export).
    void add_actions(QMenu* file);

    // Replays `path` (the live machine stops); on error the live machine keeps running.
    QString open_recording(const QString& path);
    void back_to_live();
    QString start_recording(const QString& path); // the live run(s) from now on
    QString stop_recording();
    bool recording() const;
    std::uint64_t recorded_snapshots() const; // written to the file so far by the recording in progress
    // A window with compare_view; needs two or more recordings, or one of an A/B pair.
    QString compare_recordings(const QStringList& paths);
    // One action: records the running A/B pair (to the user's data folder) until the run finishes or
    // finish_ab_comparison(), then opens Compare on A and B. "" or the problem.
    QString start_ab_comparison();
    QString finish_ab_comparison();
    QString comparison_file() const { return m_compare_path; } // while one is recorded
    // The current view's plot (PNG, SVG or PDF by the extension) at its size; a view without a plot as an
    // image of the view.
    QString export_figure(const QString& path);
    timeline_bar* timeline() const { return m_timeline; } // while replaying, else null
    QWidget* compare_window() const { return m_compare_window; }
    // Every frame: the REC label.
    void show_recording_state();

private:
    void begin_replay_ui(frame_source* s);
    void end_replay_ui(); // before the replay source goes: the timeline refers to it

    parts m_parts;
    std::shared_ptr<recording_tap> m_tap; // every live source publishes into it
    QToolBar* m_replay_bar = nullptr;
    timeline_bar* m_timeline = nullptr;
    QAction* m_record_action = nullptr;
    QAction* m_live_action = nullptr;
    QAction* m_record_compare_action = nullptr;
    QString m_compare_path; // the A/B comparison being recorded
    QLabel* m_status_record = nullptr;
    QPointer<QWidget> m_compare_window;
};

} // namespace pcplab::ui
