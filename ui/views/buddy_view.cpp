// Buddy free areas painted with QPainter: zones x orders x (A, B) bars, split by migratetype.
#include "ui/views/buddy_view.hpp"

#include "ui/views/header_parts.hpp"
#include "ui/views/view_style.hpp"

#include "mm/mm_types.hpp"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <cmath>

namespace pcplab::ui
{

namespace
{

// Height fraction of a count on a log scale whose top is `top_log` (log10 of the largest count, + 1 for 1 block).
double log_frac(double v, double top_log)
{
    return v <= 0 ? 0 : std::log10(v + 1) / top_log;
}

unsigned long largest_count(const sim::snapshot& s)
{
    unsigned long m = 1;
    for (const auto& z : s.zones)
        for (unsigned long n : z.nr_free) m = std::max(m, n);
    return m;
}

} // namespace

buddy_view::buddy_view(QWidget* parent)
    : view(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
}

void buddy_view::reset()
{
    m_a.reset();
    m_b.reset();
    m_bars.clear();
    update();
}

void buddy_view::show_frame(const frame& f)
{
    if (f.a == m_a && f.b == m_b) return;
    m_a = f.a;
    m_b = f.b;
    update();
}

void buddy_view::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Window));
    m_bars.clear();
    if (!m_a || m_a->zones.empty()) {
        draw_message(p, rect(), m_a ? tr("No zones yet (booting)") : tr("Waiting for the first snapshot"), pal);
        return;
    }
    const QFontMetrics fm = fontMetrics();
    const int margin = fm.height() / 2;
    QRect area = rect().adjusted(margin, margin / 2, -margin, -margin / 2);

    // Legend: migratetype colours (and A/B) along the bottom, on a second line when one is too short.
    std::vector<std::pair<QColor, QString>> items;
    for (unsigned mt = 0; mt < mm::MIGRATE_TYPES; ++mt)
        items.push_back({series_color(static_cast<int>(mt), pal), QString::fromLatin1(mm::migratetype_name(mt))});
    if (m_b) items.push_back({QColor(), tr("left bar A, right bar B (outlined)")});
    auto item_w
        = [&](const auto& it) { return (it.first.isValid() ? 16 : 0) + fm.horizontalAdvance(it.second) + fm.height(); };
    int total = 0;
    for (const auto& it : items) total += item_w(it);
    const int lines = total > area.width() ? 2 : 1;
    int lx = area.left();
    int ly = area.bottom() - lines * fm.height() - 2;
    area.setBottom(ly - 4);
    for (const auto& it : items) {
        if (lx + item_w(it) - fm.height() > rect().right() - margin) {
            lx = area.left();
            ly += fm.height();
        }
        if (it.first.isValid()) {
            p.fillRect(QRect(lx, ly + 3, 12, fm.height() - 6), it.first);
            lx += 16;
        }
        p.setPen(text_color(pal));
        const int w = fm.horizontalAdvance(it.second);
        p.drawText(QRect(lx, ly, w + 2, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, it.second);
        lx += w + fm.height();
    }

    // Panels: as square as the area allows.
    const int n = static_cast<int>(m_a->zones.size());
    int cols = 1;
    for (int c = 1; c <= n; ++c) {
        const int rows = (n + c - 1) / c;
        const double cw = static_cast<double>(area.width()) / c, rh = static_cast<double>(area.height()) / rows;
        cols = c;
        if (cw / rh < 2.6) break; // panels wider than this waste the height
    }
    const int rows = (n + cols - 1) / cols;
    const int pw = area.width() / cols, ph = area.height() / rows;
    for (int i = 0; i < n; ++i) {
        const QRect r(area.left() + (i % cols) * pw, area.top() + (i / cols) * ph, pw - margin, ph - margin / 2);
        paint_zone(p, r, i);
    }
}

