// Lock holds in a recording of schema 2: the holds one snapshot kept, as one JSON array of arrays in one row
// of lock_hold_chunks. One insert per snapshot instead of one row per hold takes most of the writer thread's
// work per hold away (the cost that recording every hold of a 256-CPU machine put on the engine), and the
// view lock_holds expands the arrays with json_each, so sqlite3 queries still see one row per hold.
// Each hold is [start, hold_ns, wait_ns, cpu, node, zone, kind, caller, pages, owner], the columns of the view
// in that order (kind and caller as the numbers of lock_kinds and lock_callers), where start is the hold's
// start_ns less the chunk's base_ns (the first hold's start_ns): a few digits where start_ns has up to 13.
#pragma once

#include "sim/metrics.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pcplab::session
{

// Builds one chunk's text; reused from snapshot to snapshot (clear() keeps the buffer). The digits are written
// straight into the buffer: this runs for every hold of a recording, millions a second.
class hold_chunk_builder
{
public:
    void clear();
    void add(const sim::lock_hold_record& h);
    std::size_t size() const { return m_count; }
    sim::vtime_ns base_ns() const { return m_base; } // the first hold's start (0 without holds)
    // The JSON array of every hold added since clear(); valid until the next add() or clear().
    std::string_view text();

private:
    std::string m_buf = std::string("[").append(255, '\0'); // m_len bytes used; grown by doubling, never shrunk
    std::size_t m_len = 1; // m_buf starts with '['
    std::size_t m_count = 0;
    sim::vtime_ns m_base = 0;
};

// Parses a chunk's text back into holds, in order; throws codec_error naming what is wrong (not an array,
// a hold without ten integers, a value out of its field's range, an unknown kind or caller).
std::vector<sim::lock_hold_record> decode_hold_chunk(std::string_view text, sim::vtime_ns base_ns);

} // namespace pcplab::session
