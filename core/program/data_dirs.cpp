#include "program/data_dirs.hpp"

#include <cstdlib>
#include <system_error>

// Both set by core/CMakeLists.txt on this file alone.
#ifndef PCPLAB_SOURCE_RESOURCES
#define PCPLAB_SOURCE_RESOURCES "resources"
#endif
#ifndef PCPLAB_DATA_FROM_BIN
#define PCPLAB_DATA_FROM_BIN "../share/pcplab"
#endif

namespace pcplab::program
{

namespace
{

namespace fs = std::filesystem;

// A resources folder's presets, and the lessons folder beside it ("resources/" and "resources" alike).
data_dirs from_resources(const fs::path& resources)
{
    fs::path base = resources.lexically_normal();
    if (!base.has_filename()) base = base.parent_path();
    return {base / "presets", base.parent_path() / "lessons"};
}

std::string env(const char* name)
{
    const char* v = std::getenv(name);
    return v ? v : "";
}

} // namespace

data_dirs find_data_dirs(const data_lookup& in)
{
    data_dirs dirs;
    std::error_code ec;
    if (!in.resources_env.empty()) {
        dirs = from_resources(in.resources_env);
    } else if (const fs::path installed = (in.executable.parent_path() / in.data_from_bin).lexically_normal();
               !in.executable.empty() && fs::is_directory(installed / "presets", ec)) {
        dirs = {installed / "presets", installed / "lessons"};
    } else {
        dirs = from_resources(in.source_resources);
    }
    if (!in.lessons_env.empty()) dirs.lessons = in.lessons_env;
    return dirs;
}

data_lookup this_process_lookup()
{
    data_lookup in;
    std::error_code ec;
    in.executable = fs::read_symlink("/proc/self/exe", ec);
    if (ec) in.executable.clear();
    in.data_from_bin = PCPLAB_DATA_FROM_BIN;
    in.source_resources = PCPLAB_SOURCE_RESOURCES;
    in.resources_env = env("PCPLAB_RESOURCES");
    in.lessons_env = env("PCPLAB_LESSONS");
    return in;
}

data_dirs find_data_dirs()
{
    return find_data_dirs(this_process_lookup());
}

} // namespace pcplab::program
