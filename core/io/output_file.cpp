#include "io/output_file.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pcplab::io
{

namespace
{

// All of `data` to `fd`; "" or strerror of the failure.
std::string write_all(int fd, std::string_view data)
{
    while (!data.empty()) {
        const ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return std::strerror(errno);
        if (n == 0) return "nothing could be written";
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return {};
}

std::string close_checked(int fd)
{
    // A file system that writes back late (NFS, a quota) reports a failed write only here.
    return ::close(fd) == 0 ? std::string() : std::string(std::strerror(errno));
}

} // namespace

std::string write_file_atomically(const std::string& given, std::string_view data)
{
    // A symbolic link keeps pointing where it did: the file it names is the one replaced.
    std::string path = given;
    if (char* real = ::realpath(given.c_str(), nullptr)) {
        path = real;
        std::free(real);
    }
    struct stat st {
    };
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) return "is a directory";
        const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0) return std::strerror(errno);
        std::string err = write_all(fd, data);
        std::string closed = close_checked(fd);
        return err.empty() ? closed : err;
    }
    // Beside the target, so that the rename below stays within one file system; the mode follows the umask.
    const std::string part = path + ".part-" + std::to_string(::getpid());
    const int fd = ::open(part.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) return std::strerror(errno);
    std::string err = write_all(fd, data);
    if (err.empty() && ::fsync(fd) != 0) err = std::strerror(errno);
    std::string closed = close_checked(fd);
    if (err.empty()) err = closed;
    if (err.empty() && ::rename(part.c_str(), path.c_str()) != 0) err = std::strerror(errno);
    if (!err.empty()) ::unlink(part.c_str());
    return err;
}

} // namespace pcplab::io
