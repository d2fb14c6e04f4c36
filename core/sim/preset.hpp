// Machine presets: JSON files in resources/presets/ (schema in resources/presets/README.md) turned into a
// machine_spec, with errors that name the file, the field and the problem.
#pragma once

#include "base/error.hpp"
#include "mm/machine_spec.hpp"

#include <string>
#include <variant>
#include <vector>

namespace pcplab::sim
{

// An error names the file as given (source), and the JSON path of the offending field ("nodes[1].cpus") or,
// for a syntax error, the line of the offending character.
using preset_result = result<mm::machine_spec>;

// Parse one preset file.
preset_result load_preset_file(const std::string& path);
// Parse preset JSON text (path used only in messages).
preset_result parse_preset(const std::string& json_text, const std::string& path);

// The presets directory (program/data_dirs.hpp: $PCPLAB_RESOURCES/presets, else the installed
// share/pcplab/presets, else the source tree's resources/presets).
std::string presets_dir();
// Names of the presets found there (file stems), sorted.
std::vector<std::string> list_presets();
// A preset by name ("epyc2-256") or by path (anything containing '/' or ending in .json).
preset_result load_preset(const std::string& name_or_path);

} // namespace pcplab::sim
