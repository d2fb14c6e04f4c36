#include "session/hold_sampling.hpp"

#include <charconv>
#include <cmath>

namespace pcplab::session
{

namespace
{

std::string duration_text(sim::vtime_ns ns)
{
    if (ns % 1'000'000'000 == 0) return std::to_string(ns / 1'000'000'000) + "s";
    if (ns % 1'000'000 == 0) return std::to_string(ns / 1'000'000) + "ms";
    if (ns % 1'000 == 0) return std::to_string(ns / 1'000) + "us";
    return std::to_string(ns) + "ns";
}

std::optional<sim::vtime_ns> parse_duration(std::string_view t)
{
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || end == t.data()) return std::nullopt;
    std::string_view unit(end, static_cast<std::size_t>(t.data() + t.size() - end));
    std::uint64_t scale = 0;
    if (unit == "ns")
        scale = 1;
    else if (unit == "us")
        scale = 1'000;
    else if (unit == "ms")
        scale = 1'000'000;
    else if (unit == "s")
        scale = 1'000'000'000;
    else
        return std::nullopt;
    if (v > UINT64_MAX / scale) return std::nullopt;
    return v * scale;
}

} // namespace

std::string hold_rule::text() const
{
    switch (m) {
    case mode::all:
        return "all";
    case mode::none:
        return "none";
    case mode::zone:
        return "zone";
    case mode::sampled:
        break;
    }
    std::string s = "1/" + std::to_string(every);
    if (over_ns) s += "+over:" + duration_text(over_ns);
    return s;
}

std::optional<hold_rule> hold_rule::parse(std::string_view text)
{
    hold_rule r;
    if (text == "all") return r;
    if (text == "none") {
        r.m = mode::none;
        return r;
    }
    if (text == "zone") {
        r.m = mode::zone;
        return r;
    }
    if (text.substr(0, 2) != "1/") return std::nullopt;
    text.remove_prefix(2);
    auto plus = text.find('+');
    std::string_view n = text.substr(0, plus);
    auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), r.every);
    if (ec != std::errc() || end != n.data() + n.size() || r.every == 0) return std::nullopt;
    r.m = r.every == 1 ? mode::all : mode::sampled;
    if (plus != std::string_view::npos) {
        std::string_view rest = text.substr(plus + 1);
        if (rest.substr(0, 5) != "over:") return std::nullopt;
        auto d = parse_duration(rest.substr(5));
        if (!d || *d == 0) return std::nullopt;
        r.over_ns = *d;
        if (r.every == 1) r.over_ns = 0; // every hold is kept anyway
    }
    return r;
}

hold_rule hold_rule::recording_default()
{
    // Every hold a view draws or a contention question needs, without the uncontended local pcp->lock holds
    // that outnumber them a thousand to one from v6.0 (a recording of every hold is 445 MB a virtual second on
    // intel-2s-224 and slows the engine by 9-13% there; `all` is still there for whoever wants them).
    hold_rule r;
    r.m = mode::zone;
    return r;
}

} // namespace pcplab::session
