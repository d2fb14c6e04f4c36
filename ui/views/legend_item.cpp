// The cached legend entry of add_to_legend().
#include "ui/views/legend_item.hpp"

#include <qcustomplot.h>

#include <QStaticText>

namespace pcplab::ui
{

namespace
{

// QCPAbstractPlottable::drawLegendIcon is protected, open to QCPPlottableLegendItem only as a friend (which a
// subclass does not inherit); a pointer to the member taken in a derived scope reaches it all the same.
struct legend_icon : QCPAbstractPlottable {
    static void draw(const QCPAbstractPlottable* p, QCPPainter* painter, const QRectF& r)
    {
        (p->*&legend_icon::drawLegendIcon)(painter, r);
    }
};

// QCPPlottableLegendItem::minimumOuterSizeHint and ::draw of QCustomPlot 2.1, with the text's bounding
// rectangle and layout cached per (name, font).
class legend_item : public QCPPlottableLegendItem
{
public:
    using QCPPlottableLegendItem::QCPPlottableLegendItem;

    QSize minimumOuterSizeHint() const override
    {
        if (!mPlottable) return {};
        const QRect text = text_rect();
        const QSize icon = mParentLegend->iconSize();
        return {icon.width() + mParentLegend->iconTextPadding() + text.width() + mMargins.left() + mMargins.right(),
            std::max(text.height(), icon.height()) + mMargins.top() + mMargins.bottom()};
    }

protected:
    void draw(QCPPainter* painter) override
    {
        if (!mPlottable) return;
        text_rect(); // brings the static text up to date
        painter->setFont(getFont());
        painter->setPen(QPen(getTextColor()));
        const QSize icon = mParentLegend->iconSize();
        const QRect icon_rect(mRect.topLeft(), icon);
        painter->drawStaticText(
            QPointF(mRect.x() + icon.width() + mParentLegend->iconTextPadding(), mRect.y()), m_text);
        painter->save();
        painter->setClipRect(icon_rect, Qt::IntersectClip);
        legend_icon::draw(mPlottable, painter, icon_rect);
        painter->restore();
        if (getIconBorderPen().style() != Qt::NoPen) {
            painter->setPen(getIconBorderPen());
            painter->setBrush(Qt::NoBrush);
            const int half_pen = qCeil(painter->pen().widthF() * 0.5) + 1;
            painter->setClipRect(mOuterRect.adjusted(-half_pen, -half_pen, half_pen, half_pen));
            painter->drawRect(icon_rect);
        }
    }

private:
    QRect text_rect() const
    {
        const QFont font = getFont();
        const QString name = mPlottable->name();
        if (name != m_name || font != m_font) {
            m_name = name;
            m_font = font;
            m_rect
                = QFontMetrics(font).boundingRect(0, 0, 0, mParentLegend->iconSize().height(), Qt::TextDontClip, name);
            m_text = QStaticText(name);
            m_text.setTextFormat(Qt::PlainText);
            m_text.prepare(QTransform(), font);
        }
        return m_rect;
    }

    mutable QString m_name;
    mutable QFont m_font;
    mutable QRect m_rect;
    mutable QStaticText m_text;
};

} // namespace

void add_to_legend(QCPAbstractPlottable* plottable, QCPLegend* legend)
{
    if (!legend || legend->hasItemWithPlottable(plottable)) return;
    legend->addItem(new legend_item(legend, plottable));
}

} // namespace pcplab::ui
