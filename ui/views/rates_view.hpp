// Rates over virtual time, four stacked plots sharing the time axis: allocations served from the PCP lists vs
// pages taken from the zone (per second); zone->lock contention, the share of each moment's time during which
// at least one CPU waited for the lock (per zone of the type chosen in the header: the same figure as the
// header's whole-run contention, sim::contention_pct, so it never passes 100 %); sys vs user share of CPU time;
// and the workload's score per second. A/B: both machines overlaid (A and B by colour) and the key deltas in
// the header.
#pragma once

#include "ui/views/frame_gate.hpp"
#include "ui/views/view.hpp"
#include "ui/views/zone_picker.hpp"

#include <memory>

class QCustomPlot;

namespace pcplab::ui
{

class header_line;
class time_follow;

class rates_view : public view
{
    Q_OBJECT
public:
    explicit rates_view(QWidget* parent = nullptr);
    ~rates_view() override;
    QString view_id() const override { return QStringLiteral("rates"); }
    QString title() const override { return tr("Rates"); }
    void show_frame(const frame& f) override;
    void reset() override;
    QSize sizeHint() const override { return {720, 520}; }
    QString header_text() const; // for the tests
    zone_picker* picker() const { return m_picker; }
    // The largest value of the contention plot's lines in the visible span, in % (for the tests).
    double contention_max() const;
    int contention_points(int side) const; // points in a side's contention lines (for the tests)

public slots:
    void seek_to(qint64 t_ns) override;

protected:
    void changeEvent(QEvent* e) override;
    void showEvent(QShowEvent* e) override;
    bool eventFilter(QObject* o, QEvent* e) override;

private:
    struct plots;
    void rebuild(const frame& f);
    void fill(const frame& f, int side);
    void fit_axes();
    void restyle();
    void show_last_again(); // the last frame laid out again (a new size or font)
    QString layout_key(const frame& f) const;

    QCustomPlot* m_plot;
    zone_picker* m_picker;
    header_line* m_header;
    time_follow* m_follow;
    std::unique_ptr<plots> m_p;
    QString m_layout;
    frame_gate m_gate;
    frame m_last; // the newest frame given (its histories stay valid until the next one): redrawn on a new zone
    bool m_in_show = false;
};

} // namespace pcplab::ui
