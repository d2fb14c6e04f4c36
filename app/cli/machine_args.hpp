// The options every machine-booting subcommand shares (--preset, --era, --patch, --init-threads, --at),
// turned into a booted machine.
#pragma once

#include "args.hpp"

#include "mm/machine.hpp"
#include "sim/machine_config.hpp"

#include <memory>
#include <string>
#include <vector>

namespace pcplab::cli
{

// --preset NAME [--era E] [--patch NAME=on|off]... [--init-threads N] [--at setup|after-init]
std::vector<flag_spec> machine_flags();

struct booted_machine {
    sim::machine_config cfg;
    sim::boot_target at = sim::boot_target::after_init;
    std::unique_ptr<mm::machine> m;
    std::vector<std::string> notes; // for stderr: how the era was mapped
};

// Validates every flag first (cheap), then loads the preset, resolves the configuration and boots.
// Throws cli_error with a message naming the offending flag.
booted_machine boot_from_args(const parsed_args& a);

// The machine options alone (no preset, no boot): shared with commands that pick their own preset.
sim::machine_options machine_options_from_args(const parsed_args& a);

// The preset by name or path, or a cli_error naming --preset and the preset file's problem.
mm::machine_spec load_preset_or_throw(const std::string& name);
// make_machine_config, or a cli_error naming the flag (or preset switch) that cannot be honoured.
sim::machine_config resolve_config_or_throw(const mm::machine_spec& spec, const sim::machine_options& opts);

// "pcplab-cli: note: ..." lines on stderr.
void print_notes(const std::vector<std::string>& notes);

} // namespace pcplab::cli
