#include "text_file.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pcplab::io
{

namespace
{

// Closes the descriptor on every path out of read_text_file.
struct fd_guard {
    int fd;
    ~fd_guard()
    {
        if (fd >= 0) ::close(fd);
    }
};

std::string size_text(std::size_t bytes)
{
    if (bytes >= (1u << 20)) return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes >> 10) + " KiB";
}

} // namespace

result<std::string> read_text_file(const std::string& path, std::size_t max_bytes)
{
    // Opened without blocking: opening a FIFO that no program writes to would wait for a writer forever.
    fd_guard f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
    if (f.fd < 0) return pcplab::error(std::string("cannot open: ") + std::strerror(errno));
    struct stat st {
    };
    if (::fstat(f.fd, &st) != 0) return pcplab::error(std::string("cannot stat: ") + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) return pcplab::error("is a directory, not a file");
    if (S_ISREG(st.st_mode) && static_cast<unsigned long long>(st.st_size) > max_bytes)
        return pcplab::error("is larger than " + size_text(max_bytes) + ": not the kind of file expected here");
    // A pipe's first read tells whether anyone writes to it: end of file at once means no writer (reading on
    // would only ever see end of file), EAGAIN a writer that has not written yet. Everything else, and a pipe
    // with a writer, is read blocking from here on.
    bool first_read = S_ISFIFO(st.st_mode);
    if (!first_read) ::fcntl(f.fd, F_SETFL, ::fcntl(f.fd, F_GETFL) & ~O_NONBLOCK);

    std::string text;
    char buf[65536];
    for (;;) {
        ssize_t n = ::read(f.fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (first_read) {
            first_read = false;
            if (n == 0) return pcplab::error("is a FIFO (named pipe) that no program writes to: nothing to read");
            ::fcntl(f.fd, F_SETFL, ::fcntl(f.fd, F_GETFL) & ~O_NONBLOCK);
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) continue;
        }
        if (n < 0) return pcplab::error(std::string("read error: ") + std::strerror(errno));
        if (n == 0) break;
        if (text.size() + static_cast<std::size_t>(n) > max_bytes)
            return pcplab::error("is larger than " + size_text(max_bytes) + ": not the kind of file expected here");
        text.append(buf, static_cast<std::size_t>(n));
    }
    return text;
}

} // namespace pcplab::io
