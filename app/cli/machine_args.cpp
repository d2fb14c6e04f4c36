#include "machine_args.hpp"

#include "sim/preset.hpp"

#include <cstdio>
#include <exception>
#include <variant>

namespace pcplab::cli
{

std::vector<flag_spec> machine_flags()
{
    return {
        {"--preset", true, false},
        {"--era", true, false},
        {"--patch", true, true},
        {"--init-threads", true, false},
        {"--at", true, false},
    };
}

sim::machine_options machine_options_from_args(const parsed_args& a)
{
    sim::machine_options opts;
    opts.era = a.get("--era");
    for (const auto& text : a.all("--patch")) {
        auto s = sim::parse_switch_setting(text);
        if (auto* msg = std::get_if<pcplab::error>(&s)) throw cli_error("--patch " + text + ": " + msg->message);
        const auto& setting = std::get<sim::switch_setting>(s);
        for (const auto& earlier : opts.switches)
            if (earlier.p == setting.p)
                throw cli_error("--patch " + std::string(mm::patch_name(setting.p)) + ": given twice ("
                    + (earlier.on ? "on" : "off") + ", then " + (setting.on ? "on" : "off")
                    + "); give each switch once");
        opts.switches.push_back(setting);
    }
    if (auto n = a.get("--init-threads")) opts.init_threads = parse_int("--init-threads", *n, 1);
    return opts;
}

mm::machine_spec load_preset_or_throw(const std::string& name)
{
    auto loaded = sim::load_preset(name);
    if (auto* err = std::get_if<pcplab::error>(&loaded)) throw cli_error("--preset " + name + ": " + err->str());
    return std::get<mm::machine_spec>(loaded);
}

sim::machine_config resolve_config_or_throw(const mm::machine_spec& spec, const sim::machine_options& opts)
{
    auto cfg = sim::make_machine_config(spec, opts);
    if (auto* err = std::get_if<pcplab::error>(&cfg)) throw cli_error(err->str());
    return std::get<sim::machine_config>(std::move(cfg));
}

booted_machine boot_from_args(const parsed_args& a)
{
    booted_machine b;
    if (auto at = a.get("--at")) {
        auto t = sim::parse_boot_target(*at);
        if (!t) throw cli_error("--at: '" + *at + "' is not a boot stage (use setup or after-init)");
        b.at = *t;
    }
    sim::machine_options opts = machine_options_from_args(a);

    auto preset_name = a.get("--preset");
    if (!preset_name) {
        std::string names;
        for (const auto& n : sim::list_presets()) names += (names.empty() ? "" : ", ") + n;
        throw cli_error("--preset: required (one of: " + (names.empty() ? std::string("none found") : names) + ")");
    }
    b.cfg = resolve_config_or_throw(load_preset_or_throw(*preset_name), opts);
    if (!b.cfg.era_note.empty()) b.notes.push_back(b.cfg.era_note);
    b.notes.insert(b.notes.end(), b.cfg.notes.begin(), b.cfg.notes.end());

    try {
        b.m = sim::build_machine(b.cfg);
        sim::boot_to(*b.m, b.at);
    } catch (const std::exception& e) {
        throw cli_error("--preset " + *preset_name + ": cannot build the machine: " + e.what());
    }
    return b;
}

void print_notes(const std::vector<std::string>& notes)
{
    for (const auto& n : notes) std::fprintf(stderr, "pcplab-cli: note: %s\n", n.c_str());
}

} // namespace pcplab::cli
