#include "error.hpp"

namespace pcplab
{

std::string error::str() const
{
    std::string where = source;
    if (line > 0) {
        where += ":" + std::to_string(line);
        if (column > 0) where += ":" + std::to_string(column);
    } else if (!field.empty()) {
        where += where.empty() ? field : ": " + field;
    }
    return where.empty() ? message : where + ": " + message;
}

const std::string& status::message() const
{
    static const std::string none;
    return m_error ? m_error->message : none;
}

} // namespace pcplab
