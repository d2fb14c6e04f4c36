// What the window remembers (QSettings: geometry, dock and view layout, theme, speed; the last preset is saved as
// it is chosen).
#include "ui/window/main_window.hpp"

#include "ui/window/lesson_control.hpp"
#include "ui/window/machine_control.hpp"
#include "ui/window/presenter_mode.hpp"
#include "ui/window/view_area.hpp"

#include <QScreen>

#include <QSettings>
#include <algorithm>

namespace pcplab::ui
{

namespace
{
// A window manager's title bar and borders, before the window is shown and they can be measured.
const QSize k_frame_guess(16, 48);
} // namespace

void main_window::restore_settings(bool fill_screen_when_new)
{
    // 1600x1000 where the screen has room for it and its frame, else the screen's available area: a
    // 1600x1000 window on a 1600x1000 screen would put the status bar below the screen's edge.
    if (QScreen* s = screen()) {
        const QRect avail = s->availableGeometry();
        const QSize fit = QSize(1600, 1000).boundedTo(avail.size() - k_frame_guess);
        resize(fit);
        move(avail.topLeft()
            + QPoint(std::max(0, (avail.width() - fit.width() - k_frame_guess.width()) / 2),
                std::max(0, (avail.height() - fit.height() - k_frame_guess.height()) / 2)));
    }
    if (!m_settings) return;
    // The first start fills the screen (a class on a projector sees no black third); the size above stays the
    // normal one, for un-maximising. Later starts open as the window was left.
    const QByteArray geometry = m_settings->value(QStringLiteral("window/geometry")).toByteArray();
    if (geometry.isEmpty() && fill_screen_when_new)
        setWindowState(windowState() | Qt::WindowMaximized);
    else
        restoreGeometry(geometry);
    restoreState(m_settings->value(QStringLiteral("window/state")).toByteArray());
    m_lessons->give_back_height(); // a layout saved with a lesson open had the key figures as a tab
    m_views->restore_state(m_settings->value(QStringLiteral("window/views")).toByteArray());
    if (auto t = parse_theme(m_settings->value(QStringLiteral("ui/theme")).toString())) m_look->set_theme(*t);
    bool ok = false;
    const double speed = m_settings->value(QStringLiteral("run/speed")).toDouble(&ok);
    if (ok && speed >= 0) m_machine->set_speed(speed);
}

// Once shown, the frame is known: a window (restored or new) that pokes out of the screen's available area is
// made to fit and moved inside it.
void main_window::fit_to_screen()
{
    if (isMaximized() || isFullScreen() || !screen()) return;
    const QRect avail = screen()->availableGeometry();
    const QRect frame = frameGeometry();
    const QSize extra = frame.size() - size();
    if (avail.contains(frame)) return;
    const QSize inner = size().boundedTo(avail.size() - extra);
    resize(inner);
    const QSize outer = inner + extra;
    move(std::clamp(frame.left(), avail.left(), avail.right() + 1 - outer.width()),
        std::clamp(frame.top(), avail.top(), avail.bottom() + 1 - outer.height()));
}

void main_window::save_settings()
{
    if (!m_settings) return;
    // Presenter mode is not a layout to come back to: save the normal window.
    if (!m_look->on()) {
        m_settings->setValue(QStringLiteral("window/geometry"), saveGeometry());
        m_settings->setValue(QStringLiteral("window/state"), saveState());
    }
    m_settings->setValue(QStringLiteral("window/views"), m_views->save_state());
    m_settings->setValue(QStringLiteral("ui/theme"), theme_name(m_look->theme()));
    m_settings->setValue(QStringLiteral("run/speed"), m_machine->own_speed()); // not a lesson's pace
    m_settings->sync();
}

} // namespace pcplab::ui
