// A kernel version ("v5.4", "5.4.0-rc3", "4.19") and the modelled eras it maps to.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pcplab::mm
{

struct kernel_version {
    int major = 0;
    int minor = 0;
    int patch = 0;
    int rc = 0; // 0 = a release; rcN sorts before the release

    // Accepts "v5.4", "5.4", "5.4.0", "5.4.0-rc3", "v6.7-rc1", "6.18.2-arch1"; nullopt when unparsable.
    static std::optional<kernel_version> parse(std::string_view text);
    std::string str() const; // "v5.4", "v5.4-rc3", "v5.4.214"

    // Ordering: rc releases sort before the final release of the same major.minor.patch.
    int compare(const kernel_version& o) const
    {
        if (major != o.major) return major < o.major ? -1 : 1;
        if (minor != o.minor) return minor < o.minor ? -1 : 1;
        if (patch != o.patch) return patch < o.patch ? -1 : 1;
        int a = rc == 0 ? 1000 : rc, b = o.rc == 0 ? 1000 : o.rc; // a release sorts after its rcs
        return a == b ? 0 : (a < b ? -1 : 1);
    }
    bool at_least(int maj, int min) const { return compare({maj, min, 0, 0}) >= 0; }
    bool before(int maj, int min) const { return !at_least(maj, min); }
    friend bool operator==(const kernel_version& a, const kernel_version& b) { return a.compare(b) == 0; }
};

// The modelled eras: the versions whose behaviour pcplab implements. Any other version runs as the
// newest modelled era that is not newer than it (the lowest one for older kernels).
const std::vector<kernel_version>& modelled_eras();

struct era_choice {
    kernel_version requested;
    kernel_version era; // one of modelled_eras()
    std::string note; // non-empty when requested != era: how it was mapped
};
std::optional<era_choice> choose_era(std::string_view text);

// The version whose pure formulas (pageset limits, watermarks) a machine of version `requested`, modelled as
// `era`, follows: `requested` when it is older than every modelled era (it then runs as the lowest one but
// sizes its pagesets and watermarks as it did itself), else {} (the era's own formulas).
kernel_version formulas_of(const kernel_version& requested, const kernel_version& era);

} // namespace pcplab::mm
