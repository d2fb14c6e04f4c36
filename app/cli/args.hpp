// A small command-line parser: --flag VALUE, --flag=VALUE, switches and positional arguments, with
// one-line errors that name the flag and the problem.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pcplab::cli
{

// A usage error: printed as "pcplab-cli: MESSAGE" on stderr, exit status 2, nothing on stdout.
struct cli_error : std::runtime_error {
    explicit cli_error(const std::string& message, int status = 2)
        : std::runtime_error(message)
        , exit_status(status)
    {
    }
    int exit_status;
};

struct flag_spec {
    std::string name; // "--era"
    bool takes_value = true; // false: a switch like --json
    bool repeatable = false; // --patch may be given several times
};

struct parsed_args {
    std::map<std::string, std::vector<std::string>> values; // flag -> values in order ("" for switches)
    std::vector<std::string> positional;

    bool has(const std::string& flag) const { return values.count(flag) != 0; }
    std::optional<std::string> get(const std::string& flag) const;
    std::vector<std::string> all(const std::string& flag) const;
};

// Parses `args` (what follows the subcommand) for `command`. Throws cli_error on an unknown flag, a missing
// value, a flag given twice that is not repeatable, or more positional arguments than `max_positional`.
parsed_args parse_args(const std::string& command, const std::vector<std::string>& args,
    const std::vector<flag_spec>& flags, std::size_t max_positional);

// "--init-threads: 'x' is not a whole number" style conversions; `flag` names the flag in the message.
int parse_int(const std::string& flag, std::string_view text, int min_value);
long parse_long(const std::string& flag, std::string_view text); // any sign
std::vector<int> parse_int_list(const std::string& flag, std::string_view text, int min_value);

} // namespace pcplab::cli
