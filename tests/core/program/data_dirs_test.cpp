// Where the presets and lessons are found: $PCPLAB_RESOURCES, an installed tree beside the executable, the source
// tree; $PCPLAB_LESSONS over all three.
#include "program/data_dirs.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <unistd.h>

using namespace pcplab::program;
namespace fs = std::filesystem;

namespace
{

// A scratch folder removed at the end of the test.
struct scratch {
    fs::path dir = fs::temp_directory_path() / ("pcplab-data-dirs-test-" + std::to_string(::getpid()));
    scratch() { fs::create_directories(dir); }
    ~scratch() { fs::remove_all(dir); }
};

data_lookup lookup(const fs::path& exe, const fs::path& source)
{
    data_lookup in;
    in.executable = exe;
    in.data_from_bin = "../share/pcplab";
    in.source_resources = source;
    return in;
}

} // namespace

TEST_CASE("an installed tree is found from the executable's folder: bin/../share/pcplab")
{
    scratch s;
    fs::create_directories(s.dir / "usr/bin");
    fs::create_directories(s.dir / "usr/share/pcplab/presets");
    const auto d = find_data_dirs(lookup(s.dir / "usr/bin/pcplab-cli", "/src/pcplab/resources"));
    CHECK(d.presets == s.dir / "usr/share/pcplab/presets");
    CHECK(d.lessons == s.dir / "usr/share/pcplab/lessons");
}

TEST_CASE("a build tree, with no share/pcplab/presets beside its bin folder, uses the source tree")
{
    scratch s;
    fs::create_directories(s.dir / "build/app");
    fs::create_directories(s.dir / "build/share/pcplab"); // but no presets/ in it
    const auto d = find_data_dirs(lookup(s.dir / "build/app/pcplab-cli", "/src/pcplab/resources"));
    CHECK(d.presets == fs::path("/src/pcplab/resources/presets"));
    CHECK(d.lessons == fs::path("/src/pcplab/lessons"));
    // An unknown executable: the source tree as well.
    CHECK(find_data_dirs(lookup("", "/src/pcplab/resources/")).presets == fs::path("/src/pcplab/resources/presets"));
    CHECK(find_data_dirs(lookup("", "/src/pcplab/resources/")).lessons == fs::path("/src/pcplab/lessons"));
}

TEST_CASE("PCPLAB_RESOURCES wins over an installed tree, and PCPLAB_LESSONS over everything")
{
    scratch s;
    fs::create_directories(s.dir / "usr/share/pcplab/presets");
    auto in = lookup(s.dir / "usr/bin/pcplab", "/src/pcplab/resources");
    in.resources_env = "/mine/resources/";
    auto d = find_data_dirs(in);
    CHECK(d.presets == fs::path("/mine/resources/presets"));
    CHECK(d.lessons == fs::path("/mine/lessons"));
    in.lessons_env = "/my/lessons";
    CHECK(find_data_dirs(in).lessons == fs::path("/my/lessons"));
    CHECK(find_data_dirs(in).presets == fs::path("/mine/resources/presets"));
    in.resources_env.clear();
    d = find_data_dirs(in);
    CHECK(d.presets == s.dir / "usr/share/pcplab/presets");
    CHECK(d.lessons == fs::path("/my/lessons"));
}

TEST_CASE("this test program, in the build tree, finds the source tree's presets and lessons")
{
    data_lookup in = this_process_lookup();
    CHECK(in.executable.filename() == "pcplab_tests");
    in.resources_env.clear(); // whatever the environment running the tests says
    in.lessons_env.clear();
    const auto d = find_data_dirs(in);
    CHECK(fs::equivalent(d.presets, fs::path(PCPLAB_RESOURCE_DIR) / "presets"));
    CHECK(fs::equivalent(d.lessons, fs::path(PCPLAB_RESOURCE_DIR) / ".." / "lessons"));
}
