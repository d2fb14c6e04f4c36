// libFuzzer target: a whole recording file (SQLite) opened and read by every reader a file reaches in use: the
// window's replay (every run's index, its snapshots one by one and all at once, the snapshot at a time, each
// fed to the time-series model the views draw from, ui/model/history), the series the timeline and the figures
// plot, the comparison table in each format, and every export (CSV, Perfetto trace, /proc texts, lock_stat).
// Every failure must be a recording_error naming the file.
#include "ui/model/history.hpp"

#include "session/compare.hpp"
#include "session/export.hpp"
#include "session/recording_reader.hpp"
#include "session/series.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <unistd.h>

using namespace pcplab;

namespace
{

void read_everything(const session::recording& rec)
{
    for (const auto& r : rec.runs()) {
        const auto idx = rec.index(r.run);
        ui::history h;
        for (const auto& ref : idx)
            if (auto s = rec.load(r.run, ref.seq)) h.append(*s);
        for (const auto& s : rec.load_all(r.run)) h.append(*s);
        if (!idx.empty()) {
            (void)rec.at_time(r.run, idx.back().t_ns / 2);
            (void)rec.at_time(r.run, idx.back().t_ns + 1);
        }
        for (const auto& s : session::all_series()) (void)session::read_series(rec, r.run, s);
        (void)rec.procfs(r.run, "zoneinfo");
        (void)session::export_trace(rec, r.run);
        (void)session::export_procfs(rec, r.run, "zoneinfo");
        (void)session::export_procfs(rec, r.run, "buddyinfo");
        (void)session::export_lockstat(rec, r.run);
    }
    (void)session::export_csv(rec, "");
    (void)session::pick_run(rec, 0);
    auto columns = session::compare_inputs_from(rec);
    columns.push_back(columns.front()); // a table needs two columns: the recording against itself
    try {
        const auto table = session::build_compare_table(columns);
        for (auto f : {session::compare_format::text, session::compare_format::markdown, session::compare_format::csv,
                 session::compare_format::json})
            (void)session::format_compare(table, f);
    } catch (const std::invalid_argument&) {
        // The columns disagree on their metrics: `compare` says so (exit 2).
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    // The reader opens a path: the input goes to a file of this process's own.
    static const std::string path = "/tmp/pcplab-fuzz-recording-" + std::to_string(::getpid()) + ".db";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return 0;
    std::fwrite(data, 1, size, f);
    std::fclose(f);
    try {
        read_everything(session::recording(path));
    } catch (const session::recording_error&) {
    }
    std::remove(path.c_str());
    for (const char* suffix : {"-wal", "-shm", "-journal"}) std::remove((path + suffix).c_str());
    return 0;
}
