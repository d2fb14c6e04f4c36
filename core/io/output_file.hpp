// Writing a whole output file (an export) so that a failure leaves nothing half-written: the bytes go to a new
// file beside the target, which takes the target's place only once all of them are written. A target that is
// not a regular file (/dev/stdout, a FIFO) is written in place, as there is nothing to replace.
#pragma once

#include <string>
#include <string_view>

namespace pcplab::io
{

// "" when `data` is in `path`; else why not ("No space left on device", "Permission denied", ...), and an
// earlier file at `path` is left as it was.
std::string write_file_atomically(const std::string& path, std::string_view data);

} // namespace pcplab::io
