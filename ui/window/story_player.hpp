// Plays a seed story (lessons::seed_stories): boots the story's A/B pair (the seed's switch off on A, on on B),
// keeps it running (a finished workload starts again), and pauses at each checkpoint: the view where the
// patch shows fills the view area, and a caption under it says what to look at, with the figures of both
// machines and a Continue button. Stopping the story or choosing another machine puts the views back.
#pragma once

#include <QObject>
#include <QString>

#include <cstdint>
#include <optional>

namespace pcplab::lessons
{
struct story;
}

namespace pcplab::ui
{

class frame_pump;
class machine_control;
class story_caption;
class view_area;
class window_status;

class story_player : public QObject
{
    Q_OBJECT
public:
    struct parts {
        machine_control* machine;
        frame_pump* pump;
        view_area* views;
        window_status* status;
    };
    explicit story_player(const parts& p, QObject* parent = nullptr);

    // Starts the story of seed `id` ("000" .. "004"); "" or the problem (also shown in the status bar).
    QString start(const QString& id);
    // The machine keeps running, at the user's own speed and intensity; the views and the caption go back to
    // normal.
    void stop();
    bool playing() const { return m_story != nullptr; }
    const lessons::story* story() const { return m_story; }
    // The checkpoint shown now (-1: none, the story runs towards the next one).
    int checkpoint_shown() const { return m_shown; }
    int checkpoints_passed() const { return m_next; }
    void continue_story(); // leaves the checkpoint shown: the run goes on to the next one
    story_caption* caption() const { return m_caption; }

signals:
    void checkpoint_reached(int index);
    void finished_story(); // stopped, or replaced by another machine

private:
    void on_frame();
    void show_checkpoint(int index);
    void arm_next(std::uint64_t now_ns);

    parts m_parts;
    const lessons::story* m_story = nullptr;
    story_caption* m_caption = nullptr;
    int m_next = 0; // the next checkpoint to reach
    int m_shown = -1;
    std::optional<std::uint64_t> m_boot_end_ns; // virtual time at which this generation's boot ended
    std::uint64_t m_generation = 0;
    std::uint64_t m_target_ns = 0; // where the armed pause lands
    bool m_armed = false;
    bool m_starting = false; // install_custom in progress: its source change is the story's own
};

} // namespace pcplab::ui
