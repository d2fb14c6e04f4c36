// Text exports of a recording (figures are drawn by ui/session, which needs Qt): CSV of the time series, a
// Chrome/Perfetto JSON trace, /proc/zoneinfo and /proc/buddyinfo in mmtests' monitor framing, and a
// /proc/lock_stat-style summary of the zone locks. Each throws recording_error when the file is damaged or
// lacks what the export needs (a run, recorded /proc texts).
#pragma once

#include "session/recording_reader.hpp"

#include <cstdint>
#include <string>

namespace pcplab::session
{

// One row per snapshot of every run: run, t_ns, then the series. With `series` set, only that series (one
// column per zone for a zone series); empty = every series (zone ones as "NAME[Node N ZONE]").
std::string export_csv(const recording& rec, const std::string& series);

// Chrome JSON trace (loads in ui.perfetto.dev and chrome://tracing) of one run: a process per node, a thread
// per CPU with its zone->lock waits and holds, a track per zone lock with every recorded hold as a complete
// event, counters per zone (count, high, batch), instant events for switch flips, limit changes and the other
// engine events.
std::string export_trace(const recording& rec, std::int64_t run);

// The recorded /proc/zoneinfo or /proc/buddyinfo texts of a run, each preceded by "time: <epoch>" as mmtests'
// watch-proc-zoneinfo / watch-proc-buddyinfo monitors write them (epoch = recording start + virtual time).
std::string export_procfs(const recording& rec, std::int64_t run, const std::string& file);

// /proc/lock_stat layout (lock_stat version 0.4) for the zone locks at the end of a run, times in us.
std::string export_lockstat(const recording& rec, std::int64_t run);

// The run a command means: `wanted` when given (refused when absent), else the first run with snapshots.
std::int64_t pick_run(const recording& rec, std::int64_t wanted = 0);

} // namespace pcplab::session
