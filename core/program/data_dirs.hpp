// Where pcplab's data lies: the machine presets and the lessons. One lookup for pcplab-cli, the window and the
// tests, so that a build tree and an installed tree (bin/ beside share/pcplab/) both work:
//
//   1. $PCPLAB_RESOURCES: presets in $PCPLAB_RESOURCES/presets, lessons beside it in $PCPLAB_RESOURCES/../lessons;
//   2. an installed tree, found from the executable: BINDIR/../share/pcplab/presets and .../lessons (the relative
//      path is CMake's, from the install's bin/ and share/ folders), when that presets folder exists;
//   3. the source tree the program was built from (resources/presets and lessons/), for a build tree.
//
// $PCPLAB_LESSONS, when set, is the lessons folder whatever else holds.
#pragma once

#include <filesystem>
#include <string>

namespace pcplab::program
{

struct data_dirs {
    std::filesystem::path presets; // NAME.json machine presets
    std::filesystem::path lessons; // NN-name.md lessons
};

// What the lookup reads; a test passes its own.
struct data_lookup {
    std::filesystem::path executable; // the running program (/proc/self/exe); empty when unknown
    std::filesystem::path data_from_bin; // the installed data folder relative to the executable's folder
    std::filesystem::path source_resources; // the source tree's resources/ folder
    std::string resources_env, lessons_env; // $PCPLAB_RESOURCES and $PCPLAB_LESSONS; empty when unset
};

data_dirs find_data_dirs(const data_lookup& in);

// The lookup of this process: its executable, its environment now, the paths it was built with.
data_lookup this_process_lookup();

// find_data_dirs(this_process_lookup()): read again at every call, so that a changed environment counts.
data_dirs find_data_dirs();

} // namespace pcplab::program
