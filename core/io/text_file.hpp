// Reading a whole input file (a preset, a /proc/zoneinfo capture, a lesson) with errors a user can act on:
// missing, unreadable, a directory, or larger than any such file can be (so /dev/zero or a mistaken
// multi-gigabyte file ends in an error instead of filling memory). /proc files (size 0) and pipes work; a FIFO
// that no program writes to is an error at once rather than a wait for a writer that may never come.
#pragma once

#include "base/error.hpp"

#include <cstddef>
#include <string>

namespace pcplab::io
{

// The text, or why not: error::message is e.g. "cannot open: No such file or directory", "is a directory,
// not a file" (the caller adds the path as its source).
result<std::string> read_text_file(const std::string& path, std::size_t max_bytes);

} // namespace pcplab::io
