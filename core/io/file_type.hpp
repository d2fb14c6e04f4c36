// What kind of file system object a path names, in words for error messages.
#pragma once

#include <string>
#include <sys/types.h>

namespace pcplab::io
{

// "a FIFO (named pipe)", "a character device", "a directory", "a symbolic link" ...; "a regular file" for one.
std::string file_type_name(mode_t mode);

} // namespace pcplab::io
