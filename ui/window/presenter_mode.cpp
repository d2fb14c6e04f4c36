// The theme and presenter mode.
#include "ui/window/presenter_mode.hpp"

#include "ui/window/key_strip.hpp"
#include "ui/window/view_area.hpp"

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

namespace pcplab::ui
{

presenter_mode::presenter_mode(
    QMainWindow* window, view_area* views, key_strip* strip, QSettings* settings, QObject* parent)
    : QObject(parent)
    , m_window(window)
    , m_views(views)
    , m_strip(strip)
    , m_settings(settings)
    , m_base_font(QApplication::font())
{
}

void presenter_mode::add_actions(QMenu* view_menu)
{
    m_presenter_action = view_menu->addAction(tr("Presenter mode"));
    m_presenter_action->setShortcut(QKeySequence(Qt::Key_F11));
    m_presenter_action->setToolTip(tr("Full screen, two views, large fonts and key numbers, high contrast"));
    m_presenter_action->setStatusTip(m_presenter_action->toolTip());
    m_presenter_action->setCheckable(true);
    m_presenter_action->setChecked(m_on);
    connect(m_presenter_action, &QAction::triggered, this, &presenter_mode::set_presenter);
    m_window->addAction(m_presenter_action); // shortcuts keep working with the menu bar hidden
    m_dark_action = view_menu->addAction(tr("Dark theme"));
    m_dark_action->setShortcut(QKeySequence(tr("Ctrl+Shift+D")));
    m_dark_action->setToolTip(tr("Dark or light colours"));
    m_dark_action->setStatusTip(m_dark_action->toolTip());
    m_dark_action->setCheckable(true);
    m_dark_action->setChecked(m_theme == theme_kind::dark);
    connect(m_dark_action, &QAction::triggered, this,
        [this](bool on) { set_theme(on ? theme_kind::dark : theme_kind::light); });
    m_window->addAction(m_dark_action);
}

void presenter_mode::set_theme(theme_kind t)
{
    m_theme = t;
    apply_theme(t, m_on, m_base_font, m_on ? m_scale : 1.0);
    if (m_dark_action) m_dark_action->setChecked(t == theme_kind::dark);
    if (m_settings) m_settings->setValue(QStringLiteral("ui/theme"), theme_name(t));
}

void presenter_mode::set_presenter(bool on)
{
    if (on == m_on) return;
    if (m_presenter_action) m_presenter_action->setChecked(on);
    on ? enter() : leave();
}

void presenter_mode::enter()
{
    emit entering(); // the normal layout, before full screen changes it
    m_saved = {m_window->saveGeometry(), m_window->saveState(), m_views->save_state(), m_window->windowState(),
        m_window->frameGeometry().topLeft(), {}};
    for (QDockWidget* d : m_window->findChildren<QDockWidget*>())
        if (d->widget()) m_saved.dock_min_widths.emplace_back(d->widget(), d->widget()->minimumWidth());
    m_on = true;
    const QScreen* screen = m_window->screen();
    const QSize fill = m_canvas.isValid() ? m_canvas : screen ? screen->size() : m_window->size();
    m_scale = presenter_font_scale(m_base_font, fill.height());
    apply_theme(m_theme, true, m_base_font, m_scale);
    for (QDockWidget* d : m_window->findChildren<QDockWidget*>()) d->hide();
    for (QToolBar* t : m_window->findChildren<QToolBar*>()) t->hide();
    m_window->menuBar()->hide();
    m_window->statusBar()->hide();
    if (m_views->focus_views().isEmpty()) m_views->set_focus_views(m_views_shown);
    m_strip->show();
    emit changed(true);
    if (m_canvas.isValid()) {
        m_window->setWindowState(Qt::WindowNoState);
        m_window->resize(m_canvas);
    } else {
        m_window->showFullScreen();
    }
}

void presenter_mode::leave()
{
    m_on = false;
    apply_theme(m_theme, false, m_base_font, 1.0);
    m_strip->hide();
    m_window->menuBar()->show();
    m_window->statusBar()->show();
    // The widgets' minimum sizes still follow the large font until their layouts have run again: a window put
    // back before that is held larger than it was, and what sizes itself by the font would measure the old one.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    for (const auto& [widget, width] : m_saved.dock_min_widths)
        if (widget) widget->setMinimumWidth(width);
    emit changed(false); // what sizes itself by the font does so before the layout is put back
    // The window's size first: the docks' and the views' splitter sizes are relative to it.
    const auto put_back = [this, saved = m_saved] {
        m_window->setWindowState(saved.window_state & ~Qt::WindowFullScreen);
        m_window->restoreGeometry(saved.geometry);
        if (!(saved.window_state & Qt::WindowMaximized)) m_window->move(saved.frame_pos);
        m_window->restoreState(saved.state); // the docks and tool bars as they were
        m_views->restore_state(saved.views);
    };
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    put_back();
    // A window manager ends full screen asynchronously: the layout again once it has. Twice: on a loaded host
    // openbox had not put the frame back 150 ms later, so the move placed the window's inside at the frame's old
    // corner and its title bar off the screen.
    for (const int ms : {150, 600})
        QTimer::singleShot(ms, this, [this, put_back] {
            if (!m_on && !m_window->isFullScreen()) put_back();
        });
}

} // namespace pcplab::ui
