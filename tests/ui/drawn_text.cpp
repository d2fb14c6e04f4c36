// A paint engine that keeps text and nothing else (drawn_text.hpp).
#include "drawn_text.hpp"

#include <qcustomplot.h>

#include <QPaintDevice>
#include <QPaintEngine>
#include <QPainter>
#include <QTextItem>

#include <memory>

namespace pcplab::test
{

namespace
{

class text_engine : public QPaintEngine
{
public:
    explicit text_engine(std::vector<drawn_text>* out)
        : QPaintEngine(QPaintEngine::AllFeatures)
        , m_out(out)
    {
    }
    bool begin(QPaintDevice*) override { return true; }
    bool end() override { return true; }
    void updateState(const QPaintEngineState&) override { }
    // Everything but text is dropped (the defaults of these call one another, or draw through drawPath).
    void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override { }
    void drawImage(const QRectF&, const QImage&, const QRectF&, Qt::ImageConversionFlags) override { }
    void drawTiledPixmap(const QRectF&, const QPixmap&, const QPointF&) override { }
    void drawPath(const QPainterPath&) override { }
    void drawPolygon(const QPointF*, int, PolygonDrawMode) override { }
    void drawPolygon(const QPoint*, int, PolygonDrawMode) override { }
    void drawRects(const QRectF*, int) override { }
    void drawRects(const QRect*, int) override { }
    void drawLines(const QLineF*, int) override { }
    void drawLines(const QLine*, int) override { }
    void drawEllipse(const QRectF&) override { }
    void drawEllipse(const QRect&) override { }
    void drawPoints(const QPointF*, int) override { }
    void drawPoints(const QPoint*, int) override { }
    Type type() const override { return QPaintEngine::User; }

    void drawTextItem(const QPointF& p, const QTextItem& ti) override
    {
        const QString text = ti.text();
        if (text.trimmed().isEmpty()) return;
        QPainter* painter = this->painter();
        // The text's box in the painter's logical coordinates: from the baseline up by the ascent, down by the
        // descent, as wide as its advance.
        const QRectF logical(p.x(), p.y() - ti.ascent(), ti.width(), ti.ascent() + ti.descent());
        QRectF shown = logical;
        if (painter->hasClipping()) shown = shown.intersected(painter->clipBoundingRect());
        const QTransform to_device = painter->deviceTransform();
        drawn_text d;
        d.text = text;
        d.rect = to_device.mapRect(logical);
        d.visible = to_device.mapRect(shown);
        // The widget's own bounds (QWidget::render sets them as the system clip, in device coordinates).
        if (!systemClip().isEmpty()) d.visible = d.visible.intersected(systemClip().boundingRect());
        if (shown.isEmpty()) d.visible = QRectF();
        m_out->push_back(d);
    }

private:
    std::vector<drawn_text>* m_out;
};

class text_device : public QPaintDevice
{
public:
    text_device(QSize size, std::vector<drawn_text>* out)
        : m_size(size)
        , m_engine(std::make_unique<text_engine>(out))
    {
    }
    QPaintEngine* paintEngine() const override { return m_engine.get(); }

protected:
    int metric(PaintDeviceMetric m) const override
    {
        switch (m) {
        case PdmWidth:
            return m_size.width();
        case PdmHeight:
            return m_size.height();
        case PdmWidthMM:
            return m_size.width() * 254 / 960;
        case PdmHeightMM:
            return m_size.height() * 254 / 960;
        case PdmNumColors:
            return 1 << 24;
        case PdmDepth:
            return 32;
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return 96;
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return static_cast<int>(devicePixelRatioFScale());
        }
        return 0;
    }

private:
    QSize m_size;
    std::unique_ptr<text_engine> m_engine;
};

} // namespace

bool drawn_text::cut() const
{
    return visible.width() < rect.width() - 1.5 || visible.height() < rect.height() - 1.5;
}

bool drawn_text::elided() const
{
    return text.contains(QChar(0x2026)) || text.contains(QStringLiteral("..."));
}

std::vector<drawn_text> collect_drawn_text(QWidget* w)
{
    std::vector<drawn_text> out;
    {
        text_device dev(w->size(), &out);
        QPainter p(&dev);
        w->render(&p, QPoint(), QRegion(), QWidget::DrawChildren);
    }
    // QCustomPlot draws into a pixmap buffer of its own: draw each plot again, text and all, where it sits.
    for (QCustomPlot* plot : w->findChildren<QCustomPlot*>()) {
        if (!plot->isVisibleTo(w) || plot->width() <= 0 || plot->height() <= 0) continue;
        std::vector<drawn_text> in_plot;
        {
            text_device dev(plot->size(), &in_plot);
            QCPPainter p(&dev);
            plot->toPainter(&p, plot->width(), plot->height());
        }
        const QPointF at = plot->mapTo(w, QPoint(0, 0));
        for (drawn_text& d : in_plot) {
            d.rect.translate(at);
            d.visible.translate(at);
            out.push_back(d);
        }
    }
    return out;
}

std::vector<text_overlap> overlapping(const std::vector<drawn_text>& texts, double slack)
{
    std::vector<text_overlap> out;
    for (std::size_t i = 0; i < texts.size(); ++i)
        for (std::size_t j = i + 1; j < texts.size(); ++j) {
            const QRectF a = texts[i].visible, b = texts[j].visible;
            if (a.isEmpty() || b.isEmpty()) continue;
            const QRectF both = a.intersected(b);
            if (both.width() > slack && both.height() > slack) out.push_back({texts[i], texts[j]});
        }
    return out;
}

QString describe(const std::vector<drawn_text>& texts)
{
    QString s;
    for (const drawn_text& d : texts)
        s += QStringLiteral("'%1' at %2,%3 %4x%5%6%7\n")
                 .arg(d.text)
                 .arg(d.rect.x(), 0, 'f', 0)
                 .arg(d.rect.y(), 0, 'f', 0)
                 .arg(d.rect.width(), 0, 'f', 0)
                 .arg(d.rect.height(), 0, 'f', 0)
                 .arg(d.cut() ? QStringLiteral(" [cut]") : QString())
                 .arg(d.elided() ? QStringLiteral(" [elided]") : QString());
    return s;
}

} // namespace pcplab::test
