// The live frame source: one engine, or an A/B pair in lockstep, each on its own thread (sim::lockstep_loop). It
// keeps every published snapshot until the window takes it, because a snapshot carries the events of its interval
// and the event log must not lose the one that shows, say, seed 000's batch 7 -> 63 change. Driving the loop here
// gives one code path for both modes.
#pragma once

#include "ui/live/frame_source.hpp"

#include "sim/lockstep_loop.hpp"

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>

namespace pcplab::ui
{

struct live_options {
    double publish_hz = 30; // snapshots per wall second (the window polls at up to 60 Hz)
    double speed = 1e9; // virtual ns per wall second; 0 = as fast as possible
    bool start_paused = false; // play the boot, then pause where the workload starts
    // Bounds on the wall time a one-thread-per-node boot is played for (sim::loop_options; 0 = no bound): a
    // lesson or story that wants the boot watched sets them.
    std::chrono::milliseconds boot_min_wall{1500};
    std::chrono::milliseconds boot_max_wall{6000};
    std::size_t max_pending = 4096; // publications kept for take_published(); older ones are dropped
    // Called on an engine thread with every publication (a recorder); keep it short, never block in it.
    std::function<void(const published_pair&)> on_publish;
    // A workload of one's own (a lesson step's, with its tunables); empty = each configuration's by name.
    sim::workload_factory make_load;
    sim::vtime_ns sample_every_ns = 0; // see live_source::set_sample_interval
};

class live_source : public frame_source
{
    Q_OBJECT
public:
    // One engine (b empty) or an A/B pair with the same quanta. Starts booting at once.
    live_source(
        sim::engine_config a, std::optional<sim::engine_config> b, live_options opt = {}, QObject* parent = nullptr);
    ~live_source() override; // stop()

    std::shared_ptr<const sim::snapshot> latest_a() const override;
    std::shared_ptr<const sim::snapshot> latest_b() const override;
    bool is_ab() const override { return m_ab; }
    std::vector<published_pair> take_published() override;

    void pause() override;
    void resume() override;
    void step() override; // one quantum of virtual time (one action is too small to see)
    void set_speed(double vns_per_wall_s) override;
    bool send(sim::engine_command c) override;
    // A finite workload starts a new round when it finishes (on), or the run ends there (off).
    std::uint64_t set_continuous(bool on);
    bool reboot() override;
    // A single engine reboots in place (the old machine is freed first). A pair would boot twice for two
    // commands, so it refuses and the caller starts a new source.
    bool reboot_with(const sim::engine_config& a, const sim::engine_config* b) override;
    void stop() override;

    // Pause at the first quantum boundary >= t_ns of virtual time, whatever the pacing (screenshots).
    std::uint64_t pause_at(sim::vtime_ns t_ns);
    std::uint64_t step_action(); // one action of the CPU furthest behind (of each engine)
    // A snapshot at every multiple of `every_ns` of virtual time besides the wall-clock rate (0: none): a
    // recording as dense as the CLI's (sim::lockstep_loop::set_sample_interval).
    void set_sample_interval(sim::vtime_ns every_ns);
    std::uint64_t last_command() const { return m_last_command; }
    std::uint64_t publications_dropped() const;

private:
    void on_publish(const std::vector<std::shared_ptr<const sim::snapshot>>& v);
    std::uint64_t post(sim::engine_command c);

    bool m_ab;
    live_options m_opt;
    std::uint64_t m_last_command = 0;
    mutable std::mutex m_mutex; // held only to copy or push pointers, never while a snapshot is built
    published_pair m_latest;
    std::deque<published_pair> m_pending;
    std::uint64_t m_dropped = 0;
    std::unique_ptr<sim::lockstep_loop> m_loop; // last: its threads publish into the members above
};

} // namespace pcplab::ui
