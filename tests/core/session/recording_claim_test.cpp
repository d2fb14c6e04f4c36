// A recording's path is claimed before anything is written: what is not a regular file is never replaced, and
// a second writer of one file is refused instead of silently replacing the first one's recording.
#include "core/session/session_test_support.hpp"

#include "session/recording_claim.hpp"
#include "session/recording_reader.hpp"
#include "session/recording_writer.hpp"

#include <catch2/catch.hpp>

#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

using namespace pcplab;

namespace
{

std::string create_error(const std::string& path)
{
    try {
        session::recording_writer w(path, session::recording_options{});
        return "";
    } catch (const session::recording_error& e) {
        return e.what();
    }
}

mode_t type_of(const std::string& path)
{
    struct stat st {
    };
    REQUIRE(::lstat(path.c_str(), &st) == 0);
    return st.st_mode & S_IFMT;
}

std::size_t runs_in(const std::string& path)
{
    return session::recording(path).runs().size();
}

} // namespace

TEST_CASE("a FIFO, a socket, a directory or a symbolic link at the path is refused and left as it was")
{
    test::scratch_file fifo("claim-fifo.db"), sock("claim-sock.db"), link("claim-link.db"), target("claim-target.db");
    REQUIRE(::mkfifo(fifo.path().c_str(), 0600) == 0);
    CHECK(session::recording_path_problem(fifo.path()).message()
        == "is a FIFO (named pipe), not a regular file; not overwriting it");
    CHECK(
        create_error(fifo.path()) == fifo.path() + ": is a FIFO (named pipe), not a regular file; not overwriting it");
    CHECK(type_of(fifo.path()) == S_IFIFO);

    const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
    REQUIRE(s >= 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    REQUIRE(sock.path().size() < sizeof addr.sun_path);
    std::strcpy(addr.sun_path, sock.path().c_str());
    REQUIRE(::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    CHECK(create_error(sock.path()) == sock.path() + ": is a socket, not a regular file; not overwriting it");
    CHECK(type_of(sock.path()) == S_IFSOCK);
    ::close(s);

    test::record_snapshots(target.path(), test::engine_snapshots(2, 100'000));
    REQUIRE(::symlink(target.path().c_str(), link.path().c_str()) == 0);
    CHECK(create_error(link.path()) == link.path() + ": is a symbolic link, not a regular file; not overwriting it");
    CHECK(type_of(link.path()) == S_IFLNK);
    CHECK(runs_in(target.path()) == 1);

    const std::string dir = fifo.path() + ".d";
    REQUIRE(::mkdir(dir.c_str(), 0700) == 0);
    CHECK(create_error(dir) == dir + ": is a directory, not a regular file; not overwriting it");
    CHECK(type_of(dir) == S_IFDIR);
    ::rmdir(dir.c_str());
}

TEST_CASE("a device node at the path is refused and left as it was")
{
    test::scratch_file dev("claim-null.db");
    // The same device as /dev/null, made in a scratch folder: the real /dev/null is never put at risk.
    if (::mknod(dev.path().c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
        WARN("mknod needs CAP_MKNOD (" << std::strerror(errno) << "): the device case is checked on a FIFO only");
        return;
    }
    CHECK(create_error(dev.path()) == dev.path() + ": is a character device, not a regular file; not overwriting it");
    CHECK(type_of(dev.path()) == S_IFCHR);
}

TEST_CASE("an empty path is refused, not recorded to a temporary database")
{
    CHECK(session::recording_path_problem("").message() == "an empty path; name the file to record to");
    CHECK(create_error("") == "'': an empty path; name the file to record to");
}

TEST_CASE("a second writer of a file being recorded is refused, and the first recording stays whole")
{
    test::scratch_file f("claim-two.db");
    {
        session::recording_writer first(f.path(), session::recording_options{});
        first.begin_run(session::run_header{});
        const std::string held = "is being recorded by another process; not touching it (wait for it to "
                                 "finish or record to another file)";
        CHECK(session::recording_path_problem(f.path()).message() == held);
        CHECK(create_error(f.path()) == f.path() + ": " + held);
        CHECK_THROWS_WITH(
            session::recording_writer(f.path(), session::recording_options{}, true), f.path() + ": " + held);
        first.begin_run(session::run_header{});
        first.close();
    }
    CHECK(runs_in(f.path()) == 2);
    // Once the first writer has closed, the file is an old recording like any other: it may be replaced.
    CHECK(session::recording_path_problem(f.path()).ok());
    CHECK(create_error(f.path()).empty());
    CHECK(runs_in(f.path()) == 0);
}
