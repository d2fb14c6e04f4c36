#include "sim/snapshot.hpp"

namespace pcplab::sim
{

const char* run_state_name(run_state s)
{
    switch (s) {
    case run_state::booting:
        return "booting";
    case run_state::running:
        return "running";
    case run_state::paused:
        return "paused";
    case run_state::finished:
        return "finished";
    case run_state::failed:
        return "failed";
    case run_state::stopped:
        return "stopped";
    }
    return "?";
}

int snapshot::zone_index(int node, int zone) const
{
    for (std::size_t i = 0; i < zones.size(); ++i)
        if (zones[i].node == node && zones[i].zone == zone) return static_cast<int>(i);
    return -1;
}

std::uint64_t snapshot::sys_ns_total() const
{
    std::uint64_t t = 0;
    for (const auto& c : cpus) t += c.sys_ns;
    return t;
}

std::uint64_t snapshot::user_ns_total() const
{
    std::uint64_t t = 0;
    for (const auto& c : cpus) t += c.user_ns;
    return t;
}

} // namespace pcplab::sim
