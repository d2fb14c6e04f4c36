// The single opaque paint buffer of make_opaque_plot().
#include "ui/views/opaque_plot.hpp"

#include <qcustomplot.h>

namespace pcplab::ui
{

namespace
{

class opaque_plot;

// QCustomPlot::setupPaintBuffers() clears every buffer to transparent before the layers draw; this one fills
// with the plot's background colour when it is opaque, so the finished buffer can be copied, not blended.
class opaque_buffer : public QCPPaintBufferPixmap
{
public:
    opaque_buffer(const QSize& size, double ratio, const opaque_plot* plot)
        : QCPPaintBufferPixmap(size, ratio)
        , m_plot(plot)
    {
    }
    void clear(const QColor& color) override;

private:
    const opaque_plot* m_plot;
};

class opaque_plot : public QCustomPlot
{
public:
    explicit opaque_plot(QWidget* parent)
        : QCustomPlot(parent)
    {
        // The overlay layer (selection rectangles, which no view uses) gets no buffer of its own.
        if (QCPLayer* overlay = layer(QStringLiteral("overlay"))) overlay->setMode(QCPLayer::lmLogical);
        // setupPaintBuffers() keeps a buffer already at index 0 and needs no other while every layer is logical.
        mPaintBuffers.append(QSharedPointer<QCPAbstractPaintBuffer>(
            new opaque_buffer(viewport().size(), mBufferDevicePixelRatio, this)));
    }

    // The colour the buffer is cleared with, or an invalid colour when the background is not one opaque colour.
    QColor solid_background() const
    {
        if (mBackgroundBrush.style() != Qt::SolidPattern || !mBackgroundPixmap.isNull()) return {};
        const QColor c = mBackgroundBrush.color();
        return c.alpha() == 255 ? c : QColor();
    }

protected:
    void paintEvent(QPaintEvent* e) override
    {
        // One buffer already holding the background: copy it (the stock paintEvent fills first, then blends).
        if (mPaintBuffers.size() != 1 || !solid_background().isValid()) {
            QCustomPlot::paintEvent(e);
            return;
        }
        QCPPainter painter(this);
        if (painter.isActive()) mPaintBuffers.front()->draw(&painter);
    }
};

void opaque_buffer::clear(const QColor& color)
{
    const QColor bg = m_plot->solid_background();
    QCPPaintBufferPixmap::clear(bg.isValid() ? bg : color);
}

} // namespace

QCustomPlot* make_opaque_plot(QWidget* parent)
{
    return new opaque_plot(parent);
}

} // namespace pcplab::ui
