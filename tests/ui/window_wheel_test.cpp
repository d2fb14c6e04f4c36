// The mouse wheel over the controls dock scrolls it: a box under the pointer turns only once it has the focus
// (ui/window/wheel_guard.cpp), so scrolling past the preset or the intensity changes neither.
#include "window_test_support.hpp"

#include "ui/window/controls_panel.hpp"

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QWheelEvent>

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::ui;

namespace
{
// One notch of the wheel, down, over the middle of `w`.
void wheel_down(QWidget* w)
{
    const QPointF at(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent e(
        at, w->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &e);
}
} // namespace

TEST_CASE("the wheel over an unfocused box in the controls scrolls past it, and a focused box takes it", "[ui][window]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    auto* intensity = w.controls()->findChild<QDoubleSpinBox*>(QStringLiteral("intensity"));
    auto* preset = w.controls()->findChild<QComboBox*>(QStringLiteral("preset"));
    REQUIRE(intensity);
    REQUIRE(preset);
    const double x = intensity->value();
    const QString p = preset->currentText();
    intensity->clearFocus();
    preset->clearFocus();
    wheel_down(intensity);
    wheel_down(preset);
    CHECK(intensity->value() == x);
    CHECK(preset->currentText() == p);
    // Clicked into (focused), the box is the user's to turn.
    intensity->setFocus();
    REQUIRE(test::wait_until([&] { return intensity->hasFocus(); }, 2000));
    wheel_down(intensity);
    CHECK(intensity->value() < x);
}
