// The names a recording stores for enumerations (so that its tables read well in the sqlite3 shell), and the
// way back from a name to the value when a replay rebuilds a snapshot.
#pragma once

#include "sim/command_result.hpp"
#include "sim/metrics.hpp"
#include "sim/snapshot.hpp"

#include <optional>
#include <string_view>

namespace pcplab::session
{

const char* event_kind_name(sim::event_kind k); // "limits_change", "switch_flip" ...
std::optional<sim::event_kind> event_kind_from_name(std::string_view name);
const char* event_field_name(sim::event_field f); // "none", "batch", "high" ...
std::optional<sim::event_field> event_field_from_name(std::string_view name);
std::optional<sim::command_kind> command_kind_from_name(std::string_view name); // sim::command_kind_name's inverse
std::optional<sim::run_state> run_state_from_name(std::string_view name); // sim::run_state_name's inverse

} // namespace pcplab::session
