#include "args.hpp"

#include <charconv>

namespace pcplab::cli
{

std::optional<std::string> parsed_args::get(const std::string& flag) const
{
    auto it = values.find(flag);
    if (it == values.end() || it->second.empty()) return std::nullopt;
    return it->second.back();
}

std::vector<std::string> parsed_args::all(const std::string& flag) const
{
    auto it = values.find(flag);
    return it == values.end() ? std::vector<std::string>{} : it->second;
}

parsed_args parse_args(const std::string& command, const std::vector<std::string>& args,
    const std::vector<flag_spec>& flags, std::size_t max_positional)
{
    parsed_args out;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.size() < 2 || a[0] != '-') {
            if (out.positional.size() >= max_positional) throw cli_error(command + ": unexpected argument '" + a + "'");
            out.positional.push_back(a);
            continue;
        }
        std::string name = a;
        std::optional<std::string> inline_value;
        if (auto eq = a.find('='); eq != std::string::npos && a.rfind("--", 0) == 0) {
            name = a.substr(0, eq);
            inline_value = a.substr(eq + 1);
        }
        const flag_spec* spec = nullptr;
        for (const auto& f : flags)
            if (f.name == name) spec = &f;
        if (!spec) throw cli_error(name + ": unknown flag for '" + command + "' (see pcplab-cli help " + command + ")");
        if (!spec->repeatable && out.has(name)) throw cli_error(name + ": given more than once");
        if (!spec->takes_value) {
            if (inline_value) throw cli_error(name + ": takes no value");
            out.values[name].emplace_back();
            continue;
        }
        if (inline_value) {
            if (inline_value->empty()) throw cli_error(name + ": missing value");
            out.values[name].push_back(*inline_value);
            continue;
        }
        // A following flag is not a value: "--era --json" means the value was forgotten.
        if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0) throw cli_error(name + ": missing value");
        out.values[name].push_back(args[++i]);
    }
    return out;
}

namespace
{

template <typename T> T parse_whole(const std::string& flag, std::string_view text)
{
    T v = 0;
    auto res = std::from_chars(text.data(), text.data() + text.size(), v);
    if (res.ec == std::errc::result_out_of_range) throw cli_error(flag + ": '" + std::string(text) + "' is too large");
    if (res.ec != std::errc() || res.ptr != text.data() + text.size() || text.empty())
        throw cli_error(flag + ": '" + std::string(text) + "' is not a whole number");
    return v;
}

} // namespace

int parse_int(const std::string& flag, std::string_view text, int min_value)
{
    const int v = parse_whole<int>(flag, text);
    if (v < min_value)
        throw cli_error(flag + ": must be at least " + std::to_string(min_value) + ", not " + std::string(text));
    return v;
}

long parse_long(const std::string& flag, std::string_view text)
{
    return parse_whole<long>(flag, text);
}

std::vector<int> parse_int_list(const std::string& flag, std::string_view text, int min_value)
{
    std::vector<int> out;
    std::size_t start = 0;
    for (;;) {
        auto comma = text.find(',', start);
        std::string_view item = text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
        if (item.empty()) throw cli_error(flag + ": empty item in '" + std::string(text) + "'");
        out.push_back(parse_int(flag, item, min_value));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return out;
}

} // namespace pcplab::cli
