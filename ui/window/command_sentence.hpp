// An engine command's result as the status bar says it: a sentence with human units ("The pause asked for at
// 2.000 s virtual reached the machine after ..."), not the log line the engine keeps ("pause at 2000000000 ns").
#pragma once

#include "sim/command_result.hpp"

#include <QString>

#include <cstdint>

namespace pcplab::ui
{

// Virtual time as the status bar shows it: "2.000 s", "316.40 ms".
QString virtual_time_text(std::uint64_t ns);

// A refused command, or an accepted one with the engine's note, in one sentence; `ab`: it names the machine
// a command was sent to (a single machine is the A of its commands, which would only puzzle).
QString command_sentence(const sim::command_result& r, bool ab);

} // namespace pcplab::ui
