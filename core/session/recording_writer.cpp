#include "session/recording_writer.hpp"

#include "session/record_names.hpp"
#include "session/recorded_cost_model.hpp"
#include "session/recording_claim.hpp"
#include "session/recording_schema.hpp"
#include "session/snapshot_codec.hpp"

#include "sim/cost_model.hpp"

#include "mm/patch_switches.hpp"

#include "procfs/procfs_texts.hpp"

#include "program/version.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace pcplab::session
{

namespace
{

std::string utc_now()
{
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::vector<std::pair<std::string, bool>> switches_of(const mm::patch_set& ps)
{
    std::vector<std::pair<std::string, bool>> out;
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i)
        out.emplace_back(std::string(mm::patch_name(static_cast<mm::patch>(i))), ps.on[i]);
    return out;
}

} // namespace

std::string file_stem(const std::string& path)
{
    auto slash = path.find_last_of('/');
    std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    auto dot = base.find_last_of('.');
    return dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
}

run_header run_header_for(const sim::engine_config& cfg, const std::string& preset)
{
    run_header h;
    h.preset = preset.empty() ? cfg.spec.name : preset;
    h.era = cfg.era.str();
    h.requested_era = h.era;
    h.switches = switches_of(cfg.patches);
    h.init_threads = cfg.patches.init_threads;
    h.workload = cfg.workload;
    h.intensity = cfg.intensity;
    h.seed = cfg.seed;
    h.hold_threshold_ns = cfg.hold_threshold_ns;
    int cpus = 0;
    for (const auto& n : cfg.spec.nodes) cpus += static_cast<int>(n.cpus.size());
    h.nr_cpus = cpus;
    h.cost_model_json = cost_model_json(cfg.costs ? *cfg.costs : sim::cost_model_for(cfg.spec));
    return h;
}

run_header run_header_for(const sim::snapshot& s)
{
    run_header h;
    h.side = s.side;
    h.preset = s.preset;
    h.era = s.era.str();
    h.requested_era = h.era;
    h.switches = switches_of(s.patches);
    h.init_threads = s.patches.init_threads;
    h.workload = s.workload;
    h.intensity = s.intensity;
    h.seed = s.seed;
    h.nr_cpus = s.nr_cpus;
    h.hold_threshold_ns = s.run.hold_threshold_ns;
    if (s.run.costs) h.cost_model_json = cost_model_json(*s.run.costs);
    return h;
}

recording_writer::recording_writer(const std::string& path, recording_options opt, bool append)
    : m_path(path)
    , m_opt(std::move(opt))
{
    try {
        if (append) {
            m_claim = recording_claim(path, recording_claim::intent::append);
            m_db = open_recording_db(path);
            const auto version = m_db.query_int("PRAGMA user_version");
            if (version != RECORDING_SCHEMA_VERSION)
                throw recording_error(path,
                    "a schema " + std::to_string(version) + " recording; runs are added only to schema "
                        + std::to_string(RECORDING_SCHEMA_VERSION) + " recordings (record to a new file)");
        } else {
            m_claim = recording_claim(path, recording_claim::intent::create);
            m_db = sqlite_db(path, sqlite_db::mode::create);
            create_recording_schema(m_db);
            auto m = m_db.prepare("INSERT OR REPLACE INTO meta VALUES(?, ?)");
            const std::pair<const char*, std::string> rows[] = {
                {"program_version", std::string(program::version())},
                {"created_utc", utc_now()},
                {"created_epoch", std::to_string(static_cast<long long>(std::time(nullptr)))},
                {"source", m_opt.source},
                {"snapshot_encoding", std::to_string(SNAPSHOT_ENCODING)},
                {"snapshot_rule", m_opt.snapshot_rule},
                {"holds_rule", m_opt.holds.text()},
                {"procfs_rule", m_opt.procfs_rule},
            };
            m_db.exec("BEGIN");
            for (const auto& [k, v] : rows) m.bind(1, k).bind(2, v).run();
            m_db.exec("COMMIT");
        }
        // WAL while recording: commits append to the log, and readers go on reading while the writer writes.
        m_db.exec("PRAGMA journal_mode = WAL");
        // NORMAL: a commit survives a crash of the process (the point of periodic commits); only a power loss
        // may lose the last transactions, which FULL would guard against at the cost of an fsync per commit.
        m_db.exec("PRAGMA synchronous = NORMAL");
        prepare_statements();
        m_db.exec("BEGIN");
        m_in_tx = true;
        m_last_commit = std::chrono::steady_clock::now();
    } catch (const sqlite_error& e) {
        throw recording_error(path, std::string("cannot write the recording (") + e.what() + ")");
    }
}

recording_writer::~recording_writer()
{
    try {
        close();
    } catch (...) {
        // A destructor must not throw; close() reports errors to callers who call it themselves.
    }
}

void recording_writer::prepare_statements()
{
    m_snap = m_db.prepare("INSERT INTO snapshots VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
    m_sample = m_db.prepare("INSERT INTO samples VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    m_zone = m_db.prepare(
        "INSERT INTO zone_samples VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    m_event = m_db.prepare("INSERT INTO events VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    m_chunk = m_db.prepare("INSERT INTO lock_hold_chunks VALUES(?, ?, ?, ?)");
    m_command = m_db.prepare("INSERT INTO commands VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)");
    m_procfs = m_db.prepare("INSERT INTO procfs VALUES(?, ?, ?, ?, ?)");
}

template <class F> auto recording_writer::guarded(F f) -> decltype(f())
{
    if (!m_failure.empty()) throw recording_error(m_path, m_failure);
    try {
        return f();
    } catch (const sqlite_error& e) {
        fail(e);
    }
}

void recording_writer::fail(const sqlite_error& e)
{
    m_failure = std::string("cannot be written (") + e.what() + "); recording stopped there, and the file keeps "
        + kept_text();
    // What the open transaction holds is not in the file; the counts must not claim it either.
    if (m_in_tx) {
        try {
            m_db.exec("ROLLBACK");
        } catch (const sqlite_error&) {
            // SQLite may have rolled it back itself (a full disk does); nothing else is written either way.
        }
        m_in_tx = false;
    }
    throw recording_error(m_path, m_failure);
}

std::string recording_writer::kept_text() const
{
    std::string out;
    for (const auto& r : m_runs) {
        char t[64];
        std::snprintf(t, sizeof t, "%.1f ms", static_cast<double>(r.committed_t) / 1e6);
        out += (out.empty() ? "" : ", ") + std::string("run ") + std::to_string(r.run) + ": "
            + std::to_string(r.committed) + " snapshot" + (r.committed == 1 ? "" : "s")
            + (r.committed ? std::string(" (to ") + t + " of virtual time)" : "");
    }
    return out.empty() ? "no run" : out;
}

std::int64_t recording_writer::begin_run(const run_header& h)
{
    return guarded([&] {
        nlohmann::json sw = nlohmann::json::object();
        for (const auto& [name, on] : h.switches) sw[name] = on;
        nlohmann::json params = nlohmann::json::object();
        for (const auto& [k, v] : h.workload_params) params[k] = v;
        auto s = m_db.prepare("INSERT INTO runs(side, tag, preset, era, requested_era, switches, init_threads, "
                              "workload, workload_params, intensity, seed, nr_cpus, hold_threshold_ns, cost_model, "
                              "started_utc) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        s.bind(1, h.side)
            .bind(2, h.tag.empty() ? file_stem(m_path) : h.tag)
            .bind(3, h.preset)
            .bind(4, h.era)
            .bind(5, h.requested_era.empty() ? h.era : h.requested_era)
            .bind(6, sw.dump())
            .bind(7, h.init_threads)
            .bind(8, h.workload)
            .bind(9, params.dump())
            .bind(10, h.intensity)
            .bind(11, h.seed)
            .bind(12, h.nr_cpus)
            .bind(13, h.hold_threshold_ns)
            .bind(14, h.cost_model_json.empty() ? "{}" : h.cost_model_json)
            .bind(15, utc_now());
        s.run();
        const std::int64_t run = m_db.last_insert_rowid();
        state(run);
        // On disk at once: a recording cut off early (killed, disk full) still lists the run it was making.
        commit_now();
        return run;
    });
}

recording_writer::per_run& recording_writer::state(std::int64_t run)
{
    for (auto& r : m_runs)
        if (r.run == run) return r;
    m_runs.push_back(per_run{run, 0, 0, 0, 0, hold_sampler(m_opt.holds), nullptr});
    return m_runs.back();
}

void recording_writer::write_snapshot(std::int64_t run, const sim::snapshot& s)
{
    guarded([&] {
        per_run& r = state(run);
        write_rows(r, s);
        const auto [first_hold, holds] = write_holds(r, s);
        m_snap.bind(1, run)
            .bind(2, s.seq)
            .bind(3, s.sim_time_ns)
            .bind(4, sim::run_state_name(s.state))
            .bind(5, s.run.generation)
            .bind_blob(6, encode_snapshot(s));
        if (holds)
            m_snap.bind(7, first_hold);
        else
            m_snap.bind_null(7);
        m_snap.bind(8, holds);
        m_snap.run();
        r.snapshots += 1;
        r.last_t = s.sim_time_ns;
        // The first snapshot too, so that such a run has its starting state; then one commit per interval.
        if (r.snapshots == 1 || std::chrono::steady_clock::now() - m_last_commit >= m_opt.commit_interval) commit_now();
    });
}

std::pair<std::int64_t, std::size_t> recording_writer::write_holds(per_run& r, const sim::snapshot& s)
{
    m_chunk_text.clear();
    for (const auto& h : s.holds)
        if (r.sampler.keep(h)) m_chunk_text.add(h);
    const std::size_t kept = m_chunk_text.size();
    r.holds_seen += s.holds.size();
    r.holds_written += kept;
    if (!kept) return {0, 0};
    // Bound without a copy: the builder's text stays put until the insert has run.
    m_chunk.bind(1, r.run).bind(2, s.seq).bind(3, m_chunk_text.base_ns()).bind_static(4, m_chunk_text.text()).run();
    return {m_db.last_insert_rowid(), kept};
}

void recording_writer::write_rows(per_run& r, const sim::snapshot& s)
{
    const std::int64_t run = r.run;
    std::uint64_t refills = 0, drains = 0, idle = 0, spin = 0;
    for (const auto& c : s.cpus) {
        refills += c.refills;
        drains += c.drains;
        idle += c.idle_ns;
        spin += c.spin_ns;
    }
    const auto& t = s.totals;
    m_sample.bind(1, run).bind(2, s.seq).bind(3, s.sim_time_ns).bind(4, s.events_processed);
    m_sample.bind(5, t.allocs).bind(6, t.frees).bind(7, t.pcp_hits).bind(8, t.zone_allocs).bind(9, refills);
    m_sample.bind(10, drains).bind(11, t.free_high_drains).bind(12, t.pcp_resident_pages);
    m_sample.bind(13, t.reclaimed_pages).bind(14, t.alloc_failures).bind(15, s.sys_ns_total());
    m_sample.bind(16, s.user_ns_total()).bind(17, idle).bind(18, spin).bind(19, s.score.work_units);
    m_sample.run();

    for (std::size_t zi = 0; zi < s.zones.size(); ++zi) {
        const auto& z = s.zones[zi];
        int lo = 0, hi = 0;
        double sum = 0;
        for (int c = 0; c < s.nr_cpus; ++c) {
            const int h = s.pageset(zi, c).high;
            lo = c == 0 ? h : std::min(lo, h);
            hi = c == 0 ? h : std::max(hi, h);
            sum += h;
        }
        const auto& m = z.lock.m;
        const int waiting = z.lock.waiting_cpus_now >= 0 ? z.lock.waiting_cpus_now : (z.lock.someone_waiting ? 1 : 0);
        m_zone.bind(1, run).bind(2, s.seq).bind(3, s.sim_time_ns).bind(4, z.node).bind(5, z.zone);
        m_zone.bind(6, z.batch).bind(7, z.high).bind(8, z.high_min).bind(9, z.high_max).bind(10, lo).bind(11, hi);
        m_zone.bind(12, s.nr_cpus ? sum / s.nr_cpus : 0.0).bind(13, z.pcp_pages).bind(14, z.free_pages);
        m_zone.bind(15, z.managed).bind(16, m.acquisitions).bind(17, m.contended).bind(18, m.wait_ns_total);
        m_zone.bind(19, m.hold_ns_total).bind(20, m.hold_ns_max).bind(21, z.lock.contention_pct);
        m_zone.bind(22, z.lock.contention_pct_recent).bind(23, waiting);
        m_zone.run();
    }

    for (const auto& e : s.events) {
        m_event.bind(1, run).bind(2, s.seq).bind(3, e.t).bind(4, event_kind_name(e.kind)).bind(5, e.cpu);
        m_event.bind(6, e.node).bind(7, e.zone).bind(8, event_field_name(e.field)).bind(9, e.old_value);
        m_event.bind(10, e.new_value).bind(11, e.text);
        m_event.run();
    }

    for (const auto& c : s.commands) {
        m_command.bind(1, run).bind(2, s.seq).bind(3, c.id).bind(4, sim::command_kind_name(c.kind)).bind(5, c.what);
        m_command.bind(6, c.ok ? 1 : 0).bind(7, c.message).bind(8, c.applied_at_ns).bind(9, c.applied_at_event);
        m_command.run();
    }

    // The /proc texts are written when a snapshot brings a new capture (printed here, on the writer's thread);
    // the rows' t_ns is when it was captured.
    if (s.procfs && s.procfs != r.procfs) {
        write_procfs(run, s.seq, s.procfs_time_ns, "zoneinfo", s.procfs->zoneinfo());
        write_procfs(run, s.seq, s.procfs_time_ns, "buddyinfo", s.procfs->buddyinfo());
        r.procfs = s.procfs;
    }
}

void recording_writer::write_procfs(
    std::int64_t run, std::uint64_t seq, sim::vtime_ns t, const std::string& file, const std::string& text)
{
    m_procfs.bind(1, run).bind(2, seq).bind(3, t).bind(4, file).bind(5, text);
    m_procfs.run();
}

void recording_writer::note_dropped(std::int64_t run, std::uint64_t n)
{
    state(run).dropped += n;
}

void recording_writer::end_run(std::int64_t run, const std::string& stop_reason, const std::string& summary_json)
{
    guarded([&] {
        auto s = m_db.prepare("UPDATE runs SET finished = 1, stop_reason = ?, summary = ? WHERE run = ?");
        s.bind(1, stop_reason);
        if (summary_json.empty())
            s.bind_null(2);
        else
            s.bind(2, summary_json);
        s.bind(3, run).run();
        commit_now();
    });
}

void recording_writer::flush_counts()
{
    auto s = m_db.prepare("UPDATE runs SET snapshots_written = ?, snapshots_dropped = ?, holds_seen = ?, "
                          "holds_written = ? WHERE run = ?");
    for (const auto& r : m_runs)
        s.bind(1, r.snapshots).bind(2, r.dropped).bind(3, r.holds_seen).bind(4, r.holds_written).bind(5, r.run).run();
}

void recording_writer::commit_if_due()
{
    if (std::chrono::steady_clock::now() - m_last_commit >= m_opt.commit_interval) commit();
}

void recording_writer::commit()
{
    guarded([&] { commit_now(); });
}

void recording_writer::commit_now()
{
    if (!m_db.is_open()) return;
    flush_counts();
    if (m_in_tx) m_db.exec("COMMIT");
    m_in_tx = false;
    for (auto& r : m_runs) {
        r.committed = r.snapshots;
        r.committed_t = r.last_t;
    }
    m_db.exec("BEGIN");
    m_in_tx = true;
    m_last_commit = std::chrono::steady_clock::now();
}

void recording_writer::close()
{
    if (!m_db.is_open()) return;
    struct closer {
        recording_writer& w;
        ~closer()
        {
            w.m_snap = {};
            w.m_sample = {};
            w.m_zone = {};
            w.m_event = {};
            w.m_chunk = {};
            w.m_command = {};
            w.m_procfs = {};
            w.m_db.close();
            w.m_claim = {}; // after SQLite's own descriptor: closing ours first would drop SQLite's POSIX locks
        }
    } closing{*this};
    if (!m_failure.empty()) return; // rolled back already: nothing more is written
    guarded([&] {
        flush_counts();
        if (m_in_tx) m_db.exec("COMMIT");
        m_in_tx = false;
    });
    // A finished recording leaves WAL mode: one file, which a reader opens even from a read-only folder (a
    // WAL database needs its -shm file, which such a folder cannot hold). Only while no other connection
    // has the file open; otherwise it stays in WAL mode, as valid a recording.
    try {
        m_db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        m_db.exec("PRAGMA journal_mode = DELETE");
    } catch (const sqlite_error&) {
    }
}

} // namespace pcplab::session
