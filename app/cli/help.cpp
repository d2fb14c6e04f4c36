#include "args.hpp"
#include "commands.hpp"

#include "mm/patch_switches.hpp"
#include "program/version.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace pcplab::cli
{

namespace
{

const char* const k_machine_options
    = R"(  --preset NAME            the machine (see `pcplab-cli presets`), or a path to a preset .json
  --era VERSION            run as this kernel version (v5.4, 6.8, 5.4.0-rc3); default: the preset's
  --patch NAME=on|off      turn a seed patch's switch on or off (repeatable); default: what the
                           requested version has, then the preset's settings
  --init-threads N         deferred-init threads per node (N >= 1; more than 1 needs
                           parallel-deferred-init on)
  --at setup|after-init    boot stage to show: right after setup_per_cpu_pageset (before deferred
                           init), or the whole boot (default)
)";

std::string switch_list()
{
    std::string s = "Switches:\n";
    for (const auto& d : mm::patch_table())
        s += "  " + std::string(d.name) + "  (" + std::string(d.origin) + "; kernels " + d.kernels.str() + ")\n      "
            + std::string(d.summary) + "\n";
    return s;
}

} // namespace

std::string version_text()
{
    return "pcplab-cli " + pcplab::program::version_line() + "\n";
}

std::string general_help()
{
    return "pcplab-cli - the Linux page allocator's per-CPU page lists, simulated\n"
           "\n"
           "Usage: pcplab-cli COMMAND [OPTIONS]\n"
           "\n"
           "Commands:\n"
           "  presets          list the machine presets\n"
           "  zoneinfo         /proc/zoneinfo of a simulated machine\n"
           "  buddyinfo        /proc/buddyinfo of a simulated machine\n"
           "  pagesets         how many pagesets have each batch/high value (Mel Gorman's breakdown)\n"
           "  check-zoneinfo   compare a real /proc/zoneinfo with the kernel's batch/high formulas\n"
           "  preset-from-zoneinfo  a preset that boots to a real /proc/zoneinfo's zones and limits\n"
           "  demo             seed 000 on the classroom preset: limits before and after deferred init\n"
           "  run              run a workload on a preset in virtual time: lock, PCP and zone figures\n"
           "  patches          each patch's scenario (the five seeds, later patches), switch off and on, beside\n"
           "                   its published numbers (`seeds` is the same command)\n"
           "  lessons          check or list the lesson files: every step's setup, run and check, headless\n"
           "  compare          recordings side by side in mmtests compare-kernels style\n"
           "  export           a recording as CSV, figures (png/svg/pdf), a Perfetto trace, /proc texts\n"
           "  sweep            a grid of runs (presets, eras, switches, sysctls, seeds) on every core, one table\n"
           "  costs            the cost model in force for a preset: every value with what it prices and its source\n"
           "  help [COMMAND]   this text, or a command's options\n"
           "  help --all       this text and every command's options (the man page, pcplab-cli(1))\n"
           "\n"
           "  --help, --version\n"
           "\n"
           "Exit status: 0 success, 1 check-zoneinfo found mismatches, 2 a usage or input error.\n";
}

std::optional<std::string> command_help(std::string_view command)
{
    if (command == "presets")
        return std::string("Usage: pcplab-cli presets\n\n"
                           "Lists every preset: name, CPUs, NUMA nodes, memory, default era and a description.\n");
    if (command == "zoneinfo" || command == "buddyinfo")
        return "Usage: pcplab-cli " + std::string(command)
            + " --preset NAME [OPTIONS]\n\n"
              "Boots the preset and prints its /proc/"
            + std::string(command) + " in the era's layout.\n\n" + k_machine_options + "\n" + switch_list();
    if (command == "pagesets")
        return std::string("Usage: pcplab-cli pagesets --preset NAME [OPTIONS] [--json]\n\n"
                           "Counts every possible CPU x populated zone pageset by its batch and high values\n"
                           "(and high_min/high_max with pcp-high-autotune), in the layout of Mel Gorman's\n"
                           "seed-000 mail.\n\n")
            + k_machine_options + "  --json                   {\"batch\": {VALUE: COUNT, ...}, \"high\": {...}}\n\n"
            + switch_list();
    if (command == "check-zoneinfo")
        return std::string(
            "Usage: pcplab-cli check-zoneinfo FILE [--era VERSION] [--cpus-per-node N,N,...] [--page-size KIB]\n"
            "                                 [--explain]\n\n"
            "Reads a real /proc/zoneinfo of any kernel from v2.6.13 on (indented, with CRLF, several dumps, or one\n"
            "zone pasted from a mail), dates it by its layout, then tries every family of pageset formulas that\n"
            "window allows at every page size and keeps the one that explains the most pagesets. Prints the\n"
            "window, the family and why, and per zone which pagesets match, which a known behaviour explains\n"
            "(seed 000's early sizing, high_max computed before memory joined the zone) and which differ.\n\n"
            "  --era VERSION            the kernel that wrote the file; default: the layout and the numbers\n"
            "  --cpus-per-node N,...    CPUs of each node; default: inferred from the file\n"
            "  --page-size KIB          4, 16 or 64; default: inferred from the numbers\n"
            "  --explain                each zone's batch, high and watermarks derived with the file's numbers\n\n"
            "Exit status: 0 every pageset matched or explained, 1 mismatches, 2 unreadable file.\n");
    if (command == "demo")
        return std::string("Usage: pcplab-cli demo [--preset NAME]\n\n"
                           "Boots the classroom preset (or NAME) twice, with pcp-update-after-deferred-init off and\n"
                           "on, showing deferred init, the pageset breakdown before and after, and buddyinfo.\n");
    if (command == "help") return std::string("Usage: pcplab-cli help [COMMAND]\n");
    return std::nullopt;
}

void write_stdout(const std::string& text)
{
    std::fwrite(text.data(), 1, text.size(), stdout);
    check_stdout();
}

void check_stdout()
{
    // fflush reports what the buffered writes before it met (a full disk, a closed file); errno is still theirs.
    if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return;
    const int err = errno;
    std::clearerr(stdout);
    throw cli_error(std::string("standard output: cannot be written (") + (err ? std::strerror(err) : "write error")
        + "); the output is incomplete");
}

} // namespace pcplab::cli
