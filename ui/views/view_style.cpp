// Palette-derived colours and formatting shared by the views.
#include "ui/views/view_style.hpp"

#include "mm/mm_types.hpp"

#include <QPainter>

#include <array>
#include <cmath>

namespace pcplab::ui
{

bool is_dark(const QPalette& p)
{
    return p.color(QPalette::Window).lightness() < 128;
}

namespace
{

// Hues chosen to stay apart for colour-blind viewers (Okabe-Ito order, then two extra).
constexpr std::array<int, 8> k_hues = {210, 30, 150, 0, 280, 55, 180, 330};

QColor themed_hue(int hue, const QPalette& p, int sat = 170)
{
    // Dark theme: lighter, less saturated so the colours glow without blinding; light theme: deeper.
    return is_dark(p) ? QColor::fromHsl(hue, sat, 150) : QColor::fromHsl(hue, sat + 30, 95);
}

} // namespace

QColor node_color(int node, const QPalette& p)
{
    const int n = node < 0 ? 0 : node;
    const int hue = k_hues[static_cast<std::size_t>(n) % k_hues.size()];
    return themed_hue(hue, p);
}

QColor side_color(int side, const QPalette& p)
{
    return side == 0 ? themed_hue(210, p, 190) : themed_hue(25, p, 200);
}

QColor series_color(int i, const QPalette& p)
{
    const int n = i < 0 ? 0 : i;
    // Alternate lightness for repeats so that 11 orders stay distinguishable.
    QColor c = themed_hue(k_hues[static_cast<std::size_t>(n) % k_hues.size()], p);
    if ((n / static_cast<int>(k_hues.size())) % 2 == 1) c = is_dark(p) ? c.darker(140) : c.lighter(150);
    return c;
}

QColor text_color(const QPalette& p)
{
    return p.color(QPalette::WindowText);
}

QColor paler_color(const QColor& c, const QPalette& p)
{
    const QColor bg = p.color(QPalette::Base);
    return QColor((c.red() + bg.red()) / 2, (c.green() + bg.green()) / 2, (c.blue() + bg.blue()) / 2);
}

QColor faint_color(const QPalette& p)
{
    QColor w = p.color(QPalette::Window), t = p.color(QPalette::WindowText);
    return QColor((w.red() * 4 + t.red()) / 5, (w.green() * 4 + t.green()) / 5, (w.blue() * 4 + t.blue()) / 5);
}

QColor panel_color(const QPalette& p)
{
    QColor w = p.color(QPalette::Window), t = p.color(QPalette::WindowText);
    return QColor((w.red() * 9 + t.red()) / 10, (w.green() * 9 + t.green()) / 10, (w.blue() * 9 + t.blue()) / 10);
}

QColor warn_color(const QPalette& p)
{
    return is_dark(p) ? QColor(255, 110, 90) : QColor(200, 30, 20);
}

QString compact(double v)
{
    const double a = std::fabs(v);
    if (a >= 1e9) return QString::number(v / 1e9, 'f', 2) + QStringLiteral(" G");
    if (a >= 1e6) return QString::number(v / 1e6, 'f', 2) + QStringLiteral(" M");
    if (a >= 1e4) return QString::number(v / 1e3, 'f', std::fmod(a, 1e3) == 0 ? 0 : 1) + QStringLiteral(" k");
    if (a == std::floor(a)) return QString::number(static_cast<long long>(v));
    return QString::number(v, 'f', 1);
}

QString count_of(double n, const QString& one, const QString& many)
{
    return compact(n) + QLatin1Char(' ') + (n == 1 ? one : many);
}

QString format_ns(double ns)
{
    if (ns >= 1e9) return QString::number(ns / 1e9, 'f', 2) + QStringLiteral(" s");
    if (ns >= 1e6) return QString::number(ns / 1e6, 'f', 1) + QStringLiteral(" ms");
    if (ns >= 1e3) return QString::number(ns / 1e3, 'f', 1) + QStringLiteral(" us");
    return QString::number(ns, 'f', 0) + QStringLiteral(" ns");
}

QString zone_label(int node, int zone)
{
    return QStringLiteral("node %1 %2").arg(node).arg(QString::fromLatin1(mm::zone_name(static_cast<unsigned>(zone))));
}

void draw_message(QPainter& p, const QRect& r, const QString& text, const QPalette& pal)
{
    p.save();
    QColor c = text_color(pal);
    c.setAlpha(170);
    p.setPen(c);
    p.drawText(r, Qt::AlignCenter | Qt::TextWordWrap, text);
    p.restore();
}

} // namespace pcplab::ui
