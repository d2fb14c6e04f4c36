#include "kernel_version.hpp"

#include <charconv>

namespace pcplab::mm
{

namespace
{
bool read_int(std::string_view& s, int& out)
{
    auto res = std::from_chars(s.data(), s.data() + s.size(), out);
    if (res.ec != std::errc() || res.ptr == s.data()) return false;
    s.remove_prefix(static_cast<std::size_t>(res.ptr - s.data()));
    return true;
}
} // namespace

std::optional<kernel_version> kernel_version::parse(std::string_view s)
{
    kernel_version v;
    if (!s.empty() && (s[0] == 'v' || s[0] == 'V')) s.remove_prefix(1);
    if (!read_int(s, v.major) || s.empty() || s[0] != '.') return std::nullopt;
    s.remove_prefix(1);
    if (!read_int(s, v.minor)) return std::nullopt;
    if (!s.empty() && s[0] == '.') {
        s.remove_prefix(1);
        if (!read_int(s, v.patch)) return std::nullopt;
    }
    if (s.rfind("-rc", 0) == 0) {
        s.remove_prefix(3);
        if (!read_int(s, v.rc) || v.rc <= 0) return std::nullopt;
    }
    // A distro suffix ("-arch1", "-generic", "+") is accepted and ignored; anything else is an error.
    if (!s.empty() && s[0] != '-' && s[0] != '+' && s[0] != '_') return std::nullopt;
    if (v.major < 2 || v.major > 9 || v.minor < 0 || v.minor > 99 || v.patch < 0) return std::nullopt;
    return v;
}

std::string kernel_version::str() const
{
    std::string s = "v" + std::to_string(major) + "." + std::to_string(minor);
    if (patch) s += "." + std::to_string(patch);
    if (rc) s += "-rc" + std::to_string(rc);
    return s;
}

const std::vector<kernel_version>& modelled_eras()
{
    // v4.15: 2 GiB or more per node initialised before deferred init (seed 001's base v4.15-rc4, seed 004's
    // 4.15-rc2); v4.17: one section early, Aaron Lu's bulk free; v4.19: batch cap doubled to 1 MiB;
    // v5.4: seeds 000/004; v6.6: high from the low watermark; v6.7: high auto-tuning;
    // v6.13: zoneinfo prints high_min/high_max; v6.18: seed 003's base.
    static const std::vector<kernel_version> eras = {
        {4, 15, 0, 0},
        {4, 17, 0, 0},
        {4, 19, 0, 0},
        {5, 4, 0, 0},
        {6, 6, 0, 0},
        {6, 7, 0, 0},
        {6, 13, 0, 0},
        {6, 18, 0, 0},
    };
    return eras;
}

std::optional<era_choice> choose_era(std::string_view text)
{
    auto v = kernel_version::parse(text);
    if (!v) return std::nullopt;
    era_choice c;
    c.requested = *v;
    // Compare on major.minor only: 5.4.0-rc3 belongs to the v5.4 era (its switches may differ, see patch_switches).
    kernel_version mm{v->major, v->minor, 0, 0};
    const auto& eras = modelled_eras();
    c.era = eras.front();
    for (const auto& e : eras)
        if (mm.compare(e) >= 0) c.era = e;
    if (mm.compare(eras.front()) < 0)
        c.note = v->str() + " is older than every modelled era; modelled as " + c.era.str();
    else if (!(c.era == *v))
        c.note = v->str() + " modelled as era " + c.era.str();
    return c;
}

kernel_version formulas_of(const kernel_version& requested, const kernel_version& era)
{
    const kernel_version lowest = modelled_eras().front();
    if (kernel_version{requested.major, requested.minor, 0, 0}.compare(lowest) < 0 && era == lowest) return requested;
    return {};
}

} // namespace pcplab::mm
