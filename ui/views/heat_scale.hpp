// The colour scales of the heatmap: 0..1 to a colour, perceptually even and readable to colour-blind viewers
// (matplotlib's viridis for list depth, inferno for waiting, so that the two quantities never look alike), and
// the legend bar that says what a colour means, with its unit.
#pragma once

#include <QColor>
#include <QRect>
#include <QString>

#include <array>

class QPainter;
class QPalette;

namespace pcplab::ui
{

class heat_scale
{
public:
    enum class kind { depth, waiting };
    explicit heat_scale(kind k);
    // The colour of v in [0, 1] (clamped), as a QRgb for QImage::setPixel-free row writes.
    QRgb rgb(double v) const
    {
        const double c = v < 0 ? 0 : v > 1 ? 1 : v;
        return m_lut[static_cast<std::size_t>(c * 255.0 + 0.5)];
    }

private:
    std::array<QRgb, 256> m_lut{};
};

// A horizontal colour bar in `r` (the bar on top, tick labels 0 %, 25 % ... 100 % under it) with `title` to its
// left; returns the width used. Nothing is drawn when it does not fit.
int paint_heat_legend(QPainter& p, const QRect& r, const heat_scale& s, const QString& title, const QPalette& pal);

} // namespace pcplab::ui
