// From the window's choices to engine configurations; the switches are set on the engine_config directly so
// that a switch the user flipped live survives a reboot even where it means nothing on the era (the engine
// records why, as it does for a live flip), rather than being refused as a command-line --patch would be.
#include "ui/live/run_setup.hpp"

#include "session/hold_sampling.hpp"
#include "sim/preset.hpp"
#include "sim/seed_reference.hpp"
#include "sim/switch_reach.hpp"

#include <algorithm>

namespace pcplab::ui
{

mm::patch_set effective_switches(
    const mm::patch_set& defaults, const switch_overrides& own, const switch_overrides* on_top)
{
    mm::patch_set ps = defaults;
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) {
        if (own[i]) ps.on[i] = *own[i];
        if (on_top && (*on_top)[i]) ps.on[i] = *(*on_top)[i];
    }
    return ps;
}

mm::patch default_ab_difference(const mm::patch_set& a, const sim::machine_config& machine)
{
    using mm::patch;
    for (patch p : {patch::pcp_update_after_deferred_init, patch::pcp_high_autotune, patch::batched_bulk_free,
             patch::bulk_free_pick_outside_lock})
        if (sim::reach_of_flip(machine.spec, machine.era, a, p, false).when != sim::switch_reach::never) return p;
    return patch::batched_bulk_free;
}

switch_overrides default_b_switches(const mm::patch_set& a, const sim::machine_config& machine)
{
    switch_overrides b;
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) b[i] = a.on[i];
    const mm::patch p = default_ab_difference(a, machine);
    b[static_cast<unsigned>(p)] = !a[p];
    return b;
}

mm::vm_sysctl pagelist_fraction_sysctl(const mm::kernel_version& era)
{
    return era.before(5, 14) ? mm::vm_sysctl::percpu_pagelist_fraction : mm::vm_sysctl::percpu_pagelist_high_fraction;
}

std::vector<std::string> era_choices()
{
    std::vector<mm::kernel_version> versions = mm::modelled_eras();
    for (const auto& seed : sim::seed_references())
        if (auto v = mm::kernel_version::parse(seed.era)) versions.push_back(*v);
    std::sort(versions.begin(), versions.end(), [](const auto& x, const auto& y) { return x.compare(y) < 0; });
    versions.erase(std::unique(versions.begin(), versions.end()), versions.end());
    std::vector<std::string> out;
    for (const auto& v : versions) out.push_back(v.str());
    return out;
}

void keep_for_views(sim::engine_config& ec, bool keep_holds)
{
    ec.keep_events = true; // the event log and the event markers
    ec.keep_holds = keep_holds;
    ec.keep_plain_pcp_holds = session::hold_rule::recording_default().engine_must_keep_plain_pcp_holds();
}

std::variant<resolved_setup, std::string> resolve_setup(const run_setup& s)
{
    auto loaded = sim::load_preset(s.preset);
    if (auto* err = std::get_if<pcplab::error>(&loaded)) return "preset " + s.preset + ": " + err->str();
    sim::machine_options opts;
    if (!s.era.empty()) opts.era = s.era;
    auto cfg = sim::make_machine_config(std::get<mm::machine_spec>(loaded), opts);
    if (auto* err = std::get_if<pcplab::error>(&cfg)) return err->str();

    resolved_setup r;
    r.machine = std::get<sim::machine_config>(std::move(cfg));
    if (!r.machine.era_note.empty()) r.notes.push_back(r.machine.era_note);
    r.notes.insert(r.notes.end(), r.machine.notes.begin(), r.machine.notes.end());

    sim::engine_config ec = sim::engine_config_for(r.machine);
    keep_for_views(ec, s.keep_holds);
    ec.workload = s.workload;
    ec.intensity = s.intensity;
    ec.seed = s.seed;
    ec.continuous = s.continuous;
    if (!sim::make_workload(s.workload)) return "workload '" + s.workload + "' is unknown";
    if (s.pagelist_fraction) {
        if (r.machine.era.before(5, 14))
            ec.spec.sysctl.percpu_pagelist_fraction = *s.pagelist_fraction;
        else
            ec.spec.sysctl.percpu_pagelist_high_fraction = *s.pagelist_fraction;
    }
    if (s.min_free_kbytes) ec.spec.sysctl.min_free_kbytes = *s.min_free_kbytes;
    if (s.watermark_scale_factor) ec.spec.sysctl.watermark_scale_factor = *s.watermark_scale_factor;
    if (s.pcp_batch_scale_max) ec.spec.sysctl.pcp_batch_scale_max = *s.pcp_batch_scale_max;

    // A switch set where it cannot act is not a note here: the switch table greys it and says why.
    ec.patches = effective_switches(r.machine.patches, s.sw_a);
    r.a = ec;
    if (s.ab) {
        ec.patches = effective_switches(r.machine.patches, s.sw_a, &s.sw_b);
        r.b = ec;
    }
    return r;
}

} // namespace pcplab::ui
