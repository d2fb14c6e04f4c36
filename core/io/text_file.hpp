// Reading a whole input file (a preset, a /proc/zoneinfo capture, a lesson) with errors a user can act on:
// missing, unreadable, a directory, or larger than any such file can be (so /dev/zero or a mistaken
// multi-gigabyte file ends in an error instead of filling memory). /proc files (size 0) and pipes work; a FIFO
// that no program writes to is an error at once rather than a wait for a writer that may never come.
#pragma once

#include <cstddef>
#include <string>
#include <variant>

namespace pcplab::io
{

struct read_error {
    std::string message; // "cannot open: No such file or directory", "is a directory, not a file", ...
};

std::variant<std::string, read_error> read_text_file(const std::string& path, std::size_t max_bytes);

} // namespace pcplab::io
