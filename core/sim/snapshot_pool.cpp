#include "sim/snapshot_pool.hpp"

#include <algorithm>
#include <atomic>
#include <utility>

namespace pcplab::sim
{

std::shared_ptr<snapshot> snapshot_pool::take()
{
    const std::size_t look = std::min(LOOK_AHEAD, m_kept.size());
    for (std::size_t i = 0; i < look; ++i) {
        if (m_kept[i].use_count() != 1) continue;
        // The last reader dropped its reference with a release decrement; this fence orders its reads of the
        // snapshot before the writes that refill it.
        std::atomic_thread_fence(std::memory_order_acquire);
        std::shared_ptr<snapshot> s = std::move(m_kept[i]);
        m_kept.erase(m_kept.begin() + static_cast<std::ptrdiff_t>(i));
        clear_keeping_capacity(*s);
        m_kept.push_back(s);
        return s;
    }
    auto s = std::make_shared<snapshot>();
    m_kept.push_back(s);
    if (m_kept.size() > MAX_KEPT) m_kept.pop_front();
    return s;
}

namespace
{

// Moves the vector out, empties it and moves it back after the snapshot's reset.
template <class T> struct kept_vector {
    std::vector<T>& field;
    std::vector<T> memory;
    explicit kept_vector(std::vector<T>& f)
        : field(f)
        , memory(std::move(f))
    {
        memory.clear();
    }
    void restore() { field = std::move(memory); }
};

} // namespace

void clear_keeping_capacity(snapshot& s)
{
    kept_vector cpu_node(s.cpu_node);
    kept_vector zones(s.zones);
    kept_vector pcp(s.pcp);
    kept_vector cpus(s.cpus);
    kept_vector events(s.events);
    kept_vector holds(s.holds);
    kept_vector commands(s.commands);
    kept_vector deferred_init(s.deferred_init);
    s = snapshot{};
    cpu_node.restore();
    zones.restore();
    pcp.restore();
    cpus.restore();
    events.restore();
    holds.restore();
    commands.restore();
    deferred_init.restore();
}

} // namespace pcplab::sim
