#include "io/file_type.hpp"

#include <sys/stat.h>

namespace pcplab::io
{

std::string file_type_name(mode_t m)
{
    if (S_ISREG(m)) return "a regular file";
    if (S_ISLNK(m)) return "a symbolic link";
    if (S_ISDIR(m)) return "a directory";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISFIFO(m)) return "a FIFO (named pipe)";
    if (S_ISSOCK(m)) return "a socket";
    return "a special file";
}

} // namespace pcplab::io
