// Where the window's frames come from: a live engine (one, or an A/B pair) or a recording being replayed.
// The window polls latest() from a QTimer (at most 60 Hz) and sends control actions through the same object,
// so the views and the window need not know which kind of source they are watching.
#pragma once

#include "sim/engine.hpp"
#include "sim/engine_command.hpp"
#include "sim/snapshot.hpp"

#include <QObject>

#include <memory>
#include <vector>

namespace pcplab::ui
{

// One publication of a source: side A's snapshot, and B's in A/B mode (null otherwise).
struct published_pair {
    std::shared_ptr<const sim::snapshot> a, b;
};

class frame_source : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~frame_source() override = default;

    // Newest snapshots (b null unless A/B). Never blocks.
    virtual std::shared_ptr<const sim::snapshot> latest_a() const = 0;
    virtual std::shared_ptr<const sim::snapshot> latest_b() const { return nullptr; }
    virtual bool is_ab() const { return false; }
    virtual bool is_replay() const { return false; }
    // Every pair published since the previous call, oldest first, so that a history misses none of the events
    // a snapshot carries (a poller that only reads latest_* loses those of the snapshots it skipped). The
    // default returns just the newest pair; the caller drops what it has already seen by seq.
    virtual std::vector<published_pair> take_published() { return {{latest_a(), latest_b()}}; }

    // Run control. A replay maps them onto its timeline; a live engine posts commands.
    virtual void pause() = 0;
    virtual void resume() = 0;
    virtual void step() = 0;
    virtual void set_speed(double vns_per_wall_s) = 0; // 0 = as fast as possible
    // Live only: an engine command (a switch, sysctl, workload or intensity) to the engines its target names. A
    // replay, or a target this source does not have (B of a single engine), returns false.
    virtual bool send(sim::engine_command c) { return false; }
    virtual bool reboot() { return false; }
    // A live source that can restart in place with new configurations (preset, era, seed): false when it
    // cannot, and the caller builds a new source instead. `b` is null unless A/B.
    virtual bool reboot_with(const sim::engine_config& a, const sim::engine_config* b) { return false; }
    // Replay only: the timeline (ns of virtual time); live sources return false.
    virtual bool seek(qint64 t_ns) { return false; }
    virtual qint64 duration_ns() const { return 0; }
    // Stops threads; after it latest_* still returns the last snapshots. Idempotent.
    virtual void stop() = 0;
};

} // namespace pcplab::ui
