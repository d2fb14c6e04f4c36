// zone->lock: a lane per zone of the type chosen in the header (or the one zone chosen) with the lock's holds as
// they happen over the CPUs waiting for it, scrolling live with virtual time. Each pixel column is shaded by the
// share of its time the lock was held (colour = the holder's node; holds wide enough carry their caller's
// name), the waiting area under it by the mean number of CPUs waiting. Under the lanes the hold-time histogram
// of the chosen zone (of the busiest one when all nodes are chosen) with the threshold line. Holds come from the
// history when the engine keeps them (engine_config::keep_holds); otherwise each lane shows the aggregate per
// caller. Mouse: wheel zooms the time window, double click follows "now" again (and the automatic window).
#pragma once

#include "ui/views/lock_paint.hpp"
#include "ui/views/view.hpp"
#include "ui/views/zone_picker.hpp"

namespace pcplab::ui
{

class header_line;

class locks_view : public view
{
    Q_OBJECT
public:
    explicit locks_view(QWidget* parent = nullptr);
    QString view_id() const override { return QStringLiteral("locks"); }
    QString title() const override { return tr("zone->lock"); }
    void show_frame(const frame& f) override;
    void reset() override;
    QSize sizeHint() const override { return {720, 480}; }

    QString tooltip_at(const QPoint& pos) const override; // for the tests
    std::int64_t window_ns() const { return m_window_ns; }
    int holds_drawn() const { return static_cast<int>(m_hits.size()); } // wide holds of the last paint
    int zones_left_out() const { return m_left_out; } // chosen zones with no room for a lane in the last paint
    zone_picker* picker() const { return m_picker; }
    // The zone of A's snapshot whose histogram is shown (the chosen one, or the busiest of the type), or -1.
    int histogram_zone() const;

public slots:
    void seek_to(qint64 t_ns) override;

protected:
    void paintEvent(QPaintEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;

private:
    // The lanes of the chosen zones, at most `max_lanes`; `left_out` gets how many zones did not fit.
    std::vector<lane_input> lanes(int max_lanes, int& left_out) const;

    frame m_frame; // pointers into the window's histories, valid until the next show_frame
    zone_picker* m_picker;
    header_line* m_header;
    QWidget* m_bar;
    std::vector<hold_hit> m_hits;
    int m_left_out = 0;
    std::int64_t m_window_ns = 2'000'000; // virtual time the lanes span
    bool m_auto_window = true; // follow the pace of the run until the user zooms
    bool m_follow = true;
    std::int64_t m_end_ns = 0; // the window's end when not following
};

} // namespace pcplab::ui
