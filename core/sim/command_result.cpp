#include "sim/command_result.hpp"

namespace pcplab::sim
{

const char* command_kind_name(command_kind k)
{
    switch (k) {
    case command_kind::pause:
        return "pause";
    case command_kind::resume:
        return "resume";
    case command_kind::step_action:
        return "step";
    case command_kind::step_quantum:
        return "step_quantum";
    case command_kind::set_speed:
        return "speed";
    case command_kind::set_quantum:
        return "quantum";
    case command_kind::reboot:
        return "reboot";
    case command_kind::set_patch:
        return "set_patch";
    case command_kind::set_sysctl:
        return "set_sysctl";
    case command_kind::set_workload:
        return "set_workload";
    case command_kind::set_intensity:
        return "set_intensity";
    case command_kind::set_continuous:
        return "set_continuous";
    }
    return "?";
}

} // namespace pcplab::sim
