// A step's setup resolved into an engine configuration, with the same rules as the CLI (make_machine_config)
// and the seed scenarios (scale_machine_memory), so a lesson's machine is one a user can rebuild by hand.
#include "lessons/lesson_setup.hpp"

#include "sim/boot_sysctl.hpp"
#include "sim/preset.hpp"
#include "sim/seed_scenarios.hpp"

#include <cstdio>

namespace pcplab::lessons
{

bool workload_finishes(const std::string& name)
{
    return name == "kernbench" || name == "boot";
}

result<engine_setup> resolve_setup(const step_setup& s)
{
    auto loaded = sim::load_preset(s.preset);
    if (auto* err = std::get_if<pcplab::error>(&loaded))
        return pcplab::error("preset " + s.preset + ": " + err->message);
    mm::machine_spec spec = std::get<mm::machine_spec>(std::move(loaded));
    if (s.node_gib) {
        // Scaling only ever shrinks a node: asking for more than the largest one has would change nothing.
        if (const double largest = sim::largest_node_gib(spec); *s.node_gib > largest) {
            char why[160];
            std::snprintf(why, sizeof why,
                "node_gib %g: more than the preset's largest node (%.1f GiB); node_gib scales a machine down",
                *s.node_gib, largest);
            return pcplab::error(why);
        }
        spec = sim::scale_machine_memory(spec, *s.node_gib);
    }
    for (const auto& [name, value] : s.sysctls)
        if (auto why = sim::set_boot_sysctl(spec, name, value); !why) return why.error();

    sim::machine_options opts;
    opts.era = s.era;
    for (const auto& [p, on] : s.switches) opts.switches.push_back({p, on});
    opts.init_threads = s.init_threads;
    auto resolved = sim::make_machine_config(spec, opts);
    if (auto* err = std::get_if<pcplab::error>(&resolved)) return pcplab::error(err->str());

    engine_setup out;
    out.machine = std::get<sim::machine_config>(std::move(resolved));
    for (const auto& [name, value] : s.sysctls)
        if (auto why = sim::check_sysctl(name, value, out.machine.era); !why) return why.error();

    auto probe = sim::make_workload(s.workload);
    if (!probe) {
        std::string known;
        for (const auto& n : sim::workload_names()) known += (known.empty() ? "" : ", ") + n;
        return pcplab::error("unknown workload '" + s.workload + "' (" + known + ")");
    }
    for (const auto& [key, value] : s.params) {
        // The workload's message names the parameter and, for an unknown one, every key it takes.
        if (const status set = probe->set_param(key, value); !set) {
            char v[32];
            std::snprintf(v, sizeof v, "%g", value);
            return pcplab::error("param " + key + "=" + v + ": " + set.message());
        }
    }

    if (auto fits = probe->settings_problem(sim::planned_workload_env(out.machine, s.intensity, {})); !fits)
        return pcplab::error(s.workload + ": " + fits.message());

    out.config = sim::engine_config_for(out.machine);
    out.config.workload = s.workload;
    out.config.intensity = s.intensity;
    out.config.seed = s.seed;
    out.config.hold_threshold_ns = s.hold_threshold_ns;
    out.config.forced_drain_hz = s.drain_hz;
    out.config.keep_events = true; // checks read limits changes, auto-tuning and reclaim events
    out.config.max_events = 200'000;
    out.make_load = [name = s.workload, params = s.params] {
        auto w = sim::make_workload(name);
        for (const auto& [key, value] : params) static_cast<void>(w->set_param(key, value)); // each was checked above
        return w;
    };
    out.speed_vns_per_s = s.speed * 1e9;
    return out;
}

bool snapshot_matches(const engine_setup& s, const sim::snapshot& snap, bool with_switches)
{
    const auto& c = s.config;
    if (snap.preset != c.spec.name || !(snap.era == c.era) || snap.workload != c.workload || snap.seed != c.seed)
        return false;
    if (snap.nr_cpus != 0 && snap.nr_cpus != c.spec.nr_cpus()) return false;
    return !with_switches || snap.patches.on == c.patches.on;
}

} // namespace pcplab::lessons
