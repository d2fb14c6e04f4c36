// The lesson panel: the lessons and the progress in each, a step's prose, the prediction prompt (choices or a
// number), the live check, and the reveal with the paper's number beside the simulated one. Large-font
// friendly (presenter mode).
//
// It knows nothing of the main window. It asks for what it needs with signals and judges the snapshots it is
// given:
//   setup_requested(setup)        boot a new machine: setup->config and setup->make_load (workload tunables),
//                                 start it paused, set setup->speed_vns_per_s
//   flip_requested / sysctl_requested   change the running machine (engine set_patch / set_sysctl)
//   run_requested(duration_ns)    run for that much virtual time, then pause (-1: until the workload finishes)
//   highlight_requested(view_id)  bring that view to the front ("pcp", "locks", "limits", ...)
//   on_snapshot(snapshot)         every snapshot of the machine, in order (the step's events come from them)
#pragma once

#include "lessons/lesson.hpp"
#include "lessons/lesson_setup.hpp"
#include "ui/lessons/step_tracker.hpp"

#include "sim/snapshot.hpp"

#include <QWidget>

#include <array>
#include <memory>
#include <set>
#include <vector>

class QButtonGroup;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QTableWidget;
class QTextBrowser;
class QVBoxLayout;

namespace pcplab::ui
{

class lesson_panel : public QWidget
{
    Q_OBJECT
public:
    explicit lesson_panel(lessons::lesson_set set, QWidget* parent = nullptr);

    const lessons::lesson_set& lesson_set() const { return m_set; }
    int current_lesson() const { return m_lesson; }
    int current_step() const { return m_step; }
    // Steps of a lesson whose answer was revealed.
    int steps_done(int lesson) const;

    enum class check_status { none, waiting, running, passed, failed };
    check_status status() const;
    QString check_text() const; // the checks with their values, one per line
    bool prediction_given() const { return m_predicted; }
    bool prediction_right() const { return m_prediction_right; }
    bool can_reveal() const;
    bool revealed() const { return m_revealed; }
    QString reveal_text() const; // the rendered reveal (Markdown)
    // The figures as shown: label, paper, simulated.
    std::vector<std::array<QString, 3>> figure_rows() const;
    bool presenter_mode() const { return m_presenter; }
    QDoubleSpinBox* number_box() const { return m_number_box; }
    QPushButton* run_button() const { return m_run; }
    const QProgressBar* run_progress() const { return m_progress; }
    QWidget* answer_box() const; // the revealed answer (tests)
    QString check_head() const; // the line above the checks (tests)

public slots:
    void select_lesson(int index);
    void go_to_step(int index);
    void next_step();
    void previous_step();
    void choose(int choice_index); // multiple choice: select a choice
    void enter_number(double v); // a number prediction
    void submit_prediction();
    void run_step(); // set up (if the step boots), flips, writes, run
    void reveal();
    void set_presenter_mode(bool on);
    // The machine is no longer the lesson's (another was chosen, or the lesson was left): a step under way
    // stops, and the next run sets its step's machine up again.
    void machine_left();
    void on_snapshot(std::shared_ptr<const sim::snapshot> snapshot);

signals:
    void setup_requested(std::shared_ptr<const pcplab::lessons::engine_setup> setup);
    void run_requested(qint64 duration_ns);
    void flip_requested(mm::patch p, bool on);
    void sysctl_requested(mm::vm_sysctl which, long value);
    void highlight_requested(const QString& view_id);
    void progress_changed(int lesson, int steps_done);

protected:
    void changeEvent(QEvent* e) override;

private:
    static constexpr double NO_NUMBER = -1e12; // the number box's minimum: nothing entered yet

    const lessons::lesson* lesson_now() const;
    const lessons::step* step_now() const;
    void build();
    void show_step();
    void show_prediction(const lessons::step& s);
    QString run_label() const; // the run button's words, which the hint repeats
    void bring_answer_into_view(); // scrolls the step to the revealed answer
    void refresh_check();
    void refresh_reveal();
    void refresh_lesson_list();
    void apply_fonts();
    void send_actions(const lessons::step& s);

    lessons::lesson_set m_set;
    int m_lesson = -1;
    int m_step = 0;
    step_tracker m_tracker;
    std::shared_ptr<const sim::snapshot> m_latest;
    std::vector<std::set<int>> m_done; // per lesson: revealed steps
    bool m_machine_set = false; // this lesson has set up a machine
    bool m_predicted = false;
    bool m_prediction_right = false;
    int m_choice = -1;
    double m_number = 0;
    bool m_revealed = false;
    bool m_presenter = false;

    QListWidget* m_list = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_step_label = nullptr;
    QScrollArea* m_step_scroll = nullptr;
    QTextBrowser* m_prose = nullptr;
    QGroupBox* m_predict_box = nullptr;
    QLabel* m_question = nullptr;
    QVBoxLayout* m_choices_layout = nullptr;
    QButtonGroup* m_choices = nullptr;
    QDoubleSpinBox* m_number_box = nullptr;
    QPushButton* m_lock_in = nullptr;
    QLabel* m_prediction_note = nullptr;
    QPushButton* m_run = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_check = nullptr;
    QGroupBox* m_reveal_box = nullptr;
    QTextBrowser* m_reveal = nullptr;
    QTableWidget* m_figures = nullptr;
    QPushButton* m_reveal_button = nullptr;
    QPushButton* m_prev = nullptr;
    QPushButton* m_next = nullptr;
};

} // namespace pcplab::ui

Q_DECLARE_METATYPE(std::shared_ptr<const pcplab::lessons::engine_setup>)
