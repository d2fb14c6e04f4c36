#include "session/record_names.hpp"

#include "sim/snapshot.hpp"

namespace pcplab::session
{

namespace
{

// Looks a name up among the values [0, count) of an enumeration through its naming function.
template <typename E, typename Name> std::optional<E> from_name(std::string_view name, unsigned count, Name name_of)
{
    for (unsigned i = 0; i < count; ++i)
        if (name == name_of(static_cast<E>(i))) return static_cast<E>(i);
    return std::nullopt;
}

} // namespace

const char* event_kind_name(sim::event_kind k)
{
    switch (k) {
    case sim::event_kind::limits_change:
        return "limits_change";
    case sim::event_kind::pcp_high_change:
        return "pcp_high_change";
    case sim::event_kind::drain:
        return "drain";
    case sim::event_kind::reclaim_start:
        return "reclaim_start";
    case sim::event_kind::reclaim_stop:
        return "reclaim_stop";
    case sim::event_kind::switch_flip:
        return "switch_flip";
    case sim::event_kind::deferred_init_done:
        return "deferred_init_done";
    case sim::event_kind::note:
        return "note";
    case sim::event_kind::workload_round:
        return "workload_round";
    }
    return "?";
}

std::optional<sim::event_kind> event_kind_from_name(std::string_view name)
{
    return from_name<sim::event_kind>(
        name, static_cast<unsigned>(sim::event_kind::workload_round) + 1, event_kind_name);
}

const char* event_field_name(sim::event_field f)
{
    switch (f) {
    case sim::event_field::none:
        return "none";
    case sim::event_field::batch:
        return "batch";
    case sim::event_field::high:
        return "high";
    case sim::event_field::high_min:
        return "high_min";
    case sim::event_field::high_max:
        return "high_max";
    case sim::event_field::pages:
        return "pages";
    }
    return "?";
}

std::optional<sim::event_field> event_field_from_name(std::string_view name)
{
    return from_name<sim::event_field>(name, static_cast<unsigned>(sim::event_field::pages) + 1, event_field_name);
}

std::optional<sim::command_kind> command_kind_from_name(std::string_view name)
{
    return from_name<sim::command_kind>(
        name, static_cast<unsigned>(sim::command_kind::set_continuous) + 1, sim::command_kind_name);
}

std::optional<sim::run_state> run_state_from_name(std::string_view name)
{
    return from_name<sim::run_state>(name, static_cast<unsigned>(sim::run_state::stopped) + 1, sim::run_state_name);
}

} // namespace pcplab::session
