// The replay's timeline: play/pause, step, a slider over the run's virtual time (drag to scrub), the speed, and
// the position as "1.234 s / 5.000 s". Drives a replay_source and follows it.
#pragma once

#include <QWidget>

#include <utility>
#include <vector>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace pcplab::ui
{

class replay_source;

class timeline_bar : public QWidget
{
    Q_OBJECT
public:
    explicit timeline_bar(replay_source* source, QWidget* parent = nullptr);

    // The speeds offered, in virtual ns per wall second (0 = every snapshot, one per frame).
    static const std::vector<std::pair<QString, double>>& speed_choices();
    // The speed a replay starts at: one a person can follow, so that the run takes at least FOLLOW_WALL_S
    // seconds to play (a 2 s run at 100 ms/s), never faster than it was recorded, and at least 1 ms/s.
    static double starting_speed(double span_ns, double recorded_speed);
    static constexpr double FOLLOW_WALL_S = 15;

    QSlider* slider() const { return m_slider; }
    QToolButton* play_button() const { return m_play; }
    QComboBox* speed_box() const { return m_speed; }
    QLabel* time_label() const { return m_time; }

private slots:
    void follow(qint64 t_ns);

private:
    static constexpr int SLIDER_STEPS = 10000;
    replay_source* m_source;
    QToolButton* m_play;
    QToolButton* m_step;
    QSlider* m_slider;
    QComboBox* m_speed;
    QLabel* m_time;
};

} // namespace pcplab::ui
