// Writes a recording synchronously: runs, their snapshots (blob + time-series rows + events, lock holds and
// commands), /proc texts. Commits every `commit_interval` of wall time, so a process killed mid-recording
// leaves a file that opens up to its last commit. Used by the recorder's writer thread (recorder.hpp), never
// on an engine's thread.
#pragma once

#include "session/hold_chunk.hpp"
#include "session/hold_sampling.hpp"
#include "session/recording_claim.hpp"
#include "session/sqlite_db.hpp"

#include "sim/engine.hpp"
#include "sim/snapshot.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace pcplab::session
{

// What one run was: the configuration a reader needs to label it (table `runs`).
struct run_header {
    int side = 0;
    std::string tag; // a short name for tables (compare header line 2); default: the file's stem
    std::string preset;
    std::string era; // the modelled era, "v5.4"
    std::string requested_era; // the version asked for, "5.4.0-rc3" (default: era)
    std::vector<std::pair<std::string, bool>> switches; // every patch switch by name
    int init_threads = 0;
    std::string workload;
    std::vector<std::pair<std::string, double>> workload_params;
    double intensity = 1;
    std::uint64_t seed = 0;
    int nr_cpus = 0;
    std::uint64_t hold_threshold_ns = 0;
    std::string cost_model_json; // {"machine_class": ..., "params": {key: value}}
};

// From an engine configuration (cost model: cfg.costs, else the preset's class defaults).
run_header run_header_for(const sim::engine_config& cfg, const std::string& preset);
// From what a snapshot says (a source whose configuration is unknown), its run's cost model and hold threshold
// included.
run_header run_header_for(const sim::snapshot& s);

struct recording_options {
    std::string source = "pcplab"; // who recorded: "pcplab-cli run", "pcplab"
    std::string snapshot_rule = "every published snapshot";
    std::string procfs_rule = "none";
    hold_rule holds;
    // Half a second: a kill loses at most that plus the writer's lag (about a second on a loaded host).
    std::chrono::milliseconds commit_interval{500};
};

class recording_writer
{
public:
    // Creates `path` (an existing pcplab recording there is replaced; anything else there, and a file another
    // writer holds, is refused with recording_error: recording_claim), or with `append`, adds runs to an
    // existing recording. The path stays claimed until close().
    recording_writer(const std::string& path, recording_options opt, bool append = false);
    ~recording_writer(); // close()
    recording_writer(const recording_writer&) = delete;
    recording_writer& operator=(const recording_writer&) = delete;

    // Every call below throws recording_error when the file cannot be written (a full disk): the writer then
    // rolls back what was not committed and writes nothing more (close() only closes the file), so that the file
    // holds what the commits before brought, counts included; the message says how much that is.
    std::int64_t begin_run(const run_header& h);
    // The snapshot's blob, its time-series rows, its events, holds (by the hold rule) and commands, and its
    // /proc texts when they are a new rendering.
    void write_snapshot(std::int64_t run, const sim::snapshot& s);
    void note_dropped(std::int64_t run, std::uint64_t n); // snapshots the recorder could not queue
    void end_run(std::int64_t run, const std::string& stop_reason, const std::string& summary_json);
    void commit_if_due();
    void commit(); // now (and start the next transaction)
    // Commit, leave WAL mode (a finished recording is one file, readable from a read-only folder) and close;
    // idempotent.
    void close();
    const std::string& path() const { return m_path; }

private:
    // What the writer keeps per run: counters for the runs table, the hold rule's state, and the /proc
    // texts last written (a snapshot that shares them writes nothing; holding them keeps their address
    // from being reused by a different text).
    struct per_run {
        std::int64_t run = 0;
        std::uint64_t snapshots = 0, dropped = 0, holds_seen = 0, holds_written = 0;
        hold_sampler sampler;
        std::shared_ptr<const procfs::procfs_texts> procfs;
        sim::vtime_ns last_t = 0; // the latest snapshot's virtual time
        std::uint64_t committed = 0; // snapshots in the file as of the last commit
        sim::vtime_ns committed_t = 0; // and the virtual time they reach
    };
    // Runs `f`; a failed SQLite call makes the writer fail for good (fail()).
    template <class F> auto guarded(F f) -> decltype(f());
    [[noreturn]] void fail(const sqlite_error& e);
    std::string kept_text() const; // what the file holds as of the last commit
    void commit_now();
    void prepare_statements();
    void write_rows(per_run& r, const sim::snapshot& s);
    // The holds the rule keeps, as one row of lock_hold_chunks; returns its rowid and their number ({0, 0}
    // when the rule kept none, and then no row).
    std::pair<std::int64_t, std::size_t> write_holds(per_run& r, const sim::snapshot& s);
    void write_procfs(
        std::int64_t run, std::uint64_t seq, sim::vtime_ns t, const std::string& file, const std::string& text);
    void flush_counts();
    per_run& state(std::int64_t run);

    std::string m_path;
    recording_options m_opt;
    recording_claim m_claim; // before m_db: released only after SQLite has closed the file
    sqlite_db m_db;
    sqlite_stmt m_snap, m_sample, m_zone, m_event, m_chunk, m_command, m_procfs;
    hold_chunk_builder m_chunk_text; // scratch for write_holds
    std::chrono::steady_clock::time_point m_last_commit;
    std::vector<per_run> m_runs;
    bool m_in_tx = false;
    std::string m_failure; // set once a write failed: the message every later call throws again
};

// "off" for "/tmp/off.db".
std::string file_stem(const std::string& path);

} // namespace pcplab::session
