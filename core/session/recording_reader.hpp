// Reading a recording back: its metadata, its runs, and each run's snapshots exactly as they were published
// (the blob joined with the events, lock holds and commands of its interval), by sequence number or by
// virtual time. Every failure — a foreign, newer, truncated or damaged file, a corrupt blob — is a
// recording_error whose message names the file and the problem.
#pragma once

#include "session/recording_schema.hpp"
#include "session/sqlite_db.hpp"

#include "sim/snapshot.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pcplab::session
{

struct run_record {
    std::int64_t run = 0;
    int side = 0;
    std::string tag, preset, era, requested_era;
    std::vector<std::pair<std::string, bool>> switches;
    int init_threads = 0;
    std::string workload;
    double intensity = 1;
    std::uint64_t seed = 0;
    int nr_cpus = 0;
    std::uint64_t hold_threshold_ns = 0;
    std::string cost_model_json;
    std::shared_ptr<const sim::cost_model> costs; // cost_model_json read back (null: none recorded)
    bool finished = false; // false: the recording was cut off (or is still being written)
    std::string stop_reason;
    std::string summary_json; // the CLI's run summary (run_summary_json), empty for other sources
    std::uint64_t snapshots_written = 0, snapshots_dropped = 0, holds_seen = 0, holds_written = 0;
};

struct snapshot_ref {
    std::uint64_t seq = 0;
    sim::vtime_ns t_ns = 0;
};

struct procfs_text {
    std::uint64_t seq = 0;
    sim::vtime_ns t_ns = 0;
    std::string text;
};

class recording
{
public:
    // Opens and validates (open_recording_db); reads the meta and runs tables.
    explicit recording(const std::string& path);
    recording(recording&&) noexcept = default;
    recording& operator=(recording&&) noexcept = default;

    const std::string& path() const { return m_path; }
    const std::map<std::string, std::string>& meta() const { return m_meta; }
    std::string meta(const std::string& key) const; // "" when absent
    const std::vector<run_record>& runs() const { return m_runs; }
    const run_record& run(std::int64_t id) const; // throws recording_error for an unknown run

    std::vector<snapshot_ref> index(std::int64_t run) const; // in seq order
    // One snapshot, events, holds and commands included, and from the run's header its cost model and hold
    // threshold (run_info); nullptr when there is no such seq.
    std::shared_ptr<const sim::snapshot> load(std::int64_t run, std::uint64_t seq) const;
    // Every snapshot of a run in seq order (one pass per table: cheaper than load() in a loop).
    std::vector<std::shared_ptr<const sim::snapshot>> load_all(std::int64_t run) const;
    // The last snapshot at or before virtual time t (the first one when t is earlier); nullopt for an empty run.
    std::optional<snapshot_ref> at_time(std::int64_t run, sim::vtime_ns t) const;

    // /proc texts recorded for a run: file = "zoneinfo" or "buddyinfo".
    std::vector<procfs_text> procfs(std::int64_t run, const std::string& file) const;
    std::int64_t created_epoch() const; // wall-clock seconds when recording began (meta created_epoch)

    // For readers that run their own queries (series.cpp); wraps sqlite errors like the methods above.
    sqlite_db& db() const { return m_db; }
    [[noreturn]] void fail(const sqlite_error& e) const;
    [[noreturn]] void fail(const std::string& problem) const;

private:
    void read_runs();
    // The run's cost model and hold threshold into the snapshot's run_info (the blob does not carry them).
    void add_header(sim::snapshot& s, std::int64_t run) const;
    // One snapshot's `count` holds from `first`: schema 1 rows from that rowid, schema 2 that chunk's rowid.
    std::vector<sim::lock_hold_record> read_holds(std::uint64_t seq, std::int64_t first, std::int64_t count) const;
    std::string m_path;
    mutable sqlite_db m_db;
    std::int64_t m_schema = 0; // PRAGMA user_version
    std::map<std::string, std::string> m_meta;
    std::vector<run_record> m_runs;
};

} // namespace pcplab::session
