// What every view shares: tooltips for what lies under the mouse.
#include "ui/views/view.hpp"

#include <QHelpEvent>
#include <QToolTip>

namespace pcplab::ui
{

bool view::event(QEvent* e)
{
    if (e->type() != QEvent::ToolTip) return QWidget::event(e);
    auto* he = static_cast<QHelpEvent*>(e);
    QString t = tooltip_at(he->pos());
    if (t.isEmpty()) t = toolTip();
    if (t.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(he->globalPos(), t, this);
    return true;
}

} // namespace pcplab::ui
