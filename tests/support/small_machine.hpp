// Hand-made machine specs for tests that must not depend on the shipped presets.
#pragma once

#include "mm/machine_spec.hpp"

namespace pcplab::test
{

// An x86-64-shaped machine: node 0 has the PC holes (below 640 KiB, 3-4 GiB PCI hole); every node has
// `gib_per_node` GiB and `cpus_per_node` CPUs; a few MiB reserved at 16 MiB (kernel image).
inline mm::machine_spec small_spec(int nodes, int cpus_per_node, unsigned long gib_per_node)
{
    using mm::pfn_t;
    mm::machine_spec s;
    s.name = "test-" + std::to_string(nodes) + "n" + std::to_string(cpus_per_node) + "c";
    s.description = "test machine";
    const pfn_t gib = 1U << 18;
    pfn_t next = 0;
    int cpu = 0;
    for (int n = 0; n < nodes; ++n) {
        mm::node_spec ns;
        ns.socket = n;
        for (int i = 0; i < cpus_per_node; ++i) ns.cpus.push_back(cpu++);
        unsigned long want = gib_per_node * gib;
        if (n == 0) {
            ns.memory.push_back({1, 0x9f});
            pfn_t low_end = static_cast<pfn_t>(std::min<unsigned long>(0x100 + want, 3UL * gib));
            ns.memory.push_back({0x100, low_end});
            unsigned long have = (0x9f - 1) + (low_end - 0x100);
            next = 4 * gib;
            if (have < want) {
                ns.memory.push_back({next, static_cast<pfn_t>(next + (want - have))});
                next += static_cast<pfn_t>(want - have);
            }
            ns.reserved.push_back({0x1000, 0x1000 + 2048}); // 8 MiB kernel image at 16 MiB
        } else {
            next = (next + 32767U) & ~32767U; // nodes start on a section boundary
            ns.memory.push_back({next, static_cast<pfn_t>(next + want)});
            ns.reserved.push_back({next, next + 256}); // node-local memmap / percpu areas
            next += static_cast<pfn_t>(want);
        }
        s.nodes.push_back(ns);
    }
    s.sockets = nodes;
    return s;
}

} // namespace pcplab::test
