#include "core/session/session_test_support.hpp"

#include "session/recorder.hpp"
#include "session/recording_reader.hpp"
#include "session/sqlite_db.hpp"

#include <catch2/catch.hpp>

#include <csignal>
#include <fstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace pcplab;

namespace
{

void write_file(const std::string& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary) << bytes;
}

// A complete small recording at `path`.
void make_recording(const std::string& path, int snapshots = 4)
{
    test::record_snapshots(path, test::engine_snapshots(snapshots, 100'000));
}

// The one-line message opening `path` fails with (empty when it opens).
std::string open_error(const std::string& path)
{
    try {
        session::recording r(path);
        for (const auto& run : r.runs()) r.load_all(run.run);
        return "";
    } catch (const session::recording_error& e) {
        return e.what();
    }
}

} // namespace

TEST_CASE("a missing, empty or text file is refused with its name and the problem")
{
    test::scratch_file f("bad.db");
    CHECK(open_error(f.path()) == f.path() + ": no such file");
    write_file(f.path(), "");
    CHECK(open_error(f.path()) == f.path() + ": empty file (not a pcplab recording)");
    write_file(f.path(), "time: 1700000000\nNode 0, zone DMA\n");
    CHECK(open_error(f.path()) == f.path() + ": not a pcplab recording (not an SQLite database)");
    write_file(f.path(), "SQLite format 3");
    CHECK(open_error(f.path()) == f.path() + ": not a pcplab recording (not an SQLite database)");
    write_file(f.path(), std::string("SQLite format 3\0", 16) + "short");
    CHECK(open_error(f.path()) == f.path() + ": truncated recording (shorter than an SQLite header)");
}

TEST_CASE("another program's SQLite database is not taken for a recording")
{
    test::scratch_file f("other.db");
    {
        session::sqlite_db db(f.path(), session::sqlite_db::mode::create);
        db.exec("CREATE TABLE meta(key TEXT, value TEXT); INSERT INTO meta VALUES('format', 'pcplab-recording')");
    }
    CHECK(open_error(f.path()) == f.path() + ": not a pcplab recording (an SQLite database of another program)");
}

TEST_CASE("a recording of a newer schema is refused with both versions named")
{
    test::scratch_file f("newer.db");
    make_recording(f.path());
    {
        session::sqlite_db db(f.path(), session::sqlite_db::mode::read_write);
        db.exec("PRAGMA user_version = " + std::to_string(session::RECORDING_SCHEMA_VERSION + 1));
    }
    CHECK(open_error(f.path())
        == f.path() + ": recording schema version " + std::to_string(session::RECORDING_SCHEMA_VERSION + 1)
            + " is newer than this pcplab reads (" + std::to_string(session::RECORDING_SCHEMA_VERSION)
            + "); open it with a newer pcplab");
    // And an untouched one opens: the check above is about the version, not the file.
    test::scratch_file g("fine.db");
    make_recording(g.path());
    CHECK(open_error(g.path()) == "");
}

TEST_CASE("a truncated recording is refused, saying so")
{
    test::scratch_file f("cut.db");
    make_recording(f.path(), 8);
    const std::string bytes = test::read_bytes(f.path());
    REQUIRE(bytes.size() > 8192);
    write_file(f.path(), bytes.substr(0, bytes.size() / 2));
    const std::string err = open_error(f.path());
    CHECK(err.rfind(f.path() + ": truncated recording (", 0) == 0);
}

TEST_CASE("a corrupt recording gives a clear error, never a crash")
{
    test::scratch_file f("corrupt.db");
    make_recording(f.path(), 8);
    const std::string good = test::read_bytes(f.path());
    // Overwrite whole pages in the middle of the file with garbage: SQLite or the blob decoder must notice.
    std::string bad = good;
    for (std::size_t i = bad.size() / 3; i < bad.size() * 2 / 3; ++i) bad[i] = static_cast<char>(i * 37);
    write_file(f.path(), bad);
    const std::string err = open_error(f.path());
    INFO(err);
    CHECK(err.rfind(f.path() + ": ", 0) == 0);
    CHECK(err.find('\n') == std::string::npos);
    CHECK((err.find("damaged") != std::string::npos || err.find("corrupt") != std::string::npos
        || err.find("unreadable") != std::string::npos));
}

TEST_CASE("a corrupt snapshot blob is reported with its run and sequence number")
{
    test::scratch_file f("blob.db");
    make_recording(f.path());
    {
        session::sqlite_db db(f.path(), session::sqlite_db::mode::read_write);
        db.exec("UPDATE snapshots SET data = x'01ff' WHERE seq = 2");
    }
    const std::string err = open_error(f.path());
    CHECK(err.rfind(f.path() + ": snapshot 2 of run 1: ", 0) == 0);
    CHECK(err.find("truncated") != std::string::npos);
}

TEST_CASE("a recording with a patch switch this build does not know is refused in one line")
{
    test::scratch_file f("newer.db");
    make_recording(f.path());
    {
        session::sqlite_db db(f.path(), session::sqlite_db::mode::read_write);
        db.exec("UPDATE runs SET switches = json_set(switches, '$.pcp-buddy-allocator', json('true'))");
    }
    const std::string err = open_error(f.path());
    INFO(err);
    CHECK(err.rfind(f.path() + ": run 1 has the patch switch 'pcp-buddy-allocator', which this build does not know", 0)
        == 0);
    CHECK(err.find("newer pcplab") != std::string::npos);
    CHECK(err.find('\n') == std::string::npos);
}

TEST_CASE("an existing file that is not a recording is not overwritten")
{
    test::scratch_file f("notes.txt");
    write_file(f.path(), "my notes\n");
    session::recorder_options ro;
    CHECK_THROWS_WITH(
        session::recorder(f.path(), ro), f.path() + ": exists and is not a pcplab recording; not overwriting it");
    CHECK(test::read_bytes(f.path()) == "my notes\n");
}

TEST_CASE("a recording cut off by SIGKILL opens up to its last commit")
{
    test::scratch_file f("killed.db");
    const auto snaps = test::engine_snapshots(2, 100'000);
    int pipe_fd[2];
    REQUIRE(::pipe(pipe_fd) == 0);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // The child records forever, committing every 50 ms, and says when it has written 50 snapshots.
        ::close(pipe_fd[0]);
        session::recorder_options ro;
        ro.commit_interval = std::chrono::milliseconds(50);
        ro.wait_when_full = true;
        session::recorder rec(f.path(), ro);
        bool told = false;
        for (std::uint64_t i = 1;; ++i) {
            auto s = std::make_shared<sim::snapshot>(*snaps[i % 2]);
            s->seq = i;
            s->sim_time_ns = i * 1000;
            rec.publish(s);
            if (!told && rec.written() >= 50) {
                (void)!::write(pipe_fd[1], "x", 1);
                told = true;
            }
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
    }
    ::close(pipe_fd[1]);
    char c = 0;
    REQUIRE(::read(pipe_fd[0], &c, 1) == 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(400)); // 50 written, then several commits later
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    ::close(pipe_fd[0]);
    REQUIRE(WIFSIGNALED(status));

    session::recording back(f.path());
    REQUIRE(back.runs().size() == 1);
    const auto& run = back.runs().front();
    CHECK_FALSE(run.finished); // cut off: the reader can tell
    const auto idx = back.index(run.run);
    CHECK(idx.size() >= 50); // everything up to the last commit
    // The snapshots that made it are whole and in order.
    const auto all = back.load_all(run.run);
    REQUIRE(all.size() == idx.size());
    for (std::size_t i = 0; i < all.size(); ++i) CHECK(all[i]->seq == i + 1);
}
