// Per-CPU list depths: each CPU's pcp->count drawn against its pcp->high, with pcp->batch marked, grouped by node,
// in the zone chosen in the header: by default each CPU's own node's Normal zone (where its allocations go), or
// one node's zone for every CPU. Bars while they are wide enough to read; a grid of small gauges for many CPUs
// (316 CPUs stay readable). In A/B mode the two machines sit side by side on one scale.
#pragma once

#include "ui/views/view.hpp"
#include "ui/views/zone_picker.hpp"

#include <QLine>
#include <QRect>
#include <QVector>

#include <vector>

namespace pcplab::ui
{

class pcp_view : public view
{
    Q_OBJECT
public:
    explicit pcp_view(QWidget* parent = nullptr);
    QString view_id() const override { return QStringLiteral("pcp"); }
    QString title() const override { return tr("Per-CPU lists"); }
    void show_frame(const frame& f) override;
    void reset() override;
    QSize sizeHint() const override { return {720, 400}; }
    QSize minimumSizeHint() const override { return {240, 160}; }

    // What the cursor is over (side, cpu), or cpu -1; public for the tests.
    struct hit {
        int side = 0;
        int cpu = -1;
    };
    hit hit_at(const QPoint& pos) const;
    QString tooltip_at(const QPoint& pos) const override;
    bool grid_mode() const { return m_grid; } // the last paint used the gauge grid
    zone_picker* picker() const { return m_picker; }

protected:
    void paintEvent(QPaintEvent* e) override;

private:
    struct cell {
        QRect r;
        int side, cpu;
    };
    void paint_side(QPainter& p, const QRect& area, const sim::snapshot& s, int side, int scale_max);
    void paint_bars(QPainter& p, const QRect& area, const sim::snapshot& s, int side, int scale_max);
    void paint_grid(QPainter& p, const QRect& area, const sim::snapshot& s, int side);
    QStringList side_parts(const sim::snapshot& s, int side) const;
    const sim::snapshot* side_snapshot(int side) const { return side == 0 ? m_a.get() : m_b.get(); }

    std::shared_ptr<const sim::snapshot> m_a, m_b;
    zone_picker* m_picker;
    QWidget* m_bar;
    std::vector<cell> m_cells; // hit areas of the last paint
    QVector<QRect> m_panels; // paint_grid's batches, kept to reuse their memory
    QVector<QLine> m_ticks;
    bool m_grid = false;
};

} // namespace pcplab::ui
