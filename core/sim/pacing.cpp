#include "sim/pacing.hpp"

#include <algorithm>
#include <cmath>

namespace pcplab::sim
{

pacing::pacing(double publish_hz)
    : m_interval(std::chrono::duration_cast<clock::duration>(
        std::chrono::duration<double>(1.0 / (publish_hz > 0 ? publish_hz : 30))))
{
}

void pacing::anchor(clock::time_point now, vtime_ns boundary)
{
    m_anchor_wall = now;
    m_anchor_vt = boundary;
    m_behind = false;
}

std::uint64_t pacing::quanta_due(clock::time_point now, vtime_ns boundary, vtime_ns quantum)
{
    if (!paced()) return m_chunk;
    const auto elapsed_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now - m_anchor_wall).count();
    const double due_vt
        = static_cast<double>(m_anchor_vt) + m_speed * static_cast<double>(std::max<std::int64_t>(0, elapsed_ns)) / 1e9;
    const double first = static_cast<double>(next_boundary(boundary, quantum));
    if (due_vt < first) return 0;
    const auto due = static_cast<std::uint64_t>((due_vt - first) / static_cast<double>(quantum)) + 1;
    if (due <= m_chunk) return due;
    // More is due than fits in a tick. Up to one interval of lag is caught up; beyond that the schedule
    // moves, so a slow host shows slow motion instead of bursts.
    const double lag_s = (due_vt - first) / m_speed;
    if (lag_s > std::chrono::duration<double>(m_interval).count()) {
        m_behind = true;
        m_anchor_wall = now;
        m_anchor_vt = boundary + m_chunk * quantum;
    }
    return m_chunk;
}

void pacing::record(std::uint64_t quanta, clock::duration took)
{
    if (quanta == 0) return;
    const double per_quantum = std::chrono::duration<double>(took).count() / static_cast<double>(quanta);
    const double target = std::chrono::duration<double>(m_interval).count() / 2;
    const double fit = per_quantum > 0 ? target / per_quantum : static_cast<double>(max_chunk);
    const std::uint64_t grow_limit = std::min(max_chunk, std::max<std::uint64_t>(m_chunk, quanta) * 2);
    m_chunk = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(fit), 1, grow_limit);
}

pacing::clock::time_point pacing::next_due(vtime_ns boundary, vtime_ns quantum) const
{
    if (!paced()) return clock::now();
    const double vt = static_cast<double>(next_boundary(boundary, quantum)) - static_cast<double>(m_anchor_vt);
    const auto wait = std::chrono::round<clock::duration>(std::chrono::duration<double>(vt / m_speed));
    return m_anchor_wall + wait;
}

vtime_ns boundary_grid::next(vtime_ns b) const
{
    if (b < boot_end) return std::min(next_boundary(b, quantum), boot_end);
    return boot_end + next_boundary(b - boot_end, quantum);
}

std::uint64_t boundary_grid::quanta_until(vtime_ns b, vtime_ns at) const
{
    if (at <= b) return 0;
    if (b >= boot_end) return sim::quanta_until(b - boot_end, quantum, at - boot_end);
    // Up to boot_end the boundaries are the multiples below it and boot_end itself: as many as the multiples up
    // to the first one >= a target at or before boot_end.
    const std::uint64_t to_end = sim::quanta_until(b, quantum, std::min(at, boot_end));
    return at <= boot_end ? to_end : to_end + sim::quanta_until(0, quantum, at - boot_end);
}

std::uint64_t quanta_until(vtime_ns boundary, vtime_ns quantum, vtime_ns at)
{
    if (at <= boundary) return 0;
    const vtime_ns first = next_boundary(boundary, quantum);
    if (at <= first) return 1;
    return 1 + (at - first + quantum - 1) / quantum;
}

} // namespace pcplab::sim
