// pcplab-cli zoneinfo / buddyinfo / pagesets: boot a preset and show its state.
#include "commands.hpp"
#include "machine_args.hpp"

#include "procfs/zoneinfo_print.hpp"
#include "sim/pageset_summary.hpp"

namespace pcplab::cli
{

int cmd_zoneinfo(const std::vector<std::string>& args)
{
    booted_machine b = boot_from_args(parse_args("zoneinfo", args, machine_flags(), 0));
    std::string out = procfs::zoneinfo_text(*b.m);
    print_notes(b.notes);
    write_stdout(out);
    return 0;
}

int cmd_buddyinfo(const std::vector<std::string>& args)
{
    booted_machine b = boot_from_args(parse_args("buddyinfo", args, machine_flags(), 0));
    std::string out = procfs::buddyinfo_text(*b.m);
    print_notes(b.notes);
    write_stdout(out);
    return 0;
}

int cmd_pagesets(const std::vector<std::string>& args)
{
    auto flags = machine_flags();
    flags.push_back({"--json", false, false});
    parsed_args a = parse_args("pagesets", args, flags, 0);
    booted_machine b = boot_from_args(a);
    sim::pageset_summary s = sim::summarize_pagesets(*b.m);
    std::string out = a.has("--json") ? sim::pageset_summary_json(s) : sim::pageset_summary_text(s);
    print_notes(b.notes);
    write_stdout(out);
    return 0;
}

} // namespace pcplab::cli
