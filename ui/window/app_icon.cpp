#include "ui/window/app_icon.hpp"

// resources/icons/icons.qrc sits in a static library, whose unreferenced initialiser the linker would drop.
static void init_icon_resource()
{
    Q_INIT_RESOURCE(icons);
}

namespace pcplab::ui
{

QIcon app_icon()
{
    init_icon_resource();
    return QIcon(QStringLiteral(":/icons/pcplab.svg"));
}

QString desktop_file_name()
{
    return QStringLiteral("pcplab");
}

} // namespace pcplab::ui
