// The engine's event log and lock-hold log: what a reader (the snapshot builder, a recorder) takes and then
// releases. Owned by engine::impl; the engine's files append to it.
//
// Invariants: events_released() + events().size() is the number of the next event (events are numbered from
// the boot on, and a reader asks by number); the same for holds. A pcp->high change is folded into the last
// event of its CPU, zone and cause while they fall in the same second of the run, so release_events keeps
// every event of a second that is not over yet for every CPU.
#pragma once

#include "sim/engine.hpp"
#include "sim/per_zone_slot.hpp"

#include "base/per_cpu.hpp"

#include <cstdint>
#include <vector>

namespace pcplab::sim
{

// The whole second of the run that `t` falls in, counted from the workload's start.
inline vtime_ns run_second(vtime_ns t, vtime_ns workload_start_ns)
{
    return (t > workload_start_ns ? t - workload_start_ns : 0) / NS_PER_SEC;
}

class event_log
{
public:
    // `cfg` (the engine's, which outlives the log) says what is kept and how much.
    explicit event_log(const engine_config& cfg)
        : m_cfg(cfg)
    {
    }

    // Empty, numbering from 0, for a machine of `nr_cpus` CPUs and `nr_nodes` nodes.
    void reset(int nr_cpus, std::size_t nr_nodes);

    // Appends `e` when events are kept. False only when it was dropped for want of room (max_events).
    bool push(sim_event e);
    // Appends a hold record (its caller has decided to keep it), or counts it in holds_dropped().
    void push_hold(const lock_hold_record& r);
    // CPU `cpu`'s auto-tuned high in `z` moved at `t` for `cause` (high_cause): folded into that CPU's last
    // event of this zone and cause when it is of the same second of the run, else a new event. Returns what
    // push returned.
    bool note_high_change(int cpu, const mm::zone& z, vtime_ns t, vtime_ns workload_start_ns, int old_high,
        int new_high, std::uint8_t cause, const char* cause_text);
    // The boot's events in the order of their instants.
    void sort_by_time();

    // Drops events up to number `upto`, except a pcp->high change of `now`'s second or later and what follows
    // it (it may still be folded into).
    void release_events(std::uint64_t upto, vtime_ns now, vtime_ns workload_start_ns);
    void release_holds(std::uint64_t upto);
    // Moves every held hold record to `out` (cleared first) and releases them.
    void take_holds(std::vector<lock_hold_record>& out);

    const std::vector<sim_event>& events() const { return m_events; }
    const std::vector<lock_hold_record>& holds() const { return m_holds; }
    std::uint64_t events_released() const { return m_events_base; }
    std::uint64_t holds_released() const { return m_holds_base; }
    std::uint64_t holds_dropped() const { return m_holds_dropped; }

private:
    // The last pcp_high_change event of one CPU in one zone slot, and its cause.
    struct last_high {
        std::int64_t number = -1;
        std::uint8_t cause = 0;
    };

    const engine_config& m_cfg;
    std::vector<sim_event> m_events; // from m_events_base on
    std::vector<lock_hold_record> m_holds; // from m_holds_base on
    std::uint64_t m_events_base = 0, m_holds_base = 0, m_holds_dropped = 0;
    unsigned m_events_sparse_releases = 0, m_holds_sparse_releases = 0; // see drop_front
    per_cpu<per_zone_slot<last_high>> m_last_high;
};

} // namespace pcplab::sim
