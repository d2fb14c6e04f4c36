// Buddy free areas, live: per zone, the free blocks of each order (log scale), each bar split by migratetype.
// A/B: the two machines' bars side by side within each order.
#pragma once

#include "ui/views/view.hpp"

#include <QRect>

#include <vector>

namespace pcplab::ui
{

class buddy_view : public view
{
    Q_OBJECT
public:
    explicit buddy_view(QWidget* parent = nullptr);
    QString view_id() const override { return QStringLiteral("buddy"); }
    QString title() const override { return tr("Buddy free areas"); }
    void show_frame(const frame& f) override;
    void reset() override;
    QSize sizeHint() const override { return {720, 420}; }
    QString tooltip_at(const QPoint& pos) const override; // for the tests

protected:
    void paintEvent(QPaintEvent* e) override;

private:
    struct bar {
        QRect r;
        int side, zi, order;
    };
    void paint_zone(QPainter& p, const QRect& r, int zi);

    std::shared_ptr<const sim::snapshot> m_a, m_b;
    std::vector<bar> m_bars;
};

} // namespace pcplab::ui
