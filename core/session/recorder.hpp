// Records snapshots to a file without slowing their producer: the producer's thread only moves a shared_ptr
// into a bounded queue (a few pointer operations under a mutex that the writer thread also holds only to
// swap the queue out); a writer thread encodes and writes them (recording_writer). When the queue is full,
// a live source's snapshot is dropped and counted (runs.snapshots_dropped), never waited for; a source that
// must not lose any (the CLI's recorded run) asks to wait instead.
//
//   session::recorder rec("run.db", opts);
//   ... rec.publish(snapshot) for each snapshot, on the producer's thread ...
//   rec.close();
#pragma once

#include "session/recording_writer.hpp"

#include "sim/snapshot.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace pcplab::session
{

struct recorder_options : recording_options {
    std::size_t queue_capacity = 512; // snapshots waiting for the writer
    bool wait_when_full = false; // false: drop (live sources); true: the producer waits (no loss)
    // The run configuration for runs the recorder starts by itself (a new generation, i.e. a reboot); its
    // side, preset ... are refreshed from the snapshot. Without it, run_header_for(snapshot).
    std::optional<run_header> base_header;
};

class recorder
{
public:
    // Creates the file (recording_writer's rules) and starts the writer thread; throws recording_error.
    recorder(const std::string& path, recorder_options opt, bool append = false);
    ~recorder(); // close()
    recorder(const recorder&) = delete;
    recorder& operator=(const recorder&) = delete;

    // Producer side (any one thread). publish() starts a run by itself at the first snapshot of each
    // generation and side, unless begin_run() was called for it.
    void publish(const std::shared_ptr<const sim::snapshot>& s);
    void begin_run(run_header h); // the snapshots published from now on belong to a new run
    void end_run(std::string stop_reason, std::string summary_json = {});

    // Waits for the writer to write everything queued, ends an open run ("stopped"), commits and closes.
    // Rethrows a write error (as recording_error) that the writer thread met. Idempotent.
    void close();

    // While snapshots come, the writer looks for them by itself this often: the producer does not wake it. Short, so
    // that few snapshots wait at a time and their source soon fills them again (snapshot_pool) instead of new ones.
    static constexpr std::chrono::milliseconds WRITER_POLL{2};
    // After this many looks that found nothing (50 ms) the writer sleeps until woken (or WRITER_IDLE_POLL, to
    // commit), and the next snapshot wakes it.
    static constexpr unsigned WRITER_IDLE_AFTER = 25;
    static constexpr std::chrono::milliseconds WRITER_IDLE_POLL{100};

    // The file could not be written (a full disk): the writer has stopped and takes nothing more; close() says
    // why and what the file keeps. A producer that can stop early (pcplab-cli run) asks this as it goes.
    bool failed() const;
    std::uint64_t dropped() const; // snapshots not recorded because the queue was full
    std::uint64_t written() const; // snapshots written so far
    const std::string& path() const { return m_path; }

private:
    struct item {
        enum class kind { begin, snapshot, end } k = kind::snapshot;
        std::shared_ptr<const sim::snapshot> snap;
        std::optional<run_header> header;
        std::string a, b; // end: stop reason, summary
    };
    void push(item it, bool droppable);
    void writer_loop();
    void handle(item& it);

    std::string m_path;
    recorder_options m_opt;
    std::unique_ptr<recording_writer> m_writer;

    mutable std::mutex m_mu;
    std::condition_variable m_wake, m_room;
    std::vector<item> m_queue;
    std::size_t m_queued_snapshots = 0;
    bool m_writer_idle = true; // asleep until woken: the next snapshot wakes it
    bool m_closing = false;
    std::uint64_t m_dropped = 0, m_written = 0;
    std::string m_error;

    std::thread m_thread; // last
};

} // namespace pcplab::session
