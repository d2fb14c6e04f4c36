// The subcommands of pcplab-cli. Each takes the arguments after its name, builds its whole output before
// writing it (so a failure writes nothing to stdout), returns the exit status, and throws cli_error on a
// usage problem.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pcplab::cli
{

int cmd_presets(const std::vector<std::string>& args);
int cmd_zoneinfo(const std::vector<std::string>& args);
int cmd_buddyinfo(const std::vector<std::string>& args);
int cmd_pagesets(const std::vector<std::string>& args);
int cmd_check_zoneinfo(const std::vector<std::string>& args);
int cmd_preset_from_zoneinfo(const std::vector<std::string>& args);
std::string preset_from_zoneinfo_help(); // cmd_preset_from_zoneinfo.cpp
int cmd_demo(const std::vector<std::string>& args);
int cmd_costs(const std::vector<std::string>& args);
std::string costs_help(); // help text kept with the command (cmd_costs.cpp)
int cmd_run(const std::vector<std::string>& args);
std::string run_help(); // cmd_run.cpp
int cmd_patches(const std::vector<std::string>& args); // also `seeds`, the command's first name
std::string patches_help(); // cmd_patches.cpp
int cmd_lessons(const std::vector<std::string>& args);
std::string lessons_help(); // cmd_lessons.cpp
int cmd_compare(const std::vector<std::string>& args);
std::string compare_help(); // cmd_compare.cpp
int cmd_export(const std::vector<std::string>& args);
int cmd_sweep(const std::vector<std::string>& args);
std::string sweep_help(); // cmd_sweep.cpp
std::string export_help(); // cmd_export.cpp

// Help texts: the overview, and one per subcommand (nullopt for an unknown name).
std::string general_help();
std::optional<std::string> command_help(std::string_view command);
std::string version_text();

// Write a finished output to stdout in one go.
void write_stdout(const std::string& text);
// Throws cli_error when something written to stdout could not be (a full disk, /dev/full): the output is
// incomplete, and the command must not exit 0. main() calls it once more after every command.
void check_stdout();

} // namespace pcplab::cli
