// Running commands as child processes, a bounded number at a time (a sweep's points): each child's stdout and
// stderr go to files of its own, and each completion is reported as it happens.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace pcplab::cli
{

struct child_job {
    std::vector<std::string> argv; // argv[0] is the program's path
    std::string stdout_path, stderr_path; // created or truncated
};

struct child_result {
    std::size_t job = 0; // index into the jobs
    int exit_status = 0; // the child's exit code, or 128 + the signal that ended it, or 127 when it did not start
    double wall_s = 0;
    std::size_t running = 0; // children still running after this one
};

// Runs every job, at most `parallel` at once, in order of the vector; calls `done` on the caller's thread as
// each one ends.
void run_children(
    const std::vector<child_job>& jobs, unsigned parallel, const std::function<void(const child_result&)>& done);

// This program's own executable (/proc/self/exe), to start copies of it.
std::string self_executable();

} // namespace pcplab::cli
