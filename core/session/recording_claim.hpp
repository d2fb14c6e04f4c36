// An exclusive claim on the path a recording is written to, held for as long as it is written. It keeps two
// things from happening: replacing what is not a recording (a device node, a FIFO, a directory, another
// program's file) and two writers on one file, where the second would silently replace the first one's
// recording. The claim is a flock(2) on the file itself: SQLite's own locks are POSIX record locks, which do
// not interact with flock on Linux, so readers and SQLite's locking go on as before.
#pragma once

#include "base/error.hpp"

#include <string>

namespace pcplab::session
{

class recording_claim
{
public:
    enum class intent { create, append };

    recording_claim() = default;
    // create: refuses an empty path and anything at `path` that is not a regular file or is locked by another
    // writer; replaces an old pcplab recording (or an empty file) there, then creates the file afresh and locks
    // it. append: the file must be a recording no other writer holds. Throws recording_error naming the path.
    recording_claim(const std::string& path, intent how);
    ~recording_claim();
    recording_claim(recording_claim&& o) noexcept;
    recording_claim& operator=(recording_claim&& o) noexcept;
    recording_claim(const recording_claim&) = delete;
    recording_claim& operator=(const recording_claim&) = delete;

    bool held() const { return m_fd >= 0; }

private:
    void release();
    int m_fd = -1;
};

// Why a recording could not be made at `path`, checked without changing anything (so that a command can say it
// before a long boot): an empty path, something that is not a regular file ("is a FIFO (named pipe), not a
// regular file; not overwriting it"; links are not followed), or a file another writer holds. Ok when none of
// these; the claim itself checks again, and also what only opening the file tells.
status recording_path_problem(const std::string& path);

} // namespace pcplab::session
