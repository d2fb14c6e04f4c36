// What a recording file is at each moment (issue 22): its identity is in the database file before anything is
// written to the log; a finished recording is one file in rollback-journal mode; a writer that adds runs keeps
// its locks while another process opens and closes the file, so nothing it writes is lost.
#include "core/session/session_test_support.hpp"

#include "session/recording_reader.hpp"
#include "session/recording_writer.hpp"

#include <catch2/catch.hpp>

#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace pcplab;

namespace
{

// Bytes 18 and 19 of the SQLite header: 1 for the rollback journal, 2 for WAL.
int file_format_version(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    char header[20] = {};
    in.read(header, sizeof header);
    return header[18];
}

bool exists(const std::string& path)
{
    return ::access(path.c_str(), F_OK) == 0;
}

// Another program (the sqlite3 shell, a second pcplab) opens the file, counts the snapshots of `run` and closes
// it: being the last connection it knows of, it checkpoints and deletes the write-ahead log when no other
// process holds a lock on the file. Returns the count it saw (as its exit status).
int count_in_another_process(const std::string& path, std::int64_t run)
{
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        sqlite3* db = nullptr;
        sqlite3_stmt* st = nullptr;
        int count = 255;
        const std::string sql = "SELECT count(*) FROM snapshots WHERE run = " + std::to_string(run);
        if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK
            && sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
            count = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
        sqlite3_close(db);
        ::_exit(count);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    REQUIRE(WIFEXITED(status));
    return WEXITSTATUS(status);
}

std::int64_t count_rows(const std::string& path, const char* sql)
{
    session::recording rec(path);
    return rec.db().query_int(sql);
}

} // namespace

TEST_CASE("a finished recording is one file in rollback-journal mode")
{
    test::scratch_file f("file_state_finished.db");
    test::record_sampled(f.path());
    CHECK(file_format_version(f.path()) == 1);
    CHECK_FALSE(exists(f.path() + "-wal"));
    CHECK_FALSE(exists(f.path() + "-shm"));
    CHECK(count_rows(f.path(), "SELECT count(*) FROM snapshots") == 12);
}

TEST_CASE("a recording is identified by its database file before its first checkpoint")
{
    test::scratch_file f("file_state_early.db");
    session::recording_writer w(f.path(), {});
    const auto run = w.begin_run(session::run_header_for(test::session_config(), "test-preset"));
    w.write_snapshot(run, *test::engine_snapshots(1).front());
    // Killed here, its -wal file lost: what the database file holds alone.
    test::scratch_file copy("file_state_early_copy.db");
    {
        std::ifstream in(f.path(), std::ios::binary);
        std::ofstream out(copy.path(), std::ios::binary);
        out << in.rdbuf();
    }
    session::recording rec(copy.path());
    CHECK(rec.meta("format") == "pcplab-recording");
    CHECK(rec.runs().empty()); // the runs were in the log
    w.close();
}

TEST_CASE("a run added to a recording survives another process opening and closing the file")
{
    test::scratch_file f("file_state_append.db");
    test::record_sampled(f.path());
    const auto snaps = test::engine_snapshots(6);
    session::recording_writer w(f.path(), {}, true);
    const auto run = w.begin_run(session::run_header_for(test::session_config(), "test-preset"));
    for (int i = 0; i < 3; ++i) w.write_snapshot(run, *snaps[static_cast<std::size_t>(i)]);
    w.commit();
    CHECK(count_in_another_process(f.path(), run) == 3);
    for (int i = 3; i < 6; ++i) w.write_snapshot(run, *snaps[static_cast<std::size_t>(i)]);
    w.commit();
    // Before the fix the writer had lost its locks (a descriptor of the file closed while SQLite had it open),
    // so the first reader's close deleted the log the writer went on writing into: the next reader saw 3.
    CHECK(count_in_another_process(f.path(), run) == 6);
    w.end_run(run, "duration", "");
    w.close();
    session::recording rec(f.path());
    REQUIRE(rec.runs().size() == 2);
    CHECK(rec.runs()[1].finished);
    CHECK(rec.index(rec.runs()[1].run).size() == 6);
}
