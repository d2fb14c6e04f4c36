// The five seed patches as switches: names, defaults per kernel version, and where a switch means nothing.
#pragma once

#include "kernel_version.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace pcplab::mm
{

enum class patch : unsigned {
    pcp_update_after_deferred_init = 0, // seed 000, Mel Gorman 2019 (v5.4)
    bulk_free_pick_outside_lock = 1, // seed 001, Aaron Lu 2018 (v4.17; superseded in v5.18)
    pcp_high_autotune = 2, // seed 002, Huang Ying 2023 (v6.7)
    batched_bulk_free = 3, // seed 003, Joshua Hahn 2025 (v6.19)
    parallel_deferred_init = 4, // seed 004, Daniel Jordan 2018 RFC / padata v5.8
};
inline constexpr unsigned NR_PATCHES = 5;

std::string_view patch_name(patch p); // "pcp-update-after-deferred-init", ...
std::string_view patch_summary(patch p); // one line: what it changes
std::optional<patch> patch_from_name(std::string_view); // accepts the names above

struct patch_set {
    std::array<bool, NR_PATCHES> on{};
    // Deferred-init threads per node when parallel_deferred_init is on; 0 = the era's choice
    // (v5.8+ padata: all CPUs of the node; earlier, the RFC: a quarter of them, rounded up).
    int init_threads = 0;

    bool operator[](patch p) const { return on[static_cast<unsigned>(p)]; }
    void set(patch p, bool v) { on[static_cast<unsigned>(p)] = v; }
    bool operator==(const patch_set&) const = default;
};

// The switches a kernel of this version has (e.g. 5.4.0-rc3 lacks 000, 5.4 has it).
patch_set default_patches(const kernel_version& v);

// Empty when the switch setting means something on this era; otherwise why it does not.
std::string patch_not_applicable(patch p, bool on, const kernel_version& era);

// Deferred-init threads per node for this many node CPUs, given the switches and era.
int deferred_init_threads(const patch_set& ps, const kernel_version& era, int node_cpus);

} // namespace pcplab::mm
