#include "session/sweep_grid.hpp"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cstdio>
#include <stdexcept>

namespace pcplab::session
{

namespace
{

std::size_t product(const sweep_grid& g)
{
    std::size_t n = g.presets.size() * std::max<std::size_t>(g.eras.size(), 1);
    for (const auto& s : g.switches) n *= s.values.size();
    for (const auto& s : g.sysctls) n *= s.values.size();
    return n;
}

std::string on_off(bool on)
{
    return on ? "on" : "off";
}

} // namespace

std::size_t sweep_grid::configurations() const
{
    return product(*this);
}

std::size_t sweep_grid::points() const
{
    return product(*this) * seeds.size();
}

std::string sweep_point::label(const sweep_grid& g, bool full) const
{
    std::string out;
    auto add = [&](const std::string& part) { out += (out.empty() ? "" : " ") + part; };
    if (full || g.presets.size() > 1) add(preset);
    if (era && (full || g.eras.size() > 1)) add(*era);
    for (std::size_t i = 0; i < switches.size(); ++i)
        if (full || g.switches[i].values.size() > 1) add(switches[i].first + "=" + on_off(switches[i].second));
    for (std::size_t i = 0; i < sysctls.size(); ++i)
        if (full || g.sysctls[i].values.size() > 1) add(sysctls[i].first + "=" + std::to_string(sysctls[i].second));
    if (full) add("seed " + std::to_string(seed));
    return out.empty() ? preset : out;
}

std::vector<sweep_point> expand(const sweep_grid& g)
{
    std::vector<sweep_point> out;
    out.reserve(g.points());
    const std::vector<std::optional<std::string>> eras = g.eras.empty()
        ? std::vector<std::optional<std::string>>{std::nullopt}
        : std::vector<std::optional<std::string>>(g.eras.begin(), g.eras.end());
    // An odometer over the switch and sysctl axes, the last one turning fastest.
    const std::size_t nsw = g.switches.size(), nsy = g.sysctls.size();
    std::vector<std::size_t> digit(nsw + nsy, 0);
    auto radix
        = [&](std::size_t i) { return i < nsw ? g.switches[i].values.size() : g.sysctls[i - nsw].values.size(); };
    for (const auto& preset : g.presets)
        for (const auto& era : eras) {
            std::fill(digit.begin(), digit.end(), 0);
            for (bool more = true; more;) {
                sweep_point base;
                base.preset = preset;
                base.era = era;
                for (std::size_t i = 0; i < nsw; ++i)
                    base.switches.emplace_back(g.switches[i].name, g.switches[i].values[digit[i]]);
                for (std::size_t i = 0; i < nsy; ++i)
                    base.sysctls.emplace_back(g.sysctls[i].name, g.sysctls[i].values[digit[nsw + i]]);
                for (auto seed : g.seeds) {
                    sweep_point p = base;
                    p.seed = seed;
                    p.index = out.size();
                    p.configuration = p.index / g.seeds.size();
                    char id[32];
                    std::snprintf(id, sizeof id, "p%04zu", p.index);
                    p.id = id;
                    out.push_back(std::move(p));
                }
                more = false;
                for (std::size_t i = digit.size(); i-- > 0;) {
                    if (++digit[i] < radix(i)) {
                        more = true;
                        break;
                    }
                    digit[i] = 0;
                }
            }
        }
    return out;
}

std::vector<std::string> run_args(const sweep_grid& g, const sweep_point& p, const std::string& db)
{
    std::vector<std::string> a = {"run", "--preset", p.preset};
    if (p.era) a.insert(a.end(), {"--era", *p.era});
    for (const auto& [name, on] : p.switches) a.insert(a.end(), {"--patch", name + "=" + on_off(on)});
    for (const auto& [name, value] : p.sysctls) a.insert(a.end(), {"--sysctl", name + "=" + std::to_string(value)});
    a.insert(a.end(), {"--seed", std::to_string(p.seed)});
    a.insert(a.end(), g.common_args.begin(), g.common_args.end());
    a.insert(a.end(), {"--json", "--record", db});
    return a;
}

std::string sweep_shard::str() const
{
    return std::to_string(index) + "/" + std::to_string(count);
}

std::optional<sweep_shard> parse_shard(const std::string& text)
{
    const auto slash = text.find('/');
    if (slash == std::string::npos) return std::nullopt;
    sweep_shard s;
    auto num = [](std::string_view t, std::size_t& v) {
        auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
        return ec == std::errc() && end == t.data() + t.size() && !t.empty();
    };
    const std::string_view all(text);
    if (!num(all.substr(0, slash), s.index) || !num(all.substr(slash + 1), s.count)) return std::nullopt;
    if (s.count == 0 || s.index >= s.count) return std::nullopt;
    return s;
}

std::string manifest_json(const sweep_grid& g)
{
    nlohmann::json j;
    j["format"] = "pcplab-sweep";
    j["version"] = 1;
    j["presets"] = g.presets;
    j["eras"] = g.eras;
    j["switches"] = nlohmann::json::array();
    for (const auto& s : g.switches) j["switches"].push_back({{"name", s.name}, {"values", s.values}});
    j["sysctls"] = nlohmann::json::array();
    for (const auto& s : g.sysctls) j["sysctls"].push_back({{"name", s.name}, {"values", s.values}});
    j["seeds"] = g.seeds;
    j["common_args"] = g.common_args;
    j["points"] = nlohmann::json::array();
    for (const auto& p : expand(g)) j["points"].push_back({{"id", p.id}, {"label", p.label(g, true)}});
    return j.dump(1) + "\n";
}

sweep_grid parse_manifest(const std::string& json_text)
{
    try {
        const auto j = nlohmann::json::parse(json_text);
        if (j.value("format", "") != "pcplab-sweep") throw std::invalid_argument("not a pcplab sweep manifest");
        if (j.value("version", 0) != 1)
            throw std::invalid_argument("sweep manifest version " + j.value("version", nlohmann::json()).dump()
                + " is not one this pcplab reads (1)");
        sweep_grid g;
        g.presets = j.at("presets").get<std::vector<std::string>>();
        g.eras = j.at("eras").get<std::vector<std::string>>();
        for (const auto& s : j.at("switches"))
            g.switches.push_back({s.at("name").get<std::string>(), s.at("values").get<std::vector<bool>>()});
        for (const auto& s : j.at("sysctls"))
            g.sysctls.push_back({s.at("name").get<std::string>(), s.at("values").get<std::vector<long>>()});
        g.seeds = j.at("seeds").get<std::vector<std::uint64_t>>();
        g.common_args = j.at("common_args").get<std::vector<std::string>>();
        if (g.presets.empty() || g.seeds.empty())
            throw std::invalid_argument("a sweep manifest without presets or seeds");
        for (const auto& s : g.switches)
            if (s.values.empty()) throw std::invalid_argument("switch " + s.name + " has no values");
        for (const auto& s : g.sysctls)
            if (s.values.empty()) throw std::invalid_argument("sysctl " + s.name + " has no values");
        return g;
    } catch (const nlohmann::json::exception& e) {
        throw std::invalid_argument(std::string("malformed sweep manifest (") + e.what() + ")");
    }
}

} // namespace pcplab::session
