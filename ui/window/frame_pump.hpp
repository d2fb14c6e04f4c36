// Moves snapshots from a frame_source into the views: a QTimer (at most 60 Hz) takes every publication since
// the last tick into one history per side, then hands the newest frame to the views that are visible. Nothing
// new, nothing repainted; a hidden view gets the current frame when it is shown. Repaints are thereby
// coalesced to one per tick, however fast the engine publishes.
#pragma once

#include "ui/live/frame_source.hpp"
#include "ui/model/history.hpp"
#include "ui/views/view.hpp"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <deque>
#include <functional>
#include <memory>
#include <vector>

namespace pcplab::ui
{

class frame_pump : public QObject
{
    Q_OBJECT
public:
    explicit frame_pump(QObject* parent = nullptr);

    // The views to feed (not owned); their seek_requested signals are connected to every view's seek_to.
    void set_views(const std::vector<view*>& views);
    // A new source (or none): histories cleared, views reset. Not owned.
    void set_source(frame_source* s);
    frame_source* source() const { return m_source; }
    void set_max_hz(double hz); // capped at 60
    double max_hz() const { return m_hz; }

    const history& history_a() const { return m_ha; }
    const history& history_b() const { return m_hb; }
    std::shared_ptr<const sim::snapshot> shown_a() const { return m_a; }
    std::shared_ptr<const sim::snapshot> shown_b() const { return m_b; }
    // Ticks that handed a frame to the views, and snapshots taken in, since set_source (tests, status bar).
    std::uint64_t frames_shown() const { return m_frames; }
    std::uint64_t snapshots_taken() const { return m_taken; }
    // The results of the commands the engines handled, newest last (the last 64), and how many there were in
    // all since set_source: the window reports refused commands from them.
    const std::deque<sim::command_result>& recent_results() const { return m_results; }
    std::uint64_t results_total() const { return m_results_total; }
    // Wall milliseconds the last tick spent in the views' show_frame.
    double last_show_ms() const { return m_last_show_ms; }

    // Takes what is new and shows it now (the screenshot path; also what each timer tick does).
    void pump_now();
    // Shows the current frame again on the visible views (the layout changed).
    void refresh();
    // Starts the histories again from what `fill` puts into A's (a replay that went back or jumped: a history
    // only ever appends), B's empty, and shows the source's current pair.
    void rebuild_history(const std::function<void(history& a)>& fill);

signals:
    // After the views were given a new frame.
    void frame_shown();
    // Every publication taken in, oldest first, before the views see the newest (the lesson panel follows
    // each snapshot of the machine).
    void taken(const pcplab::ui::published_pair& p);
    // A new machine started (reboot, preset change, new source): the histories were cleared.
    void machine_changed();

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    frame make_frame() const;
    void show_to(view* v, const frame& f);
    void reset_views();
    void note_results(const sim::snapshot& s);

    QTimer m_timer;
    double m_hz = 60;
    QPointer<frame_source> m_source;
    std::vector<QPointer<view>> m_views;
    history m_ha, m_hb;
    std::shared_ptr<const sim::snapshot> m_a, m_b;
    std::uint64_t m_generation = 0;
    bool m_have_generation = false;
    std::uint64_t m_frames = 0, m_taken = 0;
    double m_last_show_ms = 0;
    std::deque<sim::command_result> m_results;
    std::uint64_t m_results_total = 0;
};

} // namespace pcplab::ui
