// pcplab-cli: the headless front end. Dispatches to a subcommand; usage errors exit 2 with one line on stderr.
#include "args.hpp"
#include "commands.hpp"
#include "sim/host_malloc.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

using namespace pcplab::cli;

namespace
{

struct command {
    const char* name;
    int (*run)(const std::vector<std::string>&);
};

constexpr command k_commands[] = {
    {"presets", cmd_presets},
    {"zoneinfo", cmd_zoneinfo},
    {"buddyinfo", cmd_buddyinfo},
    {"pagesets", cmd_pagesets},
    {"check-zoneinfo", cmd_check_zoneinfo},
    {"preset-from-zoneinfo", cmd_preset_from_zoneinfo},
    {"demo", cmd_demo},
    {"costs", cmd_costs},
    {"run", cmd_run},
    {"patches", cmd_patches},
    {"lessons", cmd_lessons},
    {"compare", cmd_compare},
    {"export", cmd_export},
    {"sweep", cmd_sweep},
};

// Old names that still work: `seeds` was the command's name while it ran only the five seed patches.
std::string canonical_name(const std::string& name)
{
    return name == "seeds" ? "patches" : name;
}

// Help of a command: help.cpp's text, or the one kept with the command.
std::optional<std::string> help_for(const std::string& given)
{
    const std::string name = canonical_name(given);
    if (name == "costs") return costs_help();
    if (name == "preset-from-zoneinfo") return preset_from_zoneinfo_help();
    if (name == "run") return run_help();
    if (name == "patches") return patches_help();
    if (name == "lessons") return lessons_help();
    if (name == "compare") return compare_help();
    if (name == "export") return export_help();
    if (name == "sweep") return sweep_help();
    return command_help(name);
}

// The general help, then every command's under a "pcplab-cli NAME:" heading, indented: help2man makes the man page
// of it (a heading becomes a subsection; the indent keeps each command's Usage line out of the synopsis).
std::string all_help()
{
    std::string out = general_help();
    for (const auto& c : k_commands) {
        out += "\npcplab-cli " + std::string(c.name) + ":\n";
        const std::string text = *help_for(c.name);
        std::size_t start = 0;
        while (start < text.size()) {
            const std::size_t end = std::min(text.find('\n', start), text.size());
            if (end > start) out += "  ";
            out.append(text, start, end - start).append("\n");
            start = end + 1;
        }
    }
    return out;
}

bool is_help_flag(const std::string& a)
{
    return a == "--help" || a == "-h";
}

int run(const std::vector<std::string>& argv)
{
    if (argv.empty()) {
        write_stdout(general_help());
        return 0;
    }
    const std::string name = canonical_name(argv.front());
    std::vector<std::string> rest(argv.begin() + 1, argv.end());

    if (is_help_flag(name)) {
        write_stdout(general_help());
        return 0;
    }
    if (name == "--version" || name == "-V") {
        write_stdout(version_text());
        return 0;
    }
    if (name == "help") {
        if (rest.empty()) {
            write_stdout(general_help());
            return 0;
        }
        if (rest.front() == "--all") {
            write_stdout(all_help());
            return 0;
        }
        auto text = help_for(rest.front());
        if (!text) throw cli_error("help: unknown command '" + rest.front() + "'");
        write_stdout(*text);
        return 0;
    }
    for (const auto& c : k_commands) {
        if (name != c.name) continue;
        for (const auto& a : rest)
            if (is_help_flag(a)) {
                write_stdout(*help_for(name));
                return 0;
            }
        return c.run(rest);
    }
    if (name.rfind("-", 0) == 0) throw cli_error(name + ": unknown option (see pcplab-cli --help)");
    throw cli_error(name + ": unknown command (see pcplab-cli --help)");
}

} // namespace

int main(int argc, char** argv)
{
    pcplab::sim::keep_freed_memory_for_reuse();
    std::vector<std::string> args(argv + 1, argv + argc);
    try {
        const int status = run(args);
        check_stdout(); // what a command printed with printf (demo) is only written now
        return status;
    } catch (const cli_error& e) {
        std::fprintf(stderr, "pcplab-cli: %s\n", e.what());
        return e.exit_status;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pcplab-cli: internal error: %s\n", e.what());
        return 3;
    }
}
