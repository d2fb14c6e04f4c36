// The version and commit come from a header that cmake/build_commit.cmake writes at every build and rewrites
// only when they change, so a new HEAD recompiles this file alone.
#include "program/version.hpp"

#include "pcplab_build_commit.hpp"

namespace pcplab::program
{

std::string_view version()
{
    return PCPLAB_VERSION;
}

std::string_view commit()
{
    return PCPLAB_GIT_COMMIT;
}

std::string version_line()
{
    const std::string_view c = commit();
    return std::string(version()) + (c.empty() ? " (unknown commit)" : " (commit " + std::string(c) + ")");
}

} // namespace pcplab::program
