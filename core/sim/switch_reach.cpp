// Where each switch acts, from the rules that own it.
#include "sim/switch_reach.hpp"

#include <algorithm>

namespace pcplab::sim
{

namespace
{
// Deferred-init threads of every node with parallel-deferred-init set to `on`.
std::vector<int> init_threads(const mm::machine_spec& spec, const mm::kernel_version& era, mm::patch_set ps, bool on)
{
    ps.set(mm::patch::parallel_deferred_init, on);
    std::vector<int> out;
    for (const auto& n : spec.nodes) out.push_back(mm::deferred_init_threads(ps, era, static_cast<int>(n.cpus.size())));
    return out;
}
} // namespace

flip_reach reach_of_flip(
    const mm::machine_spec& spec, const mm::kernel_version& era, const mm::patch_set& now, mm::patch p, bool booted)
{
    if (std::string why = mm::patch_not_applicable(p, !now[p], era); !why.empty()) return {switch_reach::never, why};
    return reach_on_machine(spec, era, now, p, booted);
}

flip_reach reach_on_machine(
    const mm::machine_spec& spec, const mm::kernel_version& era, const mm::patch_set& now, mm::patch p, bool booted)
{
    const bool to = !now[p];
    switch (p) {
    case mm::patch::parallel_deferred_init: {
        const auto off = init_threads(spec, era, now, false);
        const auto on = init_threads(spec, era, now, true);
        if (off == on) {
            const int most = off.empty() ? 1 : *std::max_element(off.begin(), off.end());
            return {switch_reach::never,
                "parallel-deferred-init: with " + std::to_string(spec.nodes.empty() ? 0 : spec.nodes[0].cpus.size())
                    + " CPUs per node, era " + era.str() + " starts " + std::to_string(most)
                    + " init thread(s) per node with the switch on, as many as without it: try a machine with more "
                      "CPUs per node"};
        }
        // Deferred init runs once, at boot (deferred_init_memmap).
        return {switch_reach::next_boot, "parallel-deferred-init acts during deferred init: reboot to see it"};
    }
    case mm::patch::pcp_update_after_deferred_init:
        // On, the engine recalculates the limits at once (zone_pcp_update); off, the limits already recalculated
        // at the end of deferred init stay until a boot computes them again.
        if (booted && !to)
            return {switch_reach::next_boot,
                "pcp-update-after-deferred-init off: the limits recalculated at the end of deferred init stay; "
                "reboot to see the boot without the fix"};
        return {};
    default: // the allocator reads the others on its next call
        return {};
    }
    return {};
}

} // namespace pcplab::sim
