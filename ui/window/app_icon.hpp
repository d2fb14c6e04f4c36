// The application's identity on the desktop: its icon and the desktop entry it belongs to.
#pragma once

#include <QIcon>
#include <QString>

namespace pcplab::ui
{

// resources/icons/pcplab.svg, compiled in: the same drawing the package installs into the hicolor icon theme, so
// the window carries it in a build tree too.
QIcon app_icon();

// "pcplab": resources/desktop/pcplab.desktop's name without ".desktop", which is also the AppStream id and the
// icon's name. Wayland compositors match a window to its menu entry (and icon) by it.
QString desktop_file_name();

} // namespace pcplab::ui
