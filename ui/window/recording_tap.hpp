// Records what the window's live machines publish (A and B in A/B mode) while "Record..." is on. Every live
// source the window starts calls publish() from its engine thread (live_options::on_publish), so recording
// can start and stop at any moment without rebooting; while nothing records, publish() returns at once.
// A pair repeats the other half's previous snapshot while one engine boots: each snapshot is written once.
#pragma once

#include "ui/live/frame_source.hpp"

#include "session/recorder.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace pcplab::ui
{

class recording_tap
{
public:
    ~recording_tap(); // stop()

    // Any engine thread. `source_id` names the live source, increasing: a new one (another machine, whose
    // generations count from the start again) ends the previous one's runs, so that its snapshots start new
    // runs; an older one is no longer recorded.
    void publish(std::uint64_t source_id, const published_pair& p);

    // Creates the file and records from now on; "" or the problem (session::recording_error's message).
    // `snapshot_rule` says how often the machines publish (written into the recording).
    std::string start(const std::string& path, std::optional<session::run_header> base, std::string snapshot_rule);
    // Writes what is queued and closes the file; "" or the problem met while writing. Idempotent.
    std::string stop();

    bool active() const;
    std::string path() const;
    std::uint64_t written() const; // snapshots written to the file so far
    std::uint64_t dropped() const; // snapshots the writer could not keep up with
    std::uint64_t last_written() const { return m_last_written; } // snapshots in the file stop() closed

private:
    mutable std::mutex m_mu;
    std::unique_ptr<session::recorder> m_rec;
    std::uint64_t m_source = 0;
    bool m_any = false; // something was published into the current runs
    std::shared_ptr<const sim::snapshot> m_last_a, m_last_b;
    std::uint64_t m_last_written = 0; // set by stop() (the window's thread)
};

} // namespace pcplab::ui
