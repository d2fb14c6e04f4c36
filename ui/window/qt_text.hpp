// std::string / std::string_view to QString, for the window's widgets (the core speaks UTF-8 std strings).
#pragma once

#include <QString>

#include <string>
#include <string_view>

namespace pcplab::ui
{

inline QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

} // namespace pcplab::ui
