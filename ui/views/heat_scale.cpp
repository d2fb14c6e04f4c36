// Heatmap colour scales and their legend (heat_scale.hpp).
#include "ui/views/heat_scale.hpp"

#include "ui/views/view_style.hpp"

#include <QPainter>

namespace pcplab::ui
{

namespace
{

// Nine evenly spaced stops of matplotlib's viridis and inferno colour maps (CC0), interpolated linearly.
constexpr std::array<QRgb, 9> k_viridis
    = {0x440154, 0x482878, 0x3e4989, 0x31688e, 0x26828e, 0x1f9e89, 0x35b779, 0x6ece58, 0xfde725};
constexpr std::array<QRgb, 9> k_inferno
    = {0x000004, 0x1b0c41, 0x4a0c6b, 0x781c6d, 0xa52c60, 0xcf4446, 0xed6925, 0xfb9b06, 0xfcffa4};

QRgb mix(QRgb a, QRgb b, double f)
{
    auto ch = [f](int x, int y) { return static_cast<int>(x + (y - x) * f + 0.5); };
    return qRgb(ch(qRed(a), qRed(b)), ch(qGreen(a), qGreen(b)), ch(qBlue(a), qBlue(b)));
}

} // namespace

heat_scale::heat_scale(kind k)
{
    const auto& stops = k == kind::depth ? k_viridis : k_inferno;
    for (std::size_t i = 0; i < m_lut.size(); ++i) {
        const double pos = static_cast<double>(i) / 255.0 * static_cast<double>(stops.size() - 1);
        const auto lo = static_cast<std::size_t>(pos);
        const std::size_t hi = std::min(lo + 1, stops.size() - 1);
        m_lut[i] = mix(stops[lo], stops[hi], pos - static_cast<double>(lo));
    }
}

int paint_heat_legend(QPainter& p, const QRect& r, const heat_scale& s, const QString& title, const QPalette& pal)
{
    const QFontMetrics fm = p.fontMetrics();
    const int title_w = fm.horizontalAdvance(title);
    const int label_w = fm.horizontalAdvance(QStringLiteral("100 %"));
    const int bar_w = std::min(320, r.width() - title_w - fm.height() - label_w);
    if (bar_w < 3 * label_w) return 0;
    p.setPen(text_color(pal));
    p.drawText(QRect(r.left(), r.top(), title_w + 2, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, title);
    const int x0 = r.left() + title_w + fm.height() + label_w / 2;
    const int bar_h = std::max(6, fm.height() * 2 / 3);
    const int bar_y = r.top() + (fm.height() - bar_h) / 2;
    for (int x = 0; x < bar_w; ++x)
        p.fillRect(QRect(x0 + x, bar_y, 1, bar_h), QColor(s.rgb(static_cast<double>(x) / (bar_w - 1))));
    p.setPen(faint_color(pal));
    p.drawRect(QRect(x0 - 1, bar_y - 1, bar_w + 1, bar_h + 1));
    // 0, 50 and 100 %, or every quarter when there is room.
    const int steps = bar_w >= 6 * label_w ? 4 : 2;
    p.setPen(text_color(pal));
    for (int i = 0; i <= steps; ++i) {
        const int x = x0 + (bar_w - 1) * i / steps;
        p.drawLine(x, bar_y + bar_h, x, bar_y + bar_h + 2);
        const QString t = QStringLiteral("%1 %").arg(100 * i / steps);
        const int tw = fm.horizontalAdvance(t);
        p.drawText(QRect(x - tw / 2, bar_y + bar_h + 2, tw + 1, fm.height()), Qt::AlignCenter, t);
    }
    return x0 + bar_w + label_w / 2 - r.left();
}

} // namespace pcplab::ui
