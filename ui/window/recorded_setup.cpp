// A recording's run headers as a run_setup and its resolution, for the controls dock.
#include "ui/window/recorded_setup.hpp"

#include "session/recording_reader.hpp"

namespace pcplab::ui
{

namespace
{

switch_overrides recorded_switches(const session::run_record& r)
{
    switch_overrides out{};
    for (const auto& [name, on] : r.switches)
        if (auto p = mm::patch_from_name(name)) out[static_cast<unsigned>(*p)] = on;
    return out;
}

} // namespace

recorded_setup setup_of_recording(const session::run_record& a, const session::run_record* b)
{
    recorded_setup out;
    run_setup& s = out.setup;
    s.preset = a.preset;
    s.era = a.requested_era.empty() ? a.era : a.requested_era;
    // Every switch as recorded: the origins then say which of them differ from the preset on its era.
    s.sw_a = recorded_switches(a);
    s.ab = b != nullptr;
    if (b) s.sw_b = recorded_switches(*b);
    s.workload = a.workload;
    s.intensity = a.intensity;
    s.seed = a.seed;
    if (auto r = resolve_setup(s); auto* ok = std::get_if<resolved_setup>(&r)) {
        out.resolved = std::move(*ok);
        return out;
    }
    // A preset this build does not have (or no longer accepts): what the header says, nothing resolved.
    resolved_setup& r = out.resolved;
    const auto era = mm::kernel_version::parse(a.era);
    r.machine.spec.era = a.era;
    if (era) r.machine.era = r.machine.requested = r.a.era = *era;
    r.machine.patches = r.a.patches = effective_switches(mm::patch_set{}, s.sw_a);
    if (b) {
        r.b = r.a;
        r.b->patches = effective_switches(mm::patch_set{}, s.sw_b);
    }
    return out;
}

} // namespace pcplab::ui
