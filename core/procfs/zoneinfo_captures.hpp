// A file of /proc/zoneinfo captures: one capture as the kernel prints it, or several in mmtests' monitor framing,
// a "time: EPOCH" line before each (what `pcplab-cli export --format zoneinfo` writes). A UTF-8 byte-order mark
// that an editor put at the start is skipped. Each capture goes through parse_zoneinfo on its own; a message
// names the line of the whole file.
#pragma once

#include "base/error.hpp"
#include "zoneinfo_parse.hpp"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace pcplab::procfs
{

struct zoneinfo_capture {
    std::optional<long long> time; // the EPOCH of its "time:" line; none for an unframed file
    int first_line = 1; // where its text starts in the file
    zoneinfo_doc doc;
};

using zoneinfo_captures_result = result<std::vector<zoneinfo_capture>>;
zoneinfo_captures_result parse_zoneinfo_captures(const std::string& text, const std::string& file);
zoneinfo_captures_result load_zoneinfo_captures(const std::string& path);

} // namespace pcplab::procfs
