#include "session/recording_schema.hpp"

#include "io/file_type.hpp"

#include "sim/metrics.hpp"

#include "mm/lock_ops.hpp"
#include "mm/mm_types.hpp"

#include <sqlite3.h>

#include <cstring>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace pcplab::session
{

namespace
{

// Tables, indexes and views of schema version 2 (docs/recording-schema.md describes every column). Lock holds,
// the one log that grows by millions a second, go one snapshot's worth to a row of lock_hold_chunks as a JSON
// array (session/hold_chunk.hpp), with no index: a snapshot names its chunk's rowid. The view lock_holds
// shows them one row per hold with the columns schema 1's table had, so queries written for either read both.
const char* const k_schema_v2 = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs(
    run INTEGER PRIMARY KEY, side INTEGER NOT NULL DEFAULT 0, tag TEXT,
    preset TEXT, era TEXT, requested_era TEXT, switches TEXT, init_threads INTEGER,
    workload TEXT, workload_params TEXT, intensity REAL, seed INTEGER, nr_cpus INTEGER,
    hold_threshold_ns INTEGER, cost_model TEXT, started_utc TEXT,
    finished INTEGER NOT NULL DEFAULT 0, stop_reason TEXT, summary TEXT,
    snapshots_written INTEGER NOT NULL DEFAULT 0, snapshots_dropped INTEGER NOT NULL DEFAULT 0,
    holds_seen INTEGER NOT NULL DEFAULT 0, holds_written INTEGER NOT NULL DEFAULT 0);
CREATE TABLE snapshots(
    run INTEGER NOT NULL, seq INTEGER NOT NULL, t_ns INTEGER NOT NULL, state TEXT NOT NULL,
    generation INTEGER NOT NULL, data BLOB NOT NULL, holds_first INTEGER, holds_count INTEGER NOT NULL);
CREATE UNIQUE INDEX snapshots_by_seq ON snapshots(run, seq);
CREATE INDEX snapshots_by_time ON snapshots(run, t_ns);
CREATE TABLE samples(
    run INTEGER NOT NULL, seq INTEGER NOT NULL, t_ns INTEGER NOT NULL, events INTEGER,
    allocs INTEGER, frees INTEGER, pcp_hits INTEGER, zone_allocs INTEGER, refills INTEGER, drains INTEGER,
    free_high_drains INTEGER, pcp_resident_pages INTEGER, reclaimed_pages INTEGER, alloc_failures INTEGER,
    sys_ns INTEGER, user_ns INTEGER, idle_ns INTEGER, spin_ns INTEGER, work_units REAL,
    PRIMARY KEY(run, seq));
CREATE TABLE zone_samples(
    run INTEGER NOT NULL, seq INTEGER NOT NULL, t_ns INTEGER NOT NULL, node INTEGER NOT NULL,
    zone INTEGER NOT NULL, batch INTEGER, high INTEGER, high_min INTEGER, high_max INTEGER,
    cpu_high_min INTEGER, cpu_high_max INTEGER, cpu_high_mean REAL, count INTEGER, free_pages INTEGER,
    managed INTEGER, acquisitions INTEGER, contended INTEGER, wait_ns_total INTEGER, hold_ns_total INTEGER,
    hold_ns_max INTEGER, contention_pct REAL, contention_pct_recent REAL, waiting_cpus INTEGER,
    PRIMARY KEY(run, seq, node, zone));
CREATE TABLE events(
    run INTEGER NOT NULL, seq INTEGER NOT NULL, t_ns INTEGER NOT NULL, kind TEXT NOT NULL, cpu INTEGER,
    node INTEGER, zone INTEGER, field TEXT, old_value INTEGER, new_value INTEGER, text TEXT);
CREATE INDEX events_by_seq ON events(run, seq);
CREATE TABLE lock_hold_chunks(
    run INTEGER NOT NULL, seq INTEGER NOT NULL, base_ns INTEGER NOT NULL, holds TEXT NOT NULL);
CREATE VIEW lock_holds AS SELECT c.run AS run, c.seq AS seq,
    c.base_ns + json_extract(h.value, '$[0]') AS start_ns, json_extract(h.value, '$[1]') AS hold_ns,
    json_extract(h.value, '$[2]') AS wait_ns, json_extract(h.value, '$[3]') AS cpu,
    json_extract(h.value, '$[4]') AS node, json_extract(h.value, '$[5]') AS zone,
    json_extract(h.value, '$[6]') AS kind, json_extract(h.value, '$[7]') AS caller,
    json_extract(h.value, '$[8]') AS pages, json_extract(h.value, '$[9]') AS owner
    FROM lock_hold_chunks c, json_each(c.holds) h;
CREATE TABLE commands(
    run INTEGER NOT NULL, seq INTEGER NOT NULL, id INTEGER, kind TEXT, what TEXT, ok INTEGER, message TEXT,
    applied_at_ns INTEGER, applied_at_event INTEGER);
CREATE INDEX commands_by_seq ON commands(run, seq);
CREATE TABLE procfs(
    run INTEGER NOT NULL, seq INTEGER NOT NULL, t_ns INTEGER NOT NULL, file TEXT NOT NULL, text TEXT NOT NULL);
CREATE TABLE zone_names(zone INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE lock_callers(caller INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE lock_kinds(kind INTEGER PRIMARY KEY, name TEXT NOT NULL);
)sql";

// The tables a reader needs; a file that lacks one is not (or no longer) a complete recording. Schema 1 kept
// lock holds in a table of that name, schema 2 keeps them in chunks.
const char* const k_required_tables[]
    = {"meta", "runs", "snapshots", "samples", "zone_samples", "events", "commands", "procfs"};
const char* hold_table(std::int64_t version)
{
    return version < 2 ? "lock_holds" : "lock_hold_chunks";
}

void fill_names(sqlite_db& db)
{
    auto z = db.prepare("INSERT INTO zone_names VALUES(?, ?)");
    for (unsigned i = 0; i < mm::MAX_NR_ZONES; ++i) z.bind(1, i).bind(2, mm::zone_name(i)).run();
    auto c = db.prepare("INSERT INTO lock_callers VALUES(?, ?)");
    for (unsigned i = 0; i < static_cast<unsigned>(mm::lock_caller::nr_callers); ++i)
        c.bind(1, i).bind(2, mm::lock_caller_name(static_cast<mm::lock_caller>(i))).run();
    auto k = db.prepare("INSERT INTO lock_kinds VALUES(?, ?)");
    k.bind(1, 0).bind(2, "zone->lock").run();
    k.bind(1, 1).bind(2, "pcp->lock").run();
}

} // namespace

void create_recording_schema(sqlite_db& db)
{
    // 16 KiB pages instead of 4: a quarter of the write and checkpoint system calls for the same bytes, which
    // cut the writer thread's CPU time by about a quarter (set before WAL mode, which fixes the page size).
    db.exec("PRAGMA page_size = 16384");
    // In the rollback journal's mode, which writes the database file itself: the schema and the file's identity
    // (application id, version) are in it before the writer turns to WAL mode, so that a recording whose -wal
    // file is lost before its first checkpoint is still a recording (with no runs), not an unknown database.
    db.exec("PRAGMA application_id = " + std::to_string(RECORDING_APPLICATION_ID));
    db.exec("BEGIN");
    db.exec(k_schema_v2);
    fill_names(db);
    auto m = db.prepare("INSERT INTO meta VALUES(?, ?)");
    m.bind(1, "format").bind(2, RECORDING_FORMAT_NAME).run();
    m.bind(1, "schema_version").bind(2, std::to_string(RECORDING_SCHEMA_VERSION)).run();
    db.exec("PRAGMA user_version = " + std::to_string(RECORDING_SCHEMA_VERSION));
    db.exec("COMMIT");
}

recording_error describe_sqlite_failure(const std::string& path, const sqlite_error& e)
{
    switch (e.code()) {
    case SQLITE_NOTADB:
        return recording_error(path, "not a pcplab recording (not an SQLite database)");
    case SQLITE_CORRUPT:
        return recording_error(path, std::string("damaged recording (") + e.what() + ")");
    case SQLITE_CANTOPEN:
        return recording_error(path, std::string("cannot open (") + e.what() + ")");
    case SQLITE_IOERR:
        return recording_error(path, std::string("read error (") + e.what() + ")");
    default:
        return recording_error(path, std::string("unreadable recording (") + e.what() + ")");
    }
}

sqlite_db open_recording_db(const std::string& path)
{
    struct stat st {
    };
    if (::stat(path.c_str(), &st) != 0) throw recording_error(path, "no such file");
    if (S_ISDIR(st.st_mode)) throw recording_error(path, "is a directory, not a recording");
    // A FIFO or a device would block the read below or feed it endless bytes.
    if (!S_ISREG(st.st_mode))
        throw recording_error(
            path, "not a pcplab recording (" + io::file_type_name(st.st_mode) + ", not a regular file)");
    if (st.st_size == 0) throw recording_error(path, "empty file (not a pcplab recording)");

    // The SQLite header: 16 bytes of magic, then the page size (offset 16) and the page count (offset 28). Read
    // and closed before SQLite opens the file: closing a descriptor of a file drops every POSIX lock that this
    // process holds on it, SQLite's included, and a writer whose locks are gone loses what it writes (another
    // process, seeing no one, checkpoints and deletes the write-ahead log under it).
    unsigned char header[100] = {};
    std::size_t got = 0;
    {
        std::ifstream in(path, std::ios::binary);
        if (!in) throw recording_error(path, "cannot be read (permission denied?)");
        in.read(reinterpret_cast<char*>(header), sizeof header);
        got = static_cast<std::size_t>(in.gcount());
    }
    if (got < 16 || std::memcmp(header, "SQLite format 3", 16) != 0)
        throw recording_error(path, "not a pcplab recording (not an SQLite database)");
    if (got < sizeof header) throw recording_error(path, "truncated recording (shorter than an SQLite header)");
    unsigned page_size = (header[16] << 8) | header[17];
    if (page_size == 1) page_size = 65536;
    const std::uint64_t pages = (std::uint64_t(header[28]) << 24) | (header[29] << 16) | (header[30] << 8) | header[31];
    const bool count_valid = std::memcmp(header + 24, header + 92, 4) == 0; // change counter == version-valid-for
    // A process killed during a checkpoint leaves the file shorter than its header says while the -wal file
    // still holds every page: only without one is a short file truncated.
    struct stat wal {
    };
    const bool has_wal = ::stat((path + "-wal").c_str(), &wal) == 0 && wal.st_size > 0;
    if (count_valid && !has_wal && pages * page_size > static_cast<std::uint64_t>(st.st_size))
        throw recording_error(path,
            "truncated recording (" + std::to_string(st.st_size) + " of " + std::to_string(pages * page_size)
                + " bytes)");

    try {
        // Read-write where allowed, so that SQLite can recover the write-ahead log of a recording that was
        // cut off (nothing else is written); read-only otherwise.
        const bool writable = ::access(path.c_str(), W_OK) == 0;
        sqlite_db db(path, writable ? sqlite_db::mode::read_write : sqlite_db::mode::read_only);
        const auto app = db.query_int("PRAGMA application_id");
        const auto version = db.query_int("PRAGMA user_version");
        if (app != RECORDING_APPLICATION_ID)
            throw recording_error(path, "not a pcplab recording (an SQLite database of another program)");
        if (version > RECORDING_SCHEMA_VERSION)
            throw recording_error(path,
                "recording schema version " + std::to_string(version) + " is newer than this pcplab reads ("
                    + std::to_string(RECORDING_SCHEMA_VERSION) + "); open it with a newer pcplab");
        if (version < 1) throw recording_error(path, "incomplete recording (no schema version)");
        for (const char* t : k_required_tables)
            if (!db.has_table(t)) throw recording_error(path, std::string("incomplete recording (no table ") + t + ")");
        if (!db.has_table(hold_table(version)))
            throw recording_error(path, std::string("incomplete recording (no table ") + hold_table(version) + ")");
        return db;
    } catch (const sqlite_error& e) {
        throw describe_sqlite_failure(path, e);
    }
}

} // namespace pcplab::session
