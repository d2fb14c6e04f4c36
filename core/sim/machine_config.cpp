#include "machine_config.hpp"

#include "mm/pcp_limits.hpp"
#include "mm/watermarks.hpp"

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace pcplab::sim
{

result<switch_setting> parse_switch_setting(std::string_view text)
{
    auto eq = text.find('=');
    if (eq == std::string_view::npos)
        return pcplab::error("expected NAME=on or NAME=off, got '" + std::string(text) + "'");
    std::string_view name = text.substr(0, eq), value = text.substr(eq + 1);
    auto p = mm::patch_from_name(name);
    if (!p) return pcplab::error("unknown switch '" + std::string(name) + "' (known: " + mm::patch_names_list() + ")");
    if (value != "on" && value != "off")
        return pcplab::error(std::string(name) + ": value must be on or off, not '" + std::string(value) + "'");
    return switch_setting{*p, value == "on"};
}

const char* switch_origin_name(switch_origin o)
{
    switch (o) {
    case switch_origin::era_default:
        return "era default";
    case switch_origin::preset:
        return "preset";
    case switch_origin::user:
        return "user";
    }
    return "?";
}

namespace
{
std::string setting_text(mm::patch p, bool on)
{
    return std::string(mm::patch_name(p)) + (on ? "=on" : "=off");
}
} // namespace

config_result make_machine_config(const mm::machine_spec& spec, const machine_options& opts)
{
    machine_config cfg;
    cfg.spec = spec;
    const std::string preset_source = "preset " + (spec.name.empty() ? spec.source_file : spec.name);

    // The era: the user's version, else the preset's.
    const std::string& era_text = opts.era ? *opts.era : spec.era;
    auto choice = mm::choose_era(era_text);
    if (!choice) {
        if (opts.era)
            return pcplab::error::in("--era", "'" + era_text + "' is not a kernel version (try v5.4, 6.7, 5.4.0-rc3)");
        return pcplab::error::in(preset_source, "era '" + era_text + "' is not a kernel version");
    }
    cfg.requested = choice->requested;
    cfg.era = choice->era;
    cfg.era_note = choice->note;
    if (auto f = mm::formulas_of(cfg.requested, cfg.era); f.major)
        cfg.era_note += " (its pageset and watermark formulas are " + f.str() + "'s)";

    // The switches a kernel of the *requested* version has (5.4.0-rc3 still lacks seed 000's fix) ...
    cfg.patches = mm::default_patches(cfg.requested);
    cfg.origin.fill(switch_origin::era_default);
    // ... then the preset's bundle, then the command line, each checked against the modelled era.
    for (const auto& [name, on] : spec.patches) {
        auto p = mm::patch_from_name(name);
        if (!p) return pcplab::error::in(preset_source, "unknown switch '" + name + "'");
        if (auto why = mm::patch_not_applicable(*p, on, cfg.era); !why.empty()) {
            if (!opts.era) return pcplab::error::in(preset_source, "sets " + setting_text(*p, on) + ", but " + why);
            cfg.notes.push_back(
                preset_source + "'s " + setting_text(*p, on) + " is left out on era " + cfg.era.str() + ": " + why);
            continue;
        }
        cfg.patches.set(*p, on);
        cfg.origin[static_cast<unsigned>(*p)] = switch_origin::preset;
    }
    for (const auto& s : opts.switches) {
        if (auto why = mm::patch_not_applicable(s.p, s.on, cfg.era); !why.empty())
            return pcplab::error::in("--patch " + setting_text(s.p, s.on), why);
        cfg.patches.set(s.p, s.on);
        cfg.origin[static_cast<unsigned>(s.p)] = switch_origin::user;
    }

    // Init threads only mean something with parallel deferred init; asking for several without it is a
    // contradiction the user should hear about rather than a silent single thread.
    cfg.patches.init_threads = spec.init_threads;
    if (opts.init_threads) {
        int n = *opts.init_threads;
        if (n < 1) return pcplab::error::in("--init-threads", "must be at least 1, not " + std::to_string(n));
        if (n > 1 && !cfg.patches[mm::patch::parallel_deferred_init])
            return pcplab::error::in("--init-threads",
                std::to_string(n) + " threads need parallel-deferred-init, which is off on " + cfg.requested.str()
                    + " (add --patch parallel-deferred-init=on)");
        cfg.patches.init_threads = n;
    }
    return cfg;
}

std::unique_ptr<mm::machine> build_machine(
    const mm::machine_spec& spec, const mm::kernel_era& era, const mm::patch_set& patches)
{
    auto m = std::make_unique<mm::machine>(spec, era, patches);
    // PCPLAB_VERIFY=1: the debug option that runs verify() after every allocator operation.
    const char* v = std::getenv("PCPLAB_VERIFY");
    m->verify_every_op = v && *v && std::string_view(v) != "0";
    return m;
}

std::unique_ptr<mm::machine> build_machine(const machine_config& cfg)
{
    return build_machine(cfg.spec, mm::kernel_era{cfg.era, mm::formulas_of(cfg.requested, cfg.era)}, cfg.patches);
}

workload_env planned_workload_env(const machine_config& cfg, double intensity, const std::vector<int>& cpus)
{
    workload_env env;
    env.nr_cpus = cfg.spec.nr_cpus();
    env.cpu_node.assign(static_cast<std::size_t>(env.nr_cpus), 0);
    for (std::size_t nid = 0; nid < cfg.spec.nodes.size(); ++nid) {
        const mm::node_spec& n = cfg.spec.nodes[nid];
        for (int c : n.cpus)
            if (c >= 0 && c < env.nr_cpus) env.cpu_node[static_cast<std::size_t>(c)] = static_cast<int>(nid);
        for (const auto& r : n.memory) env.total_pages += r.pages();
        for (const auto& r : n.reserved) env.total_pages -= std::min<unsigned long>(r.pages(), env.total_pages);
    }
    env.cpus = cpus;
    env.intensity = intensity;
    return env;
}

engine_config engine_config_for(const machine_config& cfg)
{
    engine_config ec;
    ec.spec = cfg.spec;
    ec.era = cfg.era;
    ec.formulas = mm::formulas_of(cfg.requested, cfg.era);
    ec.patches = cfg.patches;
    ec.keep_events = false;
    return ec;
}

std::optional<boot_target> parse_boot_target(std::string_view text)
{
    if (text == "setup") return boot_target::setup;
    if (text == "after-init") return boot_target::after_init;
    return std::nullopt;
}

const char* boot_target_name(boot_target t)
{
    return t == boot_target::setup ? "setup" : "after-init";
}

void watch_deferred_init(const mm::machine& m, const mm::deferred_init& di, const boot_observer* obs)
{
    if (!obs || !obs->on_progress) return;
    // Poll until every node reports all its frames; the stall guard (no progress for 100 polls) can only cut
    // the progress display short, never the init.
    unsigned long last_sum = 0;
    for (int stalled = 0; stalled < 100;) {
        bool done = true;
        unsigned long sum = 0;
        for (int nid = 0; nid < m.nr_online_nodes(); ++nid) {
            sum += di.progress(nid);
            if (di.progress(nid) < di.total(nid)) done = false;
        }
        obs->on_progress(m, di);
        if (done) break;
        stalled = sum == last_sum ? stalled + 1 : 0;
        last_sum = sum;
        std::this_thread::sleep_for(obs->interval);
    }
}

std::optional<mm::deferred_init_report> boot_to(mm::machine& m, boot_target t, const boot_observer* obs)
{
    if (t == boot_target::after_init && m.stage == mm::boot_stage::created && !(obs && obs->on_progress))
        return mm::boot(m);

    // mm::boot's three steps, with the init threads polled while they run. Nothing here depends on the
    // polling, so the result equals mm::boot's.
    mm::boot_early(m);
    if (t == boot_target::setup || m.stage == mm::boot_stage::booted) return std::nullopt;

    mm::deferred_init di(m);
    di.start();
    watch_deferred_init(m, di, obs);
    mm::deferred_init_report report = di.finish();
    mm::boot_late(m);
    return report;
}

} // namespace pcplab::sim
