#include "ui/window/wheel_guard.hpp"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QScrollArea>

namespace pcplab::ui
{

namespace
{

// Sends a wheel turn over an unfocused box to the scroll area's viewport, which scrolls by it.
class wheel_filter final : public QObject
{
public:
    explicit wheel_filter(QAbstractScrollArea* area)
        : QObject(area)
        , m_area(area)
    {
    }

protected:
    bool eventFilter(QObject* watched, QEvent* e) override
    {
        if (e->type() != QEvent::Wheel) return false;
        auto* w = qobject_cast<QWidget*>(watched);
        if (!w || w->hasFocus()) return false;
        QCoreApplication::sendEvent(m_area->viewport(), e);
        return true;
    }

private:
    QAbstractScrollArea* m_area;
};

} // namespace

void guard_wheel(QAbstractScrollArea* area)
{
    auto* scroll = qobject_cast<QScrollArea*>(area);
    QWidget* content = scroll ? scroll->widget() : area->viewport();
    if (!content) return;
    auto* filter = new wheel_filter(area);
    auto guard = [filter](QWidget* box) {
        box->setFocusPolicy(Qt::StrongFocus); // not Qt::WheelFocus: a wheel turn must not focus it either
        box->installEventFilter(filter);
    };
    for (auto* b : content->findChildren<QAbstractSpinBox*>()) guard(b);
    for (auto* b : content->findChildren<QComboBox*>()) guard(b);
}

} // namespace pcplab::ui
