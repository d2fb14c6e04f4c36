// The snapshot blob of a recording (table `snapshots`, column `data`): every field of sim::snapshot except the
// three per-interval logs (events, lock holds, commands) and the /proc texts, which live in their own tables so
// that the sqlite3 shell can query them (and a text shared by consecutive snapshots is stored once); the reader
// joins them back. Versioned: the blob starts with SNAPSHOT_ENCODING.
#pragma once

#include "sim/snapshot.hpp"

#include <string>
#include <string_view>

namespace pcplab::session
{

// See docs/recording-schema.md, "Snapshot blob". 2 adds the zone locks' waits_over_threshold; 3 the boot on
// the time axis (snapshot::boot and each node's done_at_ns, at the end of the blob); 4 the remote-drain counters;
// 5 the any-context counters (alloc-pages-nolock); 6 the interrupt-context counters (pcp-lock-irqs-enabled).
// This pcplab reads 1 to 6: a version-1 blob's
// waits_over_threshold reads as 0 (it was not counted then); a blob before 3 has all boot instants 0 (its time 0
// was the workload's start); counters a blob lacks read as 0.
inline constexpr unsigned SNAPSHOT_ENCODING = 6;

// The blob of `s` without s.events, s.holds and s.commands (their counters and flags are kept) and without the
// /proc texts of s.procfs (whether there are some is kept).
std::string encode_snapshot(const sim::snapshot& s);
// Throws codec_error (byte_codec.hpp) for a blob that is truncated, corrupt or of an unknown encoding. /proc
// texts the snapshot had come back as empty texts for the reader to fill in.
sim::snapshot decode_snapshot(std::string_view blob);

} // namespace pcplab::session
