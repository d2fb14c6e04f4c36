// Batch and high over time: per zone (the zone chosen in the header, or every node's zone of a type, one stacked
// plot each) the
// zone's batch and high as step plots, high_min/high_max on v6.7+, the band of the per-CPU auto-tuned high
// over all CPUs, and event markers (limit changes, per-CPU high changes, deferred init done, reclaim, switch
// flips) whose cause shows on hover. A/B: both machines overlaid, A and B told apart by colour.
#pragma once

#include "ui/views/frame_gate.hpp"
#include "ui/views/series.hpp"
#include "ui/views/view.hpp"
#include "ui/views/zone_picker.hpp"

#include <map>
#include <memory>
#include <vector>

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QCPItemText;
class QCPLegend;

namespace pcplab::ui
{

class header_line;
class time_follow;

class limits_view : public view
{
    Q_OBJECT
public:
    explicit limits_view(QWidget* parent = nullptr);
    ~limits_view() override;
    QString view_id() const override { return QStringLiteral("limits"); }
    QString title() const override { return tr("Batch and high"); }
    void show_frame(const frame& f) override;
    void reset() override;
    QSize sizeHint() const override { return {720, 420}; }

    // The cause text of the marker nearest to `pos` (within a few pixels), empty when none; for the tests.
    QString marker_tooltip_at(const QPoint& pos) const;
    int zone_plots() const { return static_cast<int>(m_zones.size()); }
    QString zone_note(int i) const; // the "at boot" note of zone plot i
    // Pixel position of the first limit-change marker of zone plot i (side A), or (-1, -1); for the tests.
    QPoint first_limit_marker(int i) const;
    zone_picker* picker() const { return m_picker; }
    QString zone_plot_label(int i) const; // "node 1 Normal" (for the tests)
    int high_points(int i, int side) const; // points in zone plot i's "high" line of a side (for the tests)

public slots:
    void seek_to(qint64 t_ns) override;

protected:
    void changeEvent(QEvent* e) override;
    void showEvent(QShowEvent* e) override;
    bool eventFilter(QObject* o, QEvent* e) override;

private:
    struct zone_plot;
    void rebuild_layout(const frame& f);
    void feed(const frame& f, int side);
    void restyle();
    void show_last_again(); // the last frame laid out again (a new size or font)
    QString layout_key(const frame& f) const;
    void refit_legend();
    // The note's lines that fit plot `r` whole (empty when fewer than a heading and one line do).
    QString fit_note(const QStringList& lines, const QCPAxisRect* r) const;
    void fit_headroom(zone_plot& zp) const; // the y range that keeps the lines under the note

    QCustomPlot* m_plot;
    zone_picker* m_picker;
    header_line* m_header;
    time_follow* m_follow;
    std::vector<std::unique_ptr<zone_plot>> m_zones;
    QString m_layout;
    bool m_tuned = false; // v6.7+: high_min/high_max are limits of their own
    frame_gate m_gate;
    QCPLegend* m_legend = nullptr; // owned by the plot's layout
    // A legend entry: one machine's line, or in A/B A's and B's lines of a kind with their shared text.
    struct legend_entry {
        QCPGraph* a = nullptr;
        QCPGraph* b = nullptr; // null outside A/B
        QString text; // what the entry says
    };
    std::vector<legend_entry> m_legend_order; // the legend's candidates, most important first
    sample_cursor m_samples[2];
    entry_cursor m_events[2];
    frame m_last; // the newest frame given (its histories stay valid until the next one): redrawn on a new zone
    bool m_in_show = false;
};

} // namespace pcplab::ui
