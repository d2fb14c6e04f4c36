#include "session/recording_reader.hpp"

#include "session/byte_codec.hpp"
#include "session/hold_chunk.hpp"
#include "session/record_names.hpp"
#include "session/recorded_cost_model.hpp"
#include "session/snapshot_codec.hpp"

#include "mm/patch_switches.hpp"

#include "procfs/procfs_texts.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>

namespace pcplab::session
{

namespace
{

const char* const k_event_cols = "seq, t_ns, kind, cpu, node, zone, field, old_value, new_value, text";
const char* const k_hold_cols = "seq, start_ns, hold_ns, wait_ns, cpu, node, zone, kind, caller, pages, owner";
const char* const k_command_cols = "seq, id, kind, what, ok, message, applied_at_ns, applied_at_event";
const char* const k_procfs_files[2] = {"zoneinfo", "buddyinfo"}; // procfs.file: procfs_texts' two texts

sim::sim_event event_from(const sqlite_stmt& s)
{
    sim::sim_event e;
    e.t = static_cast<sim::vtime_ns>(s.column_int(1));
    auto kind = event_kind_from_name(s.column_text(2));
    auto field = event_field_from_name(s.column_text(6));
    if (!kind || !field) throw codec_error("an event of an unknown kind or field");
    e.kind = *kind;
    e.cpu = static_cast<int>(s.column_int(3));
    e.node = static_cast<int>(s.column_int(4));
    e.zone = static_cast<int>(s.column_int(5));
    e.field = *field;
    e.old_value = static_cast<long>(s.column_int(7));
    e.new_value = static_cast<long>(s.column_int(8));
    e.text = s.column_text(9);
    return e;
}

sim::lock_hold_record hold_from(const sqlite_stmt& s)
{
    sim::lock_hold_record h;
    const auto kind = s.column_int(7), caller = s.column_int(8);
    if (kind < 0 || kind > 1 || caller < 0 || caller >= static_cast<int>(mm::lock_caller::nr_callers))
        throw codec_error("a lock hold of an unknown kind or caller");
    h.start = static_cast<sim::vtime_ns>(s.column_int(1));
    h.hold_ns = static_cast<std::uint32_t>(s.column_int(2));
    h.wait_ns = static_cast<std::uint32_t>(s.column_int(3));
    h.cpu = static_cast<std::uint16_t>(s.column_int(4));
    h.node = static_cast<std::uint8_t>(s.column_int(5));
    h.zone = static_cast<std::uint8_t>(s.column_int(6));
    h.kind = static_cast<mm::lock_kind>(kind);
    h.caller = static_cast<mm::lock_caller>(caller);
    h.pages = static_cast<std::uint32_t>(s.column_int(9));
    h.owner = static_cast<std::int16_t>(s.column_int(10));
    return h;
}

sim::command_result command_from(const sqlite_stmt& s)
{
    sim::command_result c;
    auto kind = command_kind_from_name(s.column_text(2));
    if (!kind) throw codec_error("a command of an unknown kind");
    c.id = static_cast<std::uint64_t>(s.column_int(1));
    c.kind = *kind;
    c.what = s.column_text(3);
    c.ok = s.column_int(4) != 0;
    c.message = s.column_text(5);
    c.applied_at_ns = static_cast<sim::vtime_ns>(s.column_int(6));
    c.applied_at_event = static_cast<std::uint64_t>(s.column_int(7));
    return c;
}

} // namespace

recording::recording(const std::string& path)
    : m_path(path)
    , m_db(open_recording_db(path))
{
    try {
        // Damage that SQLite's page reads do not notice (an index that lost rows, a page used twice) would
        // otherwise give other values with no error: a recording opens only whole. It reads every page once,
        // about as long as an export reads them (0.6 s for a 57 MB recording on the development host).
        auto check = m_db.prepare("PRAGMA integrity_check(1)");
        if (check.step() && check.column_text(0) != "ok") {
            std::string found = check.column_text(0);
            std::replace(found.begin(), found.end(), '\n', ' ');
            fail("damaged recording (SQLite's integrity check: " + found + ")");
        }
        m_schema = m_db.query_int("PRAGMA user_version");
        auto s = m_db.prepare("SELECT key, value FROM meta");
        while (s.step()) m_meta[s.column_text(0)] = s.column_text(1);
        if (meta("format") != RECORDING_FORMAT_NAME)
            fail("not a pcplab recording (meta format is '" + meta("format") + "')");
        read_runs();
    } catch (const sqlite_error& e) {
        fail(e);
    }
}

void recording::fail(const sqlite_error& e) const
{
    throw describe_sqlite_failure(m_path, e);
}

void recording::fail(const std::string& problem) const
{
    throw recording_error(m_path, problem);
}

std::string recording::meta(const std::string& key) const
{
    auto it = m_meta.find(key);
    return it == m_meta.end() ? std::string() : it->second;
}

std::int64_t recording::created_epoch() const
{
    try {
        return std::stoll(meta("created_epoch"));
    } catch (const std::exception&) {
        return 0;
    }
}

void recording::read_runs()
{
    auto s = m_db.prepare("SELECT run, side, tag, preset, era, requested_era, switches, init_threads, workload, "
                          "intensity, seed, nr_cpus, hold_threshold_ns, cost_model, finished, stop_reason, summary, "
                          "snapshots_written, snapshots_dropped, holds_seen, holds_written FROM runs ORDER BY run");
    while (s.step()) {
        run_record r;
        r.run = s.column_int(0);
        r.side = static_cast<int>(s.column_int(1));
        r.tag = s.column_text(2);
        r.preset = s.column_text(3);
        r.era = s.column_text(4);
        r.requested_era = s.column_text(5);
        auto sw = nlohmann::json::parse(s.column_text(6), nullptr, false);
        if (sw.is_object())
            for (auto it = sw.begin(); it != sw.end(); ++it)
                if (it.value().is_boolean()) {
                    // A switch this build does not know was written by a newer pcplab (names are only added).
                    if (!mm::patch_from_name(it.key()))
                        fail("run " + std::to_string(r.run) + " has the patch switch '" + it.key()
                            + "', which this build does not know (it knows " + mm::patch_names_list()
                            + "): it needs a newer pcplab");
                    r.switches.emplace_back(it.key(), it.value().get<bool>());
                }
        r.init_threads = static_cast<int>(s.column_int(7));
        r.workload = s.column_text(8);
        r.intensity = s.column_double(9);
        r.seed = static_cast<std::uint64_t>(s.column_int(10));
        r.nr_cpus = static_cast<int>(s.column_int(11));
        r.hold_threshold_ns = static_cast<std::uint64_t>(s.column_int(12));
        r.cost_model_json = s.column_text(13);
        r.costs = cost_model_from_json(r.cost_model_json);
        r.finished = s.column_int(14) != 0;
        r.stop_reason = s.column_text(15);
        r.summary_json = s.column_text(16);
        r.snapshots_written = static_cast<std::uint64_t>(s.column_int(17));
        r.snapshots_dropped = static_cast<std::uint64_t>(s.column_int(18));
        r.holds_seen = static_cast<std::uint64_t>(s.column_int(19));
        r.holds_written = static_cast<std::uint64_t>(s.column_int(20));
        m_runs.push_back(std::move(r));
    }
}

const run_record& recording::run(std::int64_t id) const
{
    for (const auto& r : m_runs)
        if (r.run == id) return r;
    fail("no run " + std::to_string(id) + " in this recording");
}

std::vector<snapshot_ref> recording::index(std::int64_t run) const
{
    std::vector<snapshot_ref> out;
    try {
        auto s = m_db.prepare("SELECT seq, t_ns FROM snapshots WHERE run = ? ORDER BY seq");
        s.bind(1, run);
        while (s.step())
            out.push_back({static_cast<std::uint64_t>(s.column_int(0)), static_cast<sim::vtime_ns>(s.column_int(1))});
    } catch (const sqlite_error& e) {
        fail(e);
    }
    return out;
}

std::optional<snapshot_ref> recording::at_time(std::int64_t run, sim::vtime_ns t) const
{
    try {
        auto s = m_db.prepare(
            "SELECT seq, t_ns FROM snapshots WHERE run = ? AND t_ns <= ? ORDER BY t_ns DESC, seq DESC LIMIT 1");
        s.bind(1, run).bind(2, t);
        if (s.step())
            return snapshot_ref{
                static_cast<std::uint64_t>(s.column_int(0)), static_cast<sim::vtime_ns>(s.column_int(1))};
        auto first = m_db.prepare("SELECT seq, t_ns FROM snapshots WHERE run = ? ORDER BY seq LIMIT 1");
        first.bind(1, run);
        if (first.step())
            return snapshot_ref{
                static_cast<std::uint64_t>(first.column_int(0)), static_cast<sim::vtime_ns>(first.column_int(1))};
    } catch (const sqlite_error& e) {
        fail(e);
    }
    return std::nullopt;
}

std::shared_ptr<const sim::snapshot> recording::load(std::int64_t run, std::uint64_t seq) const
{
    const std::string where = " WHERE run = ? AND seq = ? ORDER BY rowid";
    try {
        auto blob = m_db.prepare("SELECT data, holds_first, holds_count FROM snapshots WHERE run = ? AND seq = ?");
        blob.bind(1, run).bind(2, seq);
        if (!blob.step()) return nullptr;
        auto snap = std::make_shared<sim::snapshot>(decode_snapshot(blob.column_blob(0)));
        add_header(*snap, run);
        const std::int64_t first_hold = blob.column_int(1), holds = blob.column_int(2);
        auto ev = m_db.prepare(std::string("SELECT ") + k_event_cols + " FROM events" + where);
        ev.bind(1, run).bind(2, seq);
        while (ev.step()) snap->events.push_back(event_from(ev));
        if (holds > 0) snap->holds = read_holds(seq, first_hold, holds);
        auto co = m_db.prepare(std::string("SELECT ") + k_command_cols + " FROM commands" + where);
        co.bind(1, run).bind(2, seq);
        while (co.step()) snap->commands.push_back(command_from(co));
        // The /proc texts: the newest ones recorded at or before this snapshot.
        if (snap->procfs) {
            std::string texts[2];
            for (int i = 0; i < 2; ++i) {
                const char* file = k_procfs_files[i];
                auto q = m_db.prepare(
                    "SELECT text FROM procfs WHERE run = ? AND file = ? AND seq <= ? ORDER BY seq DESC LIMIT 1");
                q.bind(1, run).bind(2, file).bind(3, seq);
                if (!q.step()) throw codec_error(std::string("its /proc/") + file + " text is missing");
                texts[i] = q.column_text(0);
            }
            snap->procfs = procfs::procfs_texts::from_texts(std::move(texts[0]), std::move(texts[1]));
        }
        return snap;
    } catch (const sqlite_error& e) {
        fail(e);
    } catch (const codec_error& e) {
        fail("snapshot " + std::to_string(seq) + " of run " + std::to_string(run) + ": " + e.what());
    }
}

void recording::add_header(sim::snapshot& s, std::int64_t run) const
{
    for (const auto& r : m_runs)
        if (r.run == run) {
            s.run.costs = r.costs;
            s.run.hold_threshold_ns = r.hold_threshold_ns;
            return;
        }
}

std::vector<sim::lock_hold_record> recording::read_holds(
    std::uint64_t seq, std::int64_t first, std::int64_t count) const
{
    std::vector<sim::lock_hold_record> holds;
    if (m_schema >= 2) { // by rowid: lock_hold_chunks has no index (see recording_schema.cpp)
        auto q = m_db.prepare("SELECT seq, base_ns, holds FROM lock_hold_chunks WHERE rowid = ?");
        q.bind(1, first);
        if (q.step()) {
            if (static_cast<std::uint64_t>(q.column_int(0)) != seq) throw codec_error("its lock holds are mixed up");
            holds = decode_hold_chunk(q.column_text(2), static_cast<sim::vtime_ns>(q.column_int(1)));
        }
    } else { // schema 1: a row each, consecutive rowids
        auto q = m_db.prepare(
            std::string("SELECT ") + k_hold_cols + " FROM lock_holds WHERE rowid >= ? AND rowid < ? ORDER BY rowid");
        q.bind(1, first).bind(2, first + count);
        while (q.step()) {
            if (static_cast<std::uint64_t>(q.column_int(0)) != seq) throw codec_error("its lock holds are mixed up");
            holds.push_back(hold_from(q));
        }
    }
    if (static_cast<std::int64_t>(holds.size()) != count)
        throw codec_error(
            "its lock holds are missing (" + std::to_string(holds.size()) + " of " + std::to_string(count) + ")");
    return holds;
}

std::vector<std::shared_ptr<const sim::snapshot>> recording::load_all(std::int64_t run) const
{
    std::vector<std::shared_ptr<sim::snapshot>> snaps;
    std::map<std::uint64_t, std::size_t> by_seq;
    std::uint64_t seq = 0;
    try {
        auto s = m_db.prepare("SELECT seq, data FROM snapshots WHERE run = ? ORDER BY seq");
        s.bind(1, run);
        while (s.step()) {
            seq = static_cast<std::uint64_t>(s.column_int(0));
            by_seq[seq] = snaps.size();
            snaps.push_back(std::make_shared<sim::snapshot>(decode_snapshot(s.column_blob(1))));
            add_header(*snaps.back(), run);
        }
        // The logs of the whole run in one pass each, in insertion order, dealt to their snapshots.
        auto deal = [&](const std::string& sql, auto&& add) {
            auto q = m_db.prepare(sql);
            q.bind(1, run);
            while (q.step()) {
                seq = static_cast<std::uint64_t>(q.column_int(0));
                auto it = by_seq.find(seq);
                if (it != by_seq.end()) add(*snaps[it->second], q);
            }
        };
        const std::string tail = " WHERE run = ? ORDER BY rowid";
        deal(std::string("SELECT ") + k_event_cols + " FROM events" + tail,
            [](sim::snapshot& sn, const sqlite_stmt& q) { sn.events.push_back(event_from(q)); });
        if (m_schema < 2) {
            deal(std::string("SELECT ") + k_hold_cols + " FROM lock_holds" + tail,
                [](sim::snapshot& sn, const sqlite_stmt& q) { sn.holds.push_back(hold_from(q)); });
        } else {
            deal(
                "SELECT seq, base_ns, holds FROM lock_hold_chunks" + tail, [](sim::snapshot& sn, const sqlite_stmt& q) {
                    auto holds = decode_hold_chunk(q.column_text(2), static_cast<sim::vtime_ns>(q.column_int(1)));
                    sn.holds.insert(sn.holds.end(), holds.begin(), holds.end());
                });
        }
        deal(std::string("SELECT ") + k_command_cols + " FROM commands" + tail,
            [](sim::snapshot& sn, const sqlite_stmt& q) { sn.commands.push_back(command_from(q)); });
        // /proc texts: each capture once, shared by the snapshots that carried it (as they were live).
        std::vector<std::pair<std::uint64_t, std::string>> texts[2]; // (seq, text) of zoneinfo, of buddyinfo
        for (int i = 0; i < 2; ++i) {
            auto q = m_db.prepare("SELECT seq, text FROM procfs WHERE run = ? AND file = ? ORDER BY seq");
            q.bind(1, run).bind(2, k_procfs_files[i]);
            while (q.step()) texts[i].emplace_back(static_cast<std::uint64_t>(q.column_int(0)), q.column_text(1));
        }
        std::size_t at[2] = {0, 0}, shared_at[2] = {SIZE_MAX, SIZE_MAX};
        std::shared_ptr<const procfs::procfs_texts> shared;
        for (auto& sn : snaps) {
            for (int i = 0; i < 2; ++i)
                while (at[i] + 1 < texts[i].size() && texts[i][at[i] + 1].first <= sn->seq) ++at[i];
            if (!sn->procfs) continue;
            seq = sn->seq;
            for (int i = 0; i < 2; ++i)
                if (texts[i].empty() || texts[i][at[i]].first > sn->seq)
                    throw codec_error(std::string("its /proc/") + k_procfs_files[i] + " text is missing");
            if (at[0] != shared_at[0] || at[1] != shared_at[1]) {
                shared = procfs::procfs_texts::from_texts(texts[0][at[0]].second, texts[1][at[1]].second);
                shared_at[0] = at[0];
                shared_at[1] = at[1];
            }
            sn->procfs = shared;
        }
    } catch (const sqlite_error& e) {
        fail(e);
    } catch (const codec_error& e) {
        fail("snapshot " + std::to_string(seq) + " of run " + std::to_string(run) + ": " + e.what());
    }
    return {snaps.begin(), snaps.end()};
}

std::vector<procfs_text> recording::procfs(std::int64_t run, const std::string& file) const
{
    std::vector<procfs_text> out;
    try {
        auto s = m_db.prepare("SELECT seq, t_ns, text FROM procfs WHERE run = ? AND file = ? ORDER BY rowid");
        s.bind(1, run).bind(2, file);
        while (s.step())
            out.push_back({static_cast<std::uint64_t>(s.column_int(0)), static_cast<sim::vtime_ns>(s.column_int(1)),
                s.column_text(2)});
    } catch (const sqlite_error& e) {
        fail(e);
    }
    return out;
}

} // namespace pcplab::session
