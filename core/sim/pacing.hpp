// Wall-clock pacing: how many virtual quanta to run before the next snapshot is due. Pacing only chooses
// how many whole quanta a tick runs; it never splits one, so the engine's states do not depend on it.
#pragma once

#include "sim/workload.hpp"

#include <chrono>
#include <cstdint>

namespace pcplab::sim
{

class pacing
{
public:
    using clock = std::chrono::steady_clock;

    explicit pacing(double publish_hz = 30);
    clock::duration interval() const { return m_interval; }

    // Virtual ns per wall second; <= 0 runs as fast as possible. Takes effect from the next anchor().
    void set_speed(double vns_per_wall_s) { m_speed = vns_per_wall_s > 0 ? vns_per_wall_s : 0; }
    double speed() const { return m_speed; }
    bool paced() const { return m_speed > 0; }

    // Start measuring from here: after a resume, a speed change, a step or a reboot.
    void anchor(clock::time_point now, vtime_ns boundary);
    // Quanta to run from `boundary` in the next tick: as many as fit in half a publish interval, and, when
    // paced, no more than the virtual time the wall clock allows.
    std::uint64_t quanta_due(clock::time_point now, vtime_ns boundary, vtime_ns quantum);
    // A tick ran `quanta` in `took`: adapts how many fit in half an interval (at most doubling per tick).
    void record(std::uint64_t quanta, clock::duration took);
    // Paced and nothing due: when the next quantum becomes due.
    clock::time_point next_due(vtime_ns boundary, vtime_ns quantum) const;
    // Paced, but the host could not keep up: the schedule was moved (not made up later).
    bool behind() const { return m_behind; }
    std::uint64_t chunk() const { return m_chunk; }

    static constexpr std::uint64_t max_chunk = 1U << 20;

private:
    clock::duration m_interval;
    double m_speed = 0;
    clock::time_point m_anchor_wall{};
    vtime_ns m_anchor_vt = 0;
    std::uint64_t m_chunk = 1;
    bool m_behind = false;
};

// Quanta of size `quantum` from `boundary` until the first boundary >= `at` (0 when `at` <= boundary).
// Boundaries are the multiples of `quantum` above `boundary`.
std::uint64_t quanta_until(vtime_ns boundary, vtime_ns quantum, vtime_ns at);
// The first multiple of `quantum` above `boundary`.
inline vtime_ns next_boundary(vtime_ns boundary, vtime_ns quantum)
{
    return (boundary / quantum + 1) * quantum;
}

// The boundaries of a lockstep group: while its boot is played, the multiples of the quantum below boot_end
// and boot_end itself (the last workload start); from there boot_end + k x quantum, so that the quanta are
// whole from the workloads' start (a step after the boot is one quantum of the workload).
struct boundary_grid {
    vtime_ns quantum = 100'000;
    vtime_ns boot_end = 0;
    // The first boundary above `b`.
    vtime_ns next(vtime_ns b) const;
    // Quanta from boundary `b` until the first boundary >= at (0 when at <= b).
    std::uint64_t quanta_until(vtime_ns b, vtime_ns at) const;
};

} // namespace pcplab::sim
