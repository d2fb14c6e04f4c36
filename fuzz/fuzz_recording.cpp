// libFuzzer target: a whole recording file (SQLite) opened and replayed as `compare` and `export` do: the
// meta and runs tables, every run's index and snapshots (blobs joined with events, holds and commands) and
// its /proc texts. Every failure must be a recording_error naming the file.
#include "session/recording_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    // The reader opens a path: the input goes to a file of this process's own.
    static const std::string path = "/tmp/pcplab-fuzz-recording-" + std::to_string(::getpid()) + ".db";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return 0;
    std::fwrite(data, 1, size, f);
    std::fclose(f);
    try {
        pcplab::session::recording rec(path);
        for (const auto& r : rec.runs()) {
            (void)rec.index(r.run);
            (void)rec.load_all(r.run);
            (void)rec.at_time(r.run, 1'000'000);
            (void)rec.procfs(r.run, "zoneinfo");
        }
    } catch (const pcplab::session::recording_error&) {
    }
    std::remove(path.c_str());
    for (const char* suffix : {"-wal", "-shm", "-journal"}) std::remove((path + suffix).c_str());
    return 0;
}
