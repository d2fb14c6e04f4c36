// /proc/zoneinfo and /proc/buddyinfo rebuilt from a snapshot's zone fields, in the kernel's layout, for
// snapshots that do not carry the engine's own texts (snapshot::procfs is null when the option is off,
// while booting, and in recordings without them). Per-node and vmstat counters, which a snapshot does not
// carry, are left out; the /proc view says so.
#pragma once

#include "sim/snapshot.hpp"

#include <string>

namespace pcplab::ui
{

// Reconstructions from the snapshot's zone fields, for snapshots without the engine's texts.
std::string zoneinfo_from_snapshot(const sim::snapshot& s);
std::string buddyinfo_from_snapshot(const sim::snapshot& s);

} // namespace pcplab::ui
