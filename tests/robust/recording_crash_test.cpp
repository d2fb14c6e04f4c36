// Crash safety of recordings, in a child process: a recorder killed by SIGKILL leaves a file that opens and
// replays up to its last commit, losing at most about one commit interval (one second by default); a
// recorder whose file cannot grow (RLIMIT_FSIZE: the disk is full as far as it can tell) reports a clear
// error, and the file still opens with the snapshots committed before.
#include "core/session/session_test_support.hpp"

#include "session/recorder.hpp"
#include "session/recording_reader.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace pcplab;

namespace
{

// CLOCK_MONOTONIC is one clock for every process: the child stamps each snapshot with it, so the parent can
// tell how much of the recording's last stretch the kill took.
std::int64_t monotonic_ns()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Publishes copies of `snaps` round-robin: seq 1, 2, ... stamped with monotonic_ns(), one every `gap`,
// forever. Writes one byte to `ready_fd` once `ready_after` snapshots are out.
[[noreturn]] void publish_forever(session::recorder& rec,
    const std::vector<std::shared_ptr<const sim::snapshot>>& snaps, std::chrono::microseconds gap, int ready_fd,
    std::uint64_t ready_after)
{
    for (std::uint64_t i = 1;; ++i) {
        auto s = std::make_shared<sim::snapshot>(*snaps[i % snaps.size()]);
        s->seq = i;
        s->sim_time_ns = static_cast<sim::vtime_ns>(monotonic_ns());
        rec.publish(s);
        if (i == ready_after) (void)!::write(ready_fd, "x", 1);
        std::this_thread::sleep_for(gap);
    }
}

} // namespace

TEST_CASE("a recording killed by SIGKILL opens and replays to its last commit, losing at most about a second")
{
    test::scratch_file f("robust_killed.db");
    const auto snaps = test::engine_snapshots(3, 100'000);
    int ready[2];
    REQUIRE(::pipe(ready) == 0);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        ::close(ready[0]);
        session::recorder_options ro; // the defaults a live recording uses: commit every 500 ms, drop when full
        session::recorder rec(f.path(), ro);
        // 50 snapshots a second, faster than the window publishes (30 Hz): the writer keeps up, even under
        // ASan on a loaded host, so what is lost is what a real recording loses. (At 500 a second, ASan's
        // writer fell behind by more than a second.)
        publish_forever(rec, snaps, std::chrono::microseconds(20'000), ready[1], 25);
    }
    ::close(ready[1]);
    char c = 0;
    REQUIRE(::read(ready[0], &c, 1) == 1);
    ::close(ready[0]);
    std::this_thread::sleep_for(std::chrono::milliseconds(3500)); // several commits
    const std::int64_t killed_at = monotonic_ns();
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    REQUIRE(WIFSIGNALED(status));
    REQUIRE(WTERMSIG(status) == SIGKILL);

    session::recording back(f.path());
    REQUIRE(back.runs().size() == 1);
    const auto& run = back.runs().front();
    CHECK_FALSE(run.finished);
    const auto idx = back.index(run.run);
    REQUIRE_FALSE(idx.empty());
    const auto all = back.load_all(run.run);
    REQUIRE(all.size() == idx.size());
    // Whole and in order: the published sequence without gaps (nothing is dropped at 50 snapshots/s).
    for (std::size_t i = 0; i < all.size(); ++i) CHECK(all[i]->seq == i + 1);
    const double lost_s = static_cast<double>(killed_at - static_cast<std::int64_t>(idx.back().t_ns)) / 1e9;
    INFO("snapshots kept: " << idx.size() << ", the last " << lost_s << " s before the kill were lost");
    CHECK(lost_s >= 0);
    // One commit interval (500 ms) plus the writer's lag on a busy host (ASan, two tests at once): about a second.
#if defined(__SANITIZE_THREAD__)
    // ThreadSanitizer slows the writer five- to fifteenfold: only a looser bound is meaningful there.
    CHECK(lost_s < 10.0);
#else
    CHECK(lost_s < 2.0);
#endif
}

TEST_CASE("a recording that hits a full disk says so and leaves a file that opens")
{
    test::scratch_file f("robust_full.db");
    const auto snaps = test::engine_snapshots(3, 100'000);
    int msg[2];
    REQUIRE(::pipe(msg) == 0);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // The file may not grow past 1 MiB (a few commits; the 20000 snapshots need far more): write() fails with EFBIG
        // (SIGXFSZ ignored, as a shell would not), which is what the recorder sees when the disk is full.
        ::close(msg[0]);
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit lim{1024 * 1024, 1024 * 1024};
        ::setrlimit(RLIMIT_FSIZE, &lim);
        std::string outcome = "no error";
        int code = 1;
        try {
            session::recorder_options ro;
            ro.commit_interval = std::chrono::milliseconds(20);
            ro.wait_when_full = true;
            session::recorder rec(f.path(), ro);
            for (std::uint64_t i = 1; i <= 20000; ++i) {
                auto s = std::make_shared<sim::snapshot>(*snaps[i % snaps.size()]);
                s->seq = i;
                s->sim_time_ns = i * 1000;
                rec.publish(s);
            }
            rec.close();
        } catch (const session::recording_error& e) {
            outcome = e.what();
            code = 0;
        } catch (const std::exception& e) {
            outcome = std::string("not a recording_error: ") + e.what();
            code = 2;
        }
        (void)!::write(msg[1], outcome.data(), outcome.size());
        ::_exit(code);
    }
    ::close(msg[1]);
    std::string outcome;
    char buf[512];
    for (ssize_t n; (n = ::read(msg[0], buf, sizeof buf)) > 0;) outcome.append(buf, static_cast<std::size_t>(n));
    ::close(msg[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    INFO("the recorder said: " << outcome);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    // One line naming the file, the problem and what the file keeps.
    CHECK(outcome.find(f.path()) != std::string::npos);
    CHECK(outcome.find('\n') == std::string::npos);
    CHECK(outcome.find("cannot be written (") != std::string::npos);
    CHECK(outcome.find("the file keeps run 1: ") != std::string::npos);

    // The file is not corrupt: it opens, and what was committed replays in order.
    session::recording back(f.path());
    REQUIRE(back.runs().size() == 1);
    const auto& run = back.runs().front();
    const auto idx = back.index(run.run);
    CHECK_FALSE(idx.empty());
    const auto all = back.load_all(run.run);
    REQUIRE(all.size() == idx.size());
    for (std::size_t i = 0; i < all.size(); ++i) CHECK(all[i]->seq == i + 1);
    // The run's counts are those of the last commit: the writer wrote nothing after the failure (it had claimed
    // every snapshot it was given, 963 where one was in the file).
    CHECK(run.snapshots_written == idx.size());
    CHECK_FALSE(run.finished);
    CHECK(outcome.find("run 1: " + std::to_string(idx.size()) + " snapshot") != std::string::npos);
    auto check = back.db().prepare("PRAGMA integrity_check");
    REQUIRE(check.step());
    CHECK(check.column_text(0) == "ok");
}
