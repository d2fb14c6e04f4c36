// Rates over virtual time, four stacked plots sharing the time axis: allocations served from the PCP lists vs
// pages taken from the zone (per second), zone->lock contention % per zone, sys vs user share of CPU time,
// and the workload's score per second. A/B: both machines overlaid (A and B by colour) and the key deltas in
// the header.
#pragma once

#include "views/frame_gate.hpp"
#include "views/view.hpp"

#include <memory>

class QCustomPlot;
class QCPGraph;
class QCPTextElement;

namespace pcplab::ui
{

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

public slots:
    void seek_to(qint64 t_ns) override;

protected:
    void changeEvent(QEvent* e) override;
    void showEvent(QShowEvent* e) override;

private:
    struct plots;
    void rebuild(const frame& f);
    void fill(const frame& f, int side);
    void restyle();

    QCustomPlot* m_plot;
    time_follow* m_follow;
    std::unique_ptr<plots> m_p;
    QString m_layout;
    frame_gate m_gate;
};

} // namespace pcplab::ui
