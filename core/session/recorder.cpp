#include "session/recorder.hpp"

#include "session/recording_schema.hpp"

#include <map>
#include <utility>

namespace pcplab::session
{

namespace
{

// What went wrong, without the file name that recording_error puts in front (close() names the file once).
std::string problem_of(const std::exception& e)
{
    if (const auto* r = dynamic_cast<const recording_error*>(&e)) return r->problem();
    return e.what();
}

} // namespace

recorder::recorder(const std::string& path, recorder_options opt, bool append)
    : m_path(path)
    , m_opt(std::move(opt))
{
    m_writer = std::make_unique<recording_writer>(path, m_opt, append);
    m_thread = std::thread([this] { writer_loop(); });
}

recorder::~recorder()
{
    try {
        close();
    } catch (...) {
        // Reported to whoever calls close() themselves.
    }
}

void recorder::push(item it, bool droppable)
{
    std::unique_lock lk(m_mu);
    if (m_closing) return;
    if (droppable) {
        if (m_queued_snapshots >= m_opt.queue_capacity) {
            if (!m_opt.wait_when_full) {
                ++m_dropped;
                return;
            }
            m_room.wait(lk, [&] { return m_queued_snapshots < m_opt.queue_capacity || m_closing; });
            if (m_closing) return;
        }
        ++m_queued_snapshots;
    }
    m_queue.push_back(std::move(it));
    // A wake is a system call and, on a VM, an interrupt to the writer's CPU: one every 32 snapshots was still a
    // sixth of the engine thread's sampling time on a small machine. So while snapshots come the writer looks for
    // them by itself (WRITER_POLL) and the producer wakes it only from idle, when the queue is full, and for runs'
    // starts and ends.
    bool wake = !droppable || m_queued_snapshots >= m_opt.queue_capacity;
    if (m_writer_idle) {
        m_writer_idle = false;
        wake = true;
    }
    lk.unlock();
    if (wake) m_wake.notify_one();
}

void recorder::publish(const std::shared_ptr<const sim::snapshot>& s)
{
    if (!s) return;
    item it;
    it.k = item::kind::snapshot;
    it.snap = s;
    push(std::move(it), true);
}

void recorder::begin_run(run_header h)
{
    item it;
    it.k = item::kind::begin;
    it.header = std::move(h);
    push(std::move(it), false);
}

void recorder::end_run(std::string stop_reason, std::string summary_json)
{
    item it;
    it.k = item::kind::end;
    it.a = std::move(stop_reason);
    it.b = std::move(summary_json);
    push(std::move(it), false);
}

void recorder::writer_loop()
{
    // Runs the recorder opened by itself, by (side, generation); an explicit run takes every snapshot.
    std::map<std::pair<int, std::uint64_t>, std::int64_t> auto_runs;
    std::int64_t explicit_run = 0; // 0: none (a run id is a rowid, from 1 on), as for last_run below
    std::uint64_t drops_seen = 0;
    std::int64_t last_run = 0; // the run of the latest snapshot: drops after it are counted there
    // Snapshots dropped since the last count, charged to `run` (the drop happened while it was recording).
    auto note_drops = [&](std::int64_t run, std::uint64_t dropped_now) {
        if (run == 0 || dropped_now <= drops_seen) return;
        m_writer->note_dropped(run, dropped_now - drops_seen);
        drops_seen = dropped_now;
    };
    unsigned empty_looks = 0;
    // Swapped with the queue: the producer then pushes into memory the last batch already had, not a fresh buffer.
    std::vector<item> batch;
    for (;;) {
        batch.clear();
        std::uint64_t dropped_now = 0;
        {
            std::unique_lock lk(m_mu);
            const auto poll = m_writer_idle ? WRITER_IDLE_POLL : WRITER_POLL;
            m_wake.wait_for(lk, std::min<std::chrono::milliseconds>(m_opt.commit_interval, poll),
                [&] { return !m_queue.empty() || m_closing; });
            if (m_queue.empty() && m_closing) break;
            if (!m_queue.empty())
                empty_looks = 0;
            else if (++empty_looks >= WRITER_IDLE_AFTER)
                m_writer_idle = true;
            batch.swap(m_queue);
            dropped_now = m_dropped;
        }
        try {
            std::size_t written = 0;
            for (auto& it : batch) {
                std::int64_t run = 0;
                switch (it.k) {
                case item::kind::begin:
                    explicit_run = m_writer->begin_run(*it.header);
                    break;
                case item::kind::snapshot: {
                    const auto& s = *it.snap;
                    if (explicit_run) {
                        run = explicit_run;
                    } else {
                        auto key = std::make_pair(s.side, s.run.generation);
                        auto found = auto_runs.find(key);
                        if (found == auto_runs.end()) {
                            run_header h = run_header_for(s);
                            if (m_opt.base_header) {
                                run_header b = *m_opt.base_header;
                                b.side = h.side;
                                b.preset = h.preset.empty() ? b.preset : h.preset;
                                if (b.era != h.era) b.requested_era = h.era;
                                b.era = h.era;
                                b.switches = h.switches;
                                b.init_threads = h.init_threads;
                                b.workload = h.workload;
                                b.intensity = h.intensity;
                                b.seed = h.seed;
                                b.nr_cpus = h.nr_cpus ? h.nr_cpus : b.nr_cpus;
                                // A reboot may have changed the preset, hence the model, or the threshold.
                                if (h.hold_threshold_ns) b.hold_threshold_ns = h.hold_threshold_ns;
                                if (!h.cost_model_json.empty()) b.cost_model_json = h.cost_model_json;
                                h = std::move(b);
                            }
                            found = auto_runs.emplace(key, m_writer->begin_run(h)).first;
                        }
                        run = found->second;
                    }
                    note_drops(run, dropped_now);
                    last_run = run;
                    m_writer->write_snapshot(run, s);
                    ++written;
                    break;
                }
                case item::kind::end:
                    note_drops(last_run, dropped_now);
                    last_run = 0;
                    if (explicit_run) m_writer->end_run(explicit_run, it.a, it.b);
                    for (const auto& [key, r] : auto_runs) m_writer->end_run(r, it.a, it.b);
                    explicit_run = 0;
                    auto_runs.clear();
                    break;
                }
            }
            // Counted once per batch, not per snapshot: each count takes the lock that the producer takes to queue.
            if (written) {
                {
                    std::lock_guard lk(m_mu);
                    m_queued_snapshots -= written;
                    m_written += written;
                }
                m_room.notify_all();
            }
            m_writer->commit_if_due();
        } catch (const std::exception& e) {
            std::lock_guard lk(m_mu);
            m_error = problem_of(e);
            m_closing = true; // stop accepting: the file cannot be written
            m_queued_snapshots = 0;
            m_queue.clear();
            m_room.notify_all();
            return;
        }
    }
    // Closing: runs still open were cut short by the caller.
    try {
        {
            std::lock_guard lk(m_mu);
            note_drops(last_run, m_dropped);
        }
        if (explicit_run) m_writer->end_run(explicit_run, "stopped", {});
        for (const auto& [key, r] : auto_runs) m_writer->end_run(r, "stopped", {});
        m_writer->close();
    } catch (const std::exception& e) {
        std::lock_guard lk(m_mu);
        m_error = problem_of(e);
    }
}

bool recorder::failed() const
{
    std::lock_guard lk(m_mu);
    return !m_error.empty();
}

void recorder::close()
{
    {
        std::lock_guard lk(m_mu);
        if (!m_thread.joinable()) return;
        m_closing = true;
    }
    m_wake.notify_all();
    m_room.notify_all();
    m_thread.join();
    std::string err;
    {
        std::lock_guard lk(m_mu);
        err = m_error;
    }
    if (!err.empty()) throw recording_error(m_path, err);
}

std::uint64_t recorder::dropped() const
{
    std::lock_guard lk(m_mu);
    return m_dropped;
}

std::uint64_t recorder::written() const
{
    std::lock_guard lk(m_mu);
    return m_written;
}

} // namespace pcplab::session
