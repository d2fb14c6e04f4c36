// The small values of the lesson format: trimmed text, "a | b" lists, numbers and virtual durations.
#include "lessons/step_block.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace pcplab::lessons
{

std::string trim(const std::string& s)
{
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

std::vector<std::string> split(const std::string& s, char sep)
{
    std::vector<std::string> out;
    std::size_t at = 0;
    for (;;) {
        std::size_t next = s.find(sep, at);
        out.push_back(trim(s.substr(at, next == std::string::npos ? std::string::npos : next - at)));
        if (next == std::string::npos) return out;
        at = next + 1;
    }
}

std::optional<double> parse_number(const std::string& text)
{
    if (text.empty()) return std::nullopt;
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::optional<sim::vtime_ns> parse_duration(const std::string& text)
{
    static const std::pair<const char*, double> units[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
    for (const auto& [unit, scale] : units) {
        const std::string u = unit;
        if (text.size() <= u.size() || text.compare(text.size() - u.size(), u.size(), u) != 0) continue;
        auto n = parse_number(trim(text.substr(0, text.size() - u.size())));
        if (!n || *n <= 0 || *n * scale > 1e15) return std::nullopt;
        return static_cast<sim::vtime_ns>(std::llround(*n * scale));
    }
    return std::nullopt;
}

} // namespace pcplab::lessons
