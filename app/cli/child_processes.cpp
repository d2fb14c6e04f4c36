#include "child_processes.hpp"

#include <cerrno>
#include <chrono>
#include <climits>
#include <fcntl.h>
#include <map>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace pcplab::cli
{

namespace
{

using clock = std::chrono::steady_clock;

// posix_spawn with the child's stdout and stderr redirected; -1 when it could not start.
pid_t spawn(const child_job& j)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, j.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, j.stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    std::vector<char*> argv;
    for (const auto& a : j.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int err = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    return err == 0 ? pid : -1;
}

int status_of(int wstatus)
{
    if (WIFEXITED(wstatus)) return WEXITSTATUS(wstatus);
    if (WIFSIGNALED(wstatus)) return 128 + WTERMSIG(wstatus);
    return 127;
}

} // namespace

void run_children(
    const std::vector<child_job>& jobs, unsigned parallel, const std::function<void(const child_result&)>& done)
{
    struct running_job {
        std::size_t job;
        clock::time_point started;
    };
    std::map<pid_t, running_job> running;
    std::size_t next = 0;
    const unsigned limit = parallel ? parallel : 1;
    while (next < jobs.size() || !running.empty()) {
        while (next < jobs.size() && running.size() < limit) {
            const auto started = clock::now();
            const pid_t pid = spawn(jobs[next]);
            if (pid < 0) {
                done(child_result{next, 127, 0, running.size()});
            } else {
                running.emplace(pid, running_job{next, started});
            }
            ++next;
        }
        if (running.empty()) continue;
        int wstatus = 0;
        const pid_t pid = ::waitpid(-1, &wstatus, 0);
        if (pid < 0) {
            if (errno == EINTR) continue;
            break; // no children left that we know of
        }
        auto it = running.find(pid);
        if (it == running.end()) continue;
        const running_job r = it->second;
        running.erase(it);
        const double wall = std::chrono::duration<double>(clock::now() - r.started).count();
        done(child_result{r.job, status_of(wstatus), wall, running.size()});
    }
}

std::string self_executable()
{
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return {};
    return std::string(buf, static_cast<std::size_t>(n));
}

} // namespace pcplab::cli
