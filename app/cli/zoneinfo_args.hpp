// What check-zoneinfo and preset-from-zoneinfo share: reading a capture and the flags that describe the
// machine it came from (--era, --cpus-per-node, --page-size).
#pragma once

#include "args.hpp"

#include "procfs/zoneinfo_check.hpp"
#include "procfs/zoneinfo_parse.hpp"

#include <string>

namespace pcplab::cli
{

// The capture, or a cli_error naming the file and the line at fault (or saying that it holds several).
procfs::zoneinfo_doc load_capture(const std::string& file);
// --era, --cpus-per-node and --page-size (4, 16 or 64, in KiB) as check options.
procfs::check_options zoneinfo_check_options(const parsed_args& a);

} // namespace pcplab::cli
