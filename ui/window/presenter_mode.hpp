// How the window looks: the theme (light or dark) and presenter mode (F11), which share the application's
// palette and font. Presenter mode is for a projector: full screen, high contrast, fonts scaled to the
// screen, every dock, tool bar and the menu bar hidden, one or two views filling the screen and the key
// numbers (B against A) large above them. Leaving it puts back exactly what was there: the geometry and
// window state, the docks and tool bars, and the view arrangement.
#pragma once

#include "ui/window/theme.hpp"

#include <QByteArray>
#include <QFont>
#include <QObject>
#include <QPoint>
#include <QPointer>
#include <QSize>
#include <QStringList>
#include <QWidget>

#include <utility>
#include <vector>

class QAction;
class QMainWindow;
class QMenu;
class QSettings;

namespace pcplab::ui
{

class key_strip;
class view_area;

class presenter_mode : public QObject
{
    Q_OBJECT
public:
    // `settings` (may be null) keeps the theme; `strip` shows the key numbers in presenter mode.
    presenter_mode(
        QMainWindow* window, view_area* views, key_strip* strip, QSettings* settings, QObject* parent = nullptr);

    // The View menu's entries (presenter mode, dark theme).
    void add_actions(QMenu* view_menu);

    void set_theme(theme_kind t);
    theme_kind theme() const { return m_theme; }
    void set_presenter(bool on);
    bool on() const { return m_on; }
    // The views presenter mode shows when none is focused (the default: the lock lanes and the limits).
    void set_views(const QStringList& ids) { m_views_shown = ids; }
    // Presenter mode on a canvas of this size instead of the screen (a --screenshot: the picture is the screen).
    void set_canvas(const QSize& size) { m_canvas = size; }
    double font_scale() const { return m_scale; }

signals:
    // Before the window changes its state: the normal layout can still be saved.
    void entering();
    // The font and palette are set (entering: the docks are hidden; leaving: before the layout is put back).
    void changed(bool on);

private:
    void enter();
    void leave();

    QMainWindow* m_window;
    view_area* m_views;
    key_strip* m_strip;
    QSettings* m_settings;
    theme_kind m_theme = theme_kind::light;
    bool m_on = false;
    double m_scale = 1.0;
    QFont m_base_font;
    QSize m_canvas;
    QStringList m_views_shown{QStringLiteral("locks"), QStringLiteral("limits")};
    struct layout {
        QByteArray geometry, state, views;
        Qt::WindowStates window_state;
        QPoint frame_pos; // restoreGeometry may place the frame a title bar off where it was
        // Each dock's widget's minimum width: what sized itself by the presenter font must not hold a column wider.
        std::vector<std::pair<QPointer<QWidget>, int>> dock_min_widths;
    } m_saved;
    QAction* m_presenter_action = nullptr;
    QAction* m_dark_action = nullptr;
};

} // namespace pcplab::ui
