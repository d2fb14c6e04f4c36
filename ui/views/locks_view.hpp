// zone->lock: a lane per zone with the holds as they happen (colour = holder's node, label = caller) over the
// number of CPUs waiting, scrolling live with virtual time; under it the hold-time histogram of the selected
// zone with the threshold line. Holds come from the history when the engine keeps them
// (engine_config::keep_holds); otherwise the view says so and shows the aggregate per caller.
// Mouse: wheel zooms the time window, double click follows "now" again (and the automatic window).
#pragma once

#include "views/lock_paint.hpp"
#include "views/view.hpp"

namespace pcplab::ui
{

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

public slots:
    void seek_to(qint64 t_ns) override;

protected:
    void paintEvent(QPaintEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;

private:
    std::vector<lane_input> lanes() const;

    frame m_frame; // pointers into the window's histories, valid until the next show_frame
    std::vector<hold_hit> m_hits;
    std::int64_t m_window_ns = 2'000'000; // virtual time the lanes span
    bool m_auto_window = true; // follow the pace of the run until the user zooms
    bool m_follow = true;
    std::int64_t m_end_ns = 0; // the window's end when not following
};

} // namespace pcplab::ui
