// What the window remembers (QSettings: geometry, dock and view layout, theme, speed; the last preset is saved as
// it is chosen) and how it looks (theme, presenter mode).
#include "window/main_window.hpp"

#include "lessons/lesson_panel.hpp"
#include "window/view_area.hpp"

#include <QAction>
#include <QApplication>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QTimer>

namespace pcplab::ui
{

void main_window::restore_settings()
{
    if (QScreen* s = screen()) {
        const QSize avail = s->availableSize();
        if (avail.width() < 1600 || avail.height() < 1000) resize(avail * 0.9);
    }
    if (!m_settings) return;
    restoreGeometry(m_settings->value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(m_settings->value(QStringLiteral("window/state")).toByteArray());
    m_views->restore_state(m_settings->value(QStringLiteral("window/views")).toByteArray());
    if (auto t = parse_theme(m_settings->value(QStringLiteral("ui/theme")).toString())) m_theme = *t;
    bool ok = false;
    const double speed = m_settings->value(QStringLiteral("run/speed")).toDouble(&ok);
    if (ok && speed >= 0) m_speed = speed;
}

void main_window::save_settings()
{
    if (!m_settings) return;
    // Presenter mode is not a layout to come back to: save the normal window.
    if (!m_presenter) {
        m_settings->setValue(QStringLiteral("window/geometry"), saveGeometry());
        m_settings->setValue(QStringLiteral("window/state"), saveState());
    }
    m_settings->setValue(QStringLiteral("window/views"), m_views->save_state());
    m_settings->setValue(QStringLiteral("ui/theme"), theme_name(m_theme));
    m_settings->setValue(QStringLiteral("run/speed"), m_speed);
    m_settings->sync();
}

void main_window::set_theme(theme_kind t)
{
    m_theme = t;
    apply_theme(t, m_presenter, m_base_font);
    if (m_dark_action) m_dark_action->setChecked(t == theme_kind::dark);
    if (m_settings) m_settings->setValue(QStringLiteral("ui/theme"), theme_name(t));
}

void main_window::set_presenter(bool on)
{
    if (on == m_presenter) return;
    if (on) save_settings(); // the normal layout, before full screen changes it
    m_presenter = on;
    apply_theme(m_theme, on, m_base_font);
    if (m_lesson_panel) m_lesson_panel->set_presenter_mode(on);
    QTimer::singleShot(0, this, [this] { fit_controls(); }); // once every widget has the new font
    if (m_presenter_action) m_presenter_action->setChecked(on);
    if (on) {
        m_was_maximized = isMaximized();
        showFullScreen();
    } else if (m_was_maximized) {
        showMaximized();
    } else {
        showNormal();
    }
}

} // namespace pcplab::ui