void buddy_view::paint_zone(QPainter& p, const QRect& r, int zi)
{
    const QPalette& pal = palette();
    const QFontMetrics fm = fontMetrics();
    const sim::zone_snapshot& za = m_a->zone_at(zi);
    const sim::zone_snapshot* zb = nullptr;
    if (m_b) {
        const int bi = m_b->zone_index(za.node, za.zone);
        if (bi >= 0) zb = &m_b->zone_at(bi);
    }
    p.setPen(text_color(pal));
    const QString free_a = count_of(static_cast<double>(za.free_pages), tr("free page"), tr("free pages"));
    QStringList head{
        zone_label(za.node, za.zone) + QStringLiteral(": ") + (zb ? QStringLiteral("A ") : QString()) + free_a};
    if (zb) head << tr("B %1").arg(count_of(static_cast<double>(zb->free_pages), tr("free page"), tr("free pages")));
    draw_parts(p, QRect(r.left(), r.top(), r.width(), fm.height()), head, 1);

    const double top = static_cast<double>(std::max(largest_count(*m_a), m_b ? largest_count(*m_b) : 1UL));
    const double top_log = std::log10(top + 1);
    // Wide enough for the largest decade label ("100.0 k").
    const int axis_w = fm.horizontalAdvance(compact(std::pow(10.0, std::floor(std::log10(top)))))
        + fm.horizontalAdvance(QLatin1Char('0'));
    const QRect plot(
        r.left() + axis_w, r.top() + fm.height() + 2, r.width() - axis_w, r.height() - 2 * fm.height() - 4);
    if (plot.height() < 8 || plot.width() < 22) return;
    // Decade grid lines with labels: 1, 10, 100, ... (every other one, or fewer, when they would touch).
    const int decades = static_cast<int>(std::floor(top_log)) + 1;
    const int label_every = std::max(1, (fm.height() * decades + plot.height() - 1) / std::max(1, plot.height()));
    for (int dec = 0; std::pow(10.0, dec) <= std::pow(10.0, top_log); ++dec) {
        const int y = plot.bottom() - static_cast<int>(log_frac(std::pow(10.0, dec), top_log) * plot.height());
        p.setPen(faint_color(pal));
        p.drawLine(plot.left(), y, plot.right(), y);
        p.setPen(text_color(pal));
        if (dec % label_every == 0)
            p.drawText(QRect(r.left(), y - fm.height() / 2, axis_w - 3, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                compact(std::pow(10.0, dec)));
    }
    const int slot = plot.width() / static_cast<int>(mm::NR_PAGE_ORDERS);
    const int sides = zb ? 2 : 1;
    const int bw = std::max(2, (slot - std::max(2, slot / 5)) / sides);
    for (unsigned o = 0; o < mm::NR_PAGE_ORDERS; ++o) {
        const int x0 = plot.left() + static_cast<int>(o) * slot + std::max(1, slot / 10);
        for (int side = 0; side < sides; ++side) {
            const sim::zone_snapshot& z = side == 0 ? za : *zb;
            const double total = static_cast<double>(z.nr_free[o]);
            const int h = static_cast<int>(log_frac(total, top_log) * plot.height());
            const int x = x0 + side * bw;
            // Split the bar by migratetype in proportion to the block counts.
            double sum = 0;
            for (unsigned mt = 0; mt < mm::MIGRATE_TYPES; ++mt) sum += static_cast<double>(z.free_blocks[o][mt]);
            int y = plot.bottom() + 1;
            for (unsigned mt = 0; mt < mm::MIGRATE_TYPES && sum > 0; ++mt) {
                const int seg = static_cast<int>(std::round(h * static_cast<double>(z.free_blocks[o][mt]) / sum));
                if (seg <= 0) continue;
                p.fillRect(QRect(x, y - seg, bw - 1, seg), series_color(static_cast<int>(mt), pal));
                y -= seg;
            }
            if (side == 1) {
                p.setPen(QPen(text_color(pal), 1));
                p.drawRect(QRect(x, plot.bottom() - h, bw - 2, h));
            }
            m_bars.push_back({QRect(x, plot.top(), bw, plot.height()), side,
                side == 0 ? zi : m_b->zone_index(za.node, za.zone), static_cast<int>(o)});
        }
        // Order numbers under the bars, every one where they fit, else every other one.
        const int order_every = slot >= fm.horizontalAdvance(QStringLiteral("10 ")) ? 1 : 2;
        if (o % static_cast<unsigned>(order_every) == 0) {
            const QString t = QString::number(o);
            const int tw = fm.horizontalAdvance(t);
            p.setPen(text_color(pal));
            p.drawText(QRect(x0 + (bw * sides - tw) / 2, plot.bottom() + 2, tw + 1, fm.height()),
                Qt::AlignLeft | Qt::AlignTop, t);
        }
    }
}

QString buddy_view::tooltip_at(const QPoint& pos) const
{
    for (const bar& b : m_bars) {
        if (!b.r.contains(pos)) continue;
        const sim::snapshot* s = b.side == 0 ? m_a.get() : m_b.get();
        if (!s || b.zi < 0 || static_cast<std::size_t>(b.zi) >= s->zones.size()) return {};
        const sim::zone_snapshot& z = s->zone_at(b.zi);
        const auto o = static_cast<std::size_t>(b.order);
        QString t = QStringLiteral("<b>%1%2, order %3</b><br>%4 free blocks = %5 pages")
                        .arg(m_b ? (b.side == 0 ? QStringLiteral("A: ") : QStringLiteral("B: ")) : QString(),
                            zone_label(z.node, z.zone))
                        .arg(b.order)
                        .arg(z.nr_free[o])
                        .arg(z.nr_free[o] << o);
        for (unsigned mt = 0; mt < mm::MIGRATE_TYPES; ++mt)
            t += QStringLiteral("<br>%1: %2%3")
                     .arg(QString::fromLatin1(mm::migratetype_name(mt)))
                     .arg(z.free_blocks_exact ? QString() : QStringLiteral("≥"))
                     .arg(z.free_blocks[o][mt]);
        return t;
    }
    return {};
}

} // namespace pcplab::ui
