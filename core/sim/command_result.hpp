// What became of an engine command: its kind, where in the run it was applied, and the engine's answer. Every
// snapshot carries the results of its interval (snapshot::commands) and a recording keeps them, so this is
// apart from the commands themselves (engine_command.hpp), which only the threads that drive engines need.
#pragma once

#include "sim/workload.hpp"

#include <cstdint>
#include <string>

namespace pcplab::sim
{

// The kinds of engine command, in the order of engine_command's payloads (command_payload). Their names are
// what recordings store (command_kind_name).
enum class command_kind : std::uint8_t {
    pause,
    resume,
    step_action, // pause, then run one action of the CPU furthest behind
    step_quantum, // pause, then advance by one virtual quantum
    set_speed,
    set_quantum,
    reboot,
    set_patch,
    set_sysctl,
    set_workload,
    set_intensity,
    set_continuous,
};
const char* command_kind_name(command_kind k);

struct command_result {
    std::uint64_t id = 0;
    command_kind kind = command_kind::pause;
    std::string what; // engine_command::describe()
    bool ok = true;
    // Why it was refused, or the engine's note on an accepted command ("late: its time had passed"). For
    // set_patch: why the switch means nothing on the machine's era (engine::set_patch decides it), "" when it acts.
    std::string message;
    vtime_ns applied_at_ns = 0; // the quantum boundary at which it took effect
    std::uint64_t applied_at_event = 0; // engine events processed before it took effect
};

} // namespace pcplab::sim
