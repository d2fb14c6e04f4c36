// The cached legend entry of add_to_legend().
#include "ui/views/legend_item.hpp"

#include <qcustomplot.h>

#include <QPointer>
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
// rectangle and layout cached per (name, font); optionally a second plottable's icon after the first and a
// text of its own (add_pair_to_legend).
class legend_item : public QCPPlottableLegendItem
{
public:
    legend_item(QCPLegend* legend, QCPAbstractPlottable* plottable, QCPAbstractPlottable* second = nullptr,
        const QString& label = {})
        : QCPPlottableLegendItem(legend, plottable)
        , m_second(second)
        , m_label(label)
    {
    }

    QCPAbstractPlottable* second() const { return m_second; }

    QSize minimumOuterSizeHint() const override
    {
        if (!mPlottable) return {};
        const QRect text = text_rect();
        const QSize icon = mParentLegend->iconSize();
        return {icons() * (icon.width() + mParentLegend->iconTextPadding()) + text.width() + mMargins.left()
                + mMargins.right(),
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
        const int step = icon.width() + mParentLegend->iconTextPadding();
        painter->drawStaticText(QPointF(mRect.x() + icons() * step, mRect.y()), m_text);
        for (int i = 0; i < icons(); ++i) {
            const QRect icon_rect(mRect.topLeft() + QPoint(i * step, 0), icon);
            painter->save();
            painter->setClipRect(icon_rect, Qt::IntersectClip);
            legend_icon::draw(i == 0 ? mPlottable : m_second.data(), painter, icon_rect);
            painter->restore();
            if (getIconBorderPen().style() != Qt::NoPen) {
                painter->save();
                painter->setPen(getIconBorderPen());
                painter->setBrush(Qt::NoBrush);
                const int half_pen = qCeil(painter->pen().widthF() * 0.5) + 1;
                painter->setClipRect(mOuterRect.adjusted(-half_pen, -half_pen, half_pen, half_pen));
                painter->drawRect(icon_rect);
                painter->restore();
            }
        }
    }

private:
    int icons() const { return m_second ? 2 : 1; }

    QRect text_rect() const
    {
        const QFont font = getFont();
        const QString name = m_label.isEmpty() ? mPlottable->name() : m_label;
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

    QPointer<QCPAbstractPlottable> m_second; // B's, drawn after A's; null for a one-line entry
    QString m_label; // the entry's text; empty: the plottable's name
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

void add_pair_to_legend(QCPAbstractPlottable* a, QCPAbstractPlottable* b, const QString& text, QCPLegend* legend)
{
    if (!legend || legend->hasItemWithPlottable(a)) return;
    legend->addItem(new legend_item(legend, a, b, text));
}

QCPAbstractPlottable* second_plottable(const QCPAbstractLegendItem* item)
{
    const auto* own = dynamic_cast<const legend_item*>(item);
    return own ? own->second() : nullptr;
}

int legend_entry_width(const QCPLegend* legend, const QString& text, int icons)
{
    // 14: the item's margins and the breathing room between columns, as the legend draws them.
    return QFontMetrics(legend->font()).horizontalAdvance(text)
        + icons * (legend->iconSize().width() + legend->iconTextPadding()) + 14;
}

} // namespace pcplab::ui
