// Machine presets: JSON files in resources/presets/ (schema in resources/presets/README.md) turned into a
// machine_spec, with errors that name the file, the field and the problem.
#pragma once

#include "mm/machine_spec.hpp"

#include <string>
#include <variant>
#include <vector>

namespace pcplab::sim
{

struct preset_error {
    std::string file; // the path as given
    std::string field; // JSON path of the offending field ("nodes[1].cpus"), empty for syntax errors
    std::string message; // what is wrong
    int line = 0; // syntax errors: the line of the offending character (1-based); 0 otherwise
    std::string str() const; // "FILE: FIELD: MESSAGE" (or "FILE: line L: ..." for syntax errors)
};

using preset_result = std::variant<mm::machine_spec, preset_error>;

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
