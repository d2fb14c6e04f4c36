// The patch switches: one table (patch_switches.cpp, k_patch_table) declares each one: its name, what it
// changes, the kernel versions that have it, where it means nothing, its lesson and its `pcplab-cli patches`
// scenario. The mechanism lives beside the kernel function it changes, which reads machine::patches.
//
// Adding a switch: a value in `enum patch` (before NR_PATCHES' count), its entry in k_patch_table, and the
// code in core/mm that reads it. The window, the CLI, recordings and lessons find it through the table.
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
    free_high_batch_plus_high_min = 5, // Nikhil Dhama 2025 (v6.16)
    remote_drain_under_pcp_lock = 6, // Nicolas Saenz Julienne / Mel Gorman 2022 (v6.0)
    rmqueue_bulk_fallback_mode = 7, // Johannes Weiner 2025 (v6.15)
    alloc_pages_nolock = 8, // Alexei Starovoitov 2025 (v6.15)
    pcp_buddy = 9, // Johannes Weiner 2026 RFC, not merged
    pcp_lock_irqs_enabled = 10, // Mel Gorman 2022 (v6.2)
};
inline constexpr unsigned NR_PATCHES = 11;

// The kernel versions that have a switch's change: [since, until); `merged` false for a proposal that no
// kernel has (its default is off everywhere).
struct patch_era_range {
    bool merged = true;
    kernel_version since{};
    std::optional<kernel_version> until; // the first version without it again (superseded or removed)

    bool contains(const kernel_version& v) const
    {
        return merged && v.compare(since) >= 0 && (!until || v.compare(*until) < 0);
    }
    std::string str() const; // "v5.4 .. v5.14", "v6.16+", "not merged"
};

// One switch, as the table declares it.
struct patch_decl {
    patch id;
    std::string_view name; // the name at the edges: --patch, lesson files, recordings
    std::string_view summary; // one line: what it changes
    std::string_view origin; // who and when: "Mel Gorman, 2019"
    patch_era_range kernels; // which kernel versions have it (the era default)
    // Empty when setting the switch to `on` means something on this modelled era; otherwise why it does not.
    std::string (*not_applicable)(bool on, const kernel_version& era);
    std::string_view lesson; // the lesson file's stem in lessons/ ("03-seed-000-..."); empty: none yet
    std::string_view scenario; // its `pcplab-cli patches` scenario id ("000")
};

// Every switch, in enum order.
const std::array<patch_decl, NR_PATCHES>& patch_table();
const patch_decl& patch_info(patch p);

std::string_view patch_name(patch p); // "pcp-update-after-deferred-init", ...
std::string_view patch_summary(patch p); // one line: what it changes
std::optional<patch> patch_from_name(std::string_view); // accepts the names above
std::string patch_names_list(); // "a, b, c": every name, for messages

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
