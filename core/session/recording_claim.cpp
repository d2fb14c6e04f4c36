#include "session/recording_claim.hpp"

#include "session/recording_schema.hpp"

#include "io/file_type.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pcplab::session
{

namespace
{

const char* const k_empty_path = "an empty path; name the file to record to";
const char* const k_held
    = "is being recorded by another process; not touching it (wait for it to finish or record to another file)";

std::string not_regular(mode_t m)
{
    return "is " + io::file_type_name(m) + ", not a regular file; not overwriting it";
}

std::string errno_text(int err)
{
    return std::strerror(err);
}

// The file at `path` opened without following a link and without blocking (a FIFO's open would), checked
// to be the regular file that lstat saw.
int open_regular(const std::string& path, int flags)
{
    const int fd = ::open(path.c_str(), flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ELOOP) throw recording_error(path, "is a symbolic link, not a regular file; not overwriting it");
        throw recording_error(path, "cannot be opened (" + errno_text(errno) + ")");
    }
    struct stat st {
    };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw recording_error(path, "changed while it was checked; not overwriting it");
    }
    return fd;
}

// Another writer holds the file: refuse rather than write over its recording.
void lock_or_refuse(int fd, const std::string& path)
{
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return;
    const int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK)
        throw recording_error(path,
            "is being recorded by another process; not touching it (wait for it to finish or record to another file)");
    throw recording_error(path, "cannot be locked for recording (" + errno_text(err) + ")");
}

// Refuses to go on when something that is not a regular file sits at `path` (lstat: links are not followed).
// Returns whether anything is there.
bool check_regular_or_absent(const std::string& path, const std::string& shown)
{
    struct stat st {
    };
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) return false;
        throw recording_error(shown, "cannot be checked (" + errno_text(errno) + ")");
    }
    if (!S_ISREG(st.st_mode))
        throw recording_error(shown,
            path == shown
                ? not_regular(st.st_mode)
                : "has " + path + " beside it, which is " + io::file_type_name(st.st_mode) + "; not overwriting it");
    return true;
}

} // namespace

status recording_path_problem(const std::string& path)
{
    if (path.empty()) return pcplab::error(k_empty_path);
    struct stat st {
    };
    if (::lstat(path.c_str(), &st) != 0) return {};
    if (!S_ISREG(st.st_mode)) return pcplab::error(not_regular(st.st_mode));
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return {};
    const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);
    if (held) return pcplab::error(k_held);
    return {};
}

recording_claim::recording_claim(const std::string& path, intent how)
{
    if (path.empty()) throw recording_error("''", k_empty_path);
    const bool exists = check_regular_or_absent(path, path);

    if (how == intent::append) {
        if (!exists) throw recording_error(path, "no such file (nothing to add runs to)");
        const int fd = open_regular(path, O_RDWR);
        lock_or_refuse(fd, path);
        m_fd = fd;
        return;
    }

    if (exists) {
        // Locked while it is checked and removed, so that a writer starting now cannot take it over halfway.
        const int old_fd = open_regular(path, O_RDONLY);
        lock_or_refuse(old_fd, path);
        try {
            struct stat st {
            };
            ::fstat(old_fd, &st);
            // Replacing is only allowed for a recording: `--record notes.txt` must not destroy notes.
            if (st.st_size != 0) {
                try {
                    open_recording_db(path).close();
                } catch (const recording_error& e) {
                    if (e.problem().rfind("not a pcplab recording", 0) == 0)
                        throw recording_error(path, "exists and is not a pcplab recording; not overwriting it");
                    throw recording_error(
                        path, "exists and cannot be replaced (" + e.problem() + "); not overwriting it");
                }
            }
            for (const char* suffix : {"-wal", "-shm"}) check_regular_or_absent(path + suffix, path);
            for (const char* suffix : {"-wal", "-shm", ""}) {
                const std::string p = path + suffix;
                if (::unlink(p.c_str()) != 0 && errno != ENOENT)
                    throw recording_error(path, "cannot replace " + p + " (" + errno_text(errno) + ")");
            }
        } catch (...) {
            ::close(old_fd);
            throw;
        }
        ::close(old_fd);
    } else {
        // A stale write-ahead log beside a missing file would be read back into the new recording.
        for (const char* suffix : {"-wal", "-shm"}) {
            const std::string p = path + suffix;
            if (check_regular_or_absent(p, path) && ::unlink(p.c_str()) != 0)
                throw recording_error(path, "cannot remove the stale " + p + " (" + errno_text(errno) + ")");
        }
    }

    // Created here and only here (O_EXCL): if another process made the file since, it is theirs.
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        if (errno == EEXIST)
            throw recording_error(path, "was created by another process while it was being replaced; not touching it");
        throw recording_error(path, "cannot write the recording (cannot create the file: " + errno_text(errno) + ")");
    }
    lock_or_refuse(fd, path);
    m_fd = fd;
}

recording_claim::~recording_claim()
{
    release();
}

recording_claim::recording_claim(recording_claim&& o) noexcept
    : m_fd(o.m_fd)
{
    o.m_fd = -1;
}

recording_claim& recording_claim::operator=(recording_claim&& o) noexcept
{
    if (this != &o) {
        release();
        m_fd = o.m_fd;
        o.m_fd = -1;
    }
    return *this;
}

void recording_claim::release()
{
    if (m_fd >= 0) ::close(m_fd); // closing drops the flock
    m_fd = -1;
}

} // namespace pcplab::session
