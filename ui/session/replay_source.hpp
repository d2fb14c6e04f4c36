// A recording played back as a frame_source: the window polls latest_a() / take_published() as it would a live
// engine and gets the recorded snapshots, events, lock holds and commands included, so the views cannot tell
// the two apart. Playback moves along the run's timeline: one snapshot per tick ("every snapshot", speed 0) or
// at a rate of virtual time per wall second; pause, step, seek by virtual time. A recording of an A/B pair
// (runs of side 0 and 1) plays as a pair: B shows its snapshot at A's virtual time.
#pragma once

#include "ui/live/frame_source.hpp"
#include "ui/model/history.hpp"

#include "session/recording_reader.hpp"

#include <QElapsedTimer>
#include <QTimer>

#include <memory>
#include <string>
#include <vector>

namespace pcplab::ui
{

class replay_source : public frame_source
{
    Q_OBJECT
public:
    // Opens `path` (throws session::recording_error with a one-line message) and shows run `run` (0 = the first
    // with snapshots), paused at its first snapshot. With `tick_ms` 0 nothing advances by itself (tests).
    explicit replay_source(const std::string& path, std::int64_t run = 0, int tick_ms = 16, QObject* parent = nullptr);
    ~replay_source() override;

    std::shared_ptr<const sim::snapshot> latest_a() const override { return m_current; }
    std::shared_ptr<const sim::snapshot> latest_b() const override { return m_current_b; }
    bool is_ab() const override { return m_run_b != 0; }
    bool is_replay() const override { return true; }
    // Every snapshot passed since the previous call, oldest first (at most MAX_TAKEN: a fast replay skips the
    // older ones as a live window would); after a jump, only where it landed.
    std::vector<published_pair> take_published() override;
    static constexpr std::size_t MAX_TAKEN = 256;
    void pause() override;
    void resume() override;
    void step() override; // pauses, then the next snapshot
    void set_speed(double vns_per_wall_s) override; // 0: every snapshot, one per tick
    bool seek(qint64 t_ns) override; // the last snapshot at or before t_ns
    qint64 duration_ns() const override;
    void stop() override;

    bool playing() const { return m_playing; }
    double speed() const { return m_speed; }
    qint64 position_ns() const; // virtual time of the current snapshot
    qint64 start_ns() const; // virtual time of the first snapshot (the timeline runs from here to duration_ns)
    std::size_t position_index() const { return m_pos; }
    std::size_t snapshot_count() const { return m_index.size(); }
    // The pace the recording was made at (virtual ns per wall second), 0 when unknown (a CLI recording).
    double recorded_speed() const { return m_recorded_speed; }
    const session::recording& recording() const { return *m_rec; }
    std::int64_t run() const { return m_run; }
    std::int64_t run_b() const { return m_run_b; } // the B side's run of an A/B recording, else 0

    // Rebuilds a history as if every snapshot up to the current one had been seen (after a backward seek a
    // history that only ever appends would otherwise keep the future). Returns the snapshots fed.
    std::size_t refill_history(history& h) const;

    // Advances as one timer tick would, `wall_ms` after the previous one (tests drive playback with it).
    void tick(double wall_ms);

signals:
    void position_changed(qint64 t_ns);
    void rewound(); // the timeline went backwards: histories should be refilled (refill_history)
    void reached_end();
    void playing_changed(bool playing);

private:
    void go_to(std::size_t i);
    std::shared_ptr<const sim::snapshot> b_at(sim::vtime_ns t) const;
    std::unique_ptr<session::recording> m_rec;
    std::int64_t m_run = 0;
    std::int64_t m_run_b = 0; // the B side's run of an A/B recording, else 0
    std::shared_ptr<const sim::snapshot> m_current_b;
    std::size_t m_delivered = 0; // position of the last snapshot take_published() handed out
    bool m_jumped = true; // the next take_published() returns only the current pair
    std::vector<session::snapshot_ref> m_index;
    std::size_t m_pos = 0;
    std::shared_ptr<const sim::snapshot> m_current;
    bool m_playing = false;
    double m_speed = 0;
    double m_recorded_speed = 0;
    double m_virtual_pos = 0; // ns, advanced by speed x wall time while playing
    QTimer m_timer;
    QElapsedTimer m_wall;
};

} // namespace pcplab::ui
