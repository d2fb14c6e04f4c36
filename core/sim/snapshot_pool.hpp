// The snapshots one source published lately, to be filled again once their readers have let go of them.
//
// Building every snapshot into fresh memory was over a third of a recording's sampling time on the engine's
// thread, and the reader (a recorder's writer, on its own thread) freeing that memory made the allocator take
// its slow path on both threads. So a source keeps references to what it published and fills the oldest one
// again, cleared and with its vectors' capacity kept, as soon as it is the only owner left (use_count 1): no
// reader can reach that object any more, and none can gain a reference to it.
#pragma once

#include "sim/snapshot.hpp"

#include <cstddef>
#include <deque>
#include <memory>

namespace pcplab::sim
{

class snapshot_pool
{
public:
    // Snapshots kept at most; beyond this the oldest is left to its readers. Enough for what a recorder's writer
    // holds between two looks at its queue.
    static constexpr std::size_t MAX_KEPT = 64;
    // Kept snapshots looked at per take(), oldest first: readers let go in publishing order, except one that keeps
    // a snapshot for long (a view's latest frame), which this steps past.
    static constexpr std::size_t LOOK_AHEAD = 4;

    // A snapshot with every field at its default (vectors empty, their capacity kept when it is reused). The source
    // publishes it; the pool keeps a reference. Called by the source's thread only.
    std::shared_ptr<snapshot> take();

    std::size_t kept() const { return m_kept.size(); }

private:
    std::deque<std::shared_ptr<snapshot>> m_kept; // publishing order
};

// Resets every field of `s` to its default while keeping the memory of its vectors.
void clear_keeping_capacity(snapshot& s);

} // namespace pcplab::sim
