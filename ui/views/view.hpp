// The contract every live view follows: one QWidget per view, fed a `frame` (the newest snapshot of side A,
// and of side B in A/B mode, with the history accumulated from every snapshot seen so far). Views never
// talk to an engine: a live run and a replay produce the same frames, so a view cannot tell them apart.
#pragma once

#include "ui/model/history.hpp"

#include "sim/snapshot.hpp"

#include <QString>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

namespace pcplab::ui
{

struct frame {
    std::shared_ptr<const sim::snapshot> a; // never null when a view is updated
    std::shared_ptr<const sim::snapshot> b; // the B side of an A/B pair, else null
    const history* ha = nullptr; // never null
    const history* hb = nullptr; // null unless b
};

class view : public QWidget
{
    Q_OBJECT
public:
    using QWidget::QWidget;
    // Stable short name used by `pcplab --view NAME`, lesson steps and QSettings: one of lessons::view_ids().
    virtual QString view_id() const = 0;
    virtual QString title() const = 0; // for tabs and docks
    // Called at most 60 times per wall second with the newest frame. Must be cheap: repaint, do not rebuild
    // what has not changed (compare snapshot seq numbers).
    virtual void show_frame(const frame& f) = 0;
    // A new machine (reboot, preset change, replay opened): drop cached state.
    virtual void reset() { }
    // The tooltip for what lies under `pos` (empty: the widget's own toolTip(), if any). Public for the tests.
    virtual QString tooltip_at(const QPoint& pos) const { return {}; }

signals:
    // A view asks the others to move their time axis to `t_ns` (the event log on selection).
    void seek_requested(qint64 t_ns);

protected:
    bool event(QEvent* e) override; // shows tooltip_at() (ui/views/view.cpp)

public slots:
    // Move the time axis so that t_ns is visible (views without a time axis ignore it).
    virtual void seek_to(qint64 t_ns) { }
};

// Every view, in display order, parented to `parent` (ui/views/view_registry.cpp).
std::vector<view*> make_views(QWidget* parent);

} // namespace pcplab::ui
