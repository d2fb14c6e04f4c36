// A step's setup resolved into an engine configuration, with the same rules as the CLI (make_machine_config)
// and the seed scenarios (scale_machine_memory), so a lesson's machine is one a user can rebuild by hand.
#include "lessons/lesson_setup.hpp"

#include "sim/preset.hpp"
#include "sim/seed_scenarios.hpp"

#include <cstdio>

namespace pcplab::lessons
{

bool workload_finishes(const std::string& name)
{
    return name == "kernbench" || name == "boot";
}

std::string check_sysctl(const std::string& name, long value, const mm::kernel_version& era)
{
    const std::string key = name.rfind("vm.", 0) == 0 ? name.substr(3) : name;
    if (key == "percpu_pagelist_fraction" || key == "percpu_pagelist_high_fraction") {
        const bool high = key == "percpu_pagelist_high_fraction";
        // v5.14 replaced the one with the other (Mel Gorman's "Calculate pcp->high based on zone sizes").
        if (high && era.before(5, 14)) return "vm." + key + " exists from v5.14 on, not on " + era.str();
        if (!high && era.at_least(5, 14)) return "vm." + key + " was removed in v5.14; this machine runs " + era.str();
        if (value != 0 && value < 8) return "vm." + key + " must be 0 or at least 8, not " + std::to_string(value);
        return "";
    }
    if (key == "min_free_kbytes") return value > 0 ? "" : "vm.min_free_kbytes must be more than 0";
    if (key == "watermark_scale_factor")
        return value >= 1 && value <= 3000 ? "" : "vm.watermark_scale_factor must be 1..3000";
    std::string known;
    for (const auto& n : sysctl_names()) known += (known.empty() ? "" : ", ") + n;
    return "unknown sysctl '" + name + "' (" + known + ")";
}

std::variant<engine_setup, std::string> resolve_setup(const step_setup& s)
{
    auto loaded = sim::load_preset(s.preset);
    if (auto* err = std::get_if<sim::preset_error>(&loaded)) return "preset " + s.preset + ": " + err->message;
    mm::machine_spec spec = std::get<mm::machine_spec>(std::move(loaded));
    if (s.node_gib) spec = sim::scale_machine_memory(spec, *s.node_gib);
    for (const auto& [name, value] : s.sysctls) {
        const std::string key = name.rfind("vm.", 0) == 0 ? name.substr(3) : name;
        if (key == "percpu_pagelist_fraction")
            spec.sysctl.percpu_pagelist_fraction = static_cast<int>(value);
        else if (key == "percpu_pagelist_high_fraction")
            spec.sysctl.percpu_pagelist_high_fraction = static_cast<int>(value);
        else if (key == "min_free_kbytes")
            spec.sysctl.min_free_kbytes = value;
        else if (key == "watermark_scale_factor")
            spec.sysctl.watermark_scale_factor = static_cast<int>(value);
    }

    sim::machine_options opts;
    opts.era = s.era;
    for (const auto& [p, on] : s.switches) opts.switches.push_back({p, on});
    opts.init_threads = s.init_threads;
    auto resolved = sim::make_machine_config(spec, opts);
    if (auto* err = std::get_if<sim::config_error>(&resolved)) return err->str();

    engine_setup out;
    out.machine = std::get<sim::machine_config>(std::move(resolved));
    for (const auto& [name, value] : s.sysctls)
        if (auto why = check_sysctl(name, value, out.machine.era); !why.empty()) return why;

    auto probe = sim::make_workload(s.workload);
    if (!probe) {
        std::string known;
        for (const auto& n : sim::workload_names()) known += (known.empty() ? "" : ", ") + n;
        return "unknown workload '" + s.workload + "' (" + known + ")";
    }
    for (const auto& [key, value] : s.params) {
        std::string why = probe->set_param(key, value);
        if (!why.empty()) {
            std::string keys;
            for (const auto& p : probe->params()) keys += (keys.empty() ? "" : ", ") + p.key;
            char v[32];
            std::snprintf(v, sizeof v, "%g", value);
            return "param " + key + "=" + v + ": " + why + " (" + s.workload + " takes: " + keys + ")";
        }
    }

    out.config = sim::engine_config_for(out.machine);
    out.config.workload = s.workload;
    out.config.intensity = s.intensity;
    out.config.seed = s.seed;
    out.config.hold_threshold_ns = s.hold_threshold_ns;
    out.config.keep_events = true; // checks read limits changes, auto-tuning and reclaim events
    out.config.max_events = 200'000;
    out.make_load = [name = s.workload, params = s.params] {
        auto w = sim::make_workload(name);
        for (const auto& [key, value] : params) w->set_param(key, value);
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
