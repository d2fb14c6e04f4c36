// The x86-64 machine a preset describes, turned into what the kernel would see: memblock ranges per node
// (with the PC holes), memblock reservations, and Linux's logical CPU numbering across sockets.
#pragma once

#include "mm/kernel_version.hpp"
#include "mm/machine_spec.hpp"

#include <optional>
#include <vector>

namespace pcplab::sim
{

// The PC memory map below 4 GiB (e820 on every x86 server): RAM in [1, 0x9f) frames (frame 0 and the
// 640 KiB-1 MiB legacy VGA/ROM window are lost), then RAM up to the 3 GiB PCI hole, whose RAM the
// firmware remaps above 4 GiB.
inline constexpr mm::pfn_t LOW_RAM_END_PFN = 0x9f; // 636 KiB
inline constexpr mm::pfn_t ISA_END_PFN = 0x100; // 1 MiB
inline constexpr mm::pfn_t PCI_HOLE_START_PFN = 0xC0000; // 3 GiB
inline constexpr mm::pfn_t PCI_HOLE_END_PFN = 0x100000; // 4 GiB
inline constexpr mm::pfn_t KERNEL_START_PFN = 0x1000; // CONFIG_PHYSICAL_START = 16 MiB
inline constexpr unsigned long KERNEL_RESERVED_PAGES = 9216; // 36 MiB: image, bss, early page tables
// sizeof(struct page) on x86-64: the memmap costs 64 bytes per 4 KiB frame, 1/64 of the memory.
inline constexpr unsigned long STRUCT_PAGE_BYTES = 64;

struct node_memory_request {
    unsigned long pages = 0; // RAM behind this node (DIMM capacity), in frames
    std::optional<unsigned long> reserved_pages; // reserved at the top of the node; nullopt = the memmap
};

// Lay the nodes out one after another from physical address 0: node 0 owns the low memory with the holes;
// each further node starts at the next memory-section (128 MiB) boundary. Fills memory and reserved of
// `nodes` (which must have one entry per request). Reservations:
//  - node 0, below 1 MiB: v5.13+ reserves all of it ("x86/setup: always reserve the first 1M of RAM");
//    older kernels the first 64 KiB (reserve_low) and 6 frames of real-mode trampoline under 640 KiB,
//    which gives the DMA zone's familiar "present 3998, managed 3977";
//  - node 0: the kernel image at 16 MiB (KERNEL_RESERVED_PAGES);
//  - every node: `reserved_pages` (default: its memmap) at the top, where memblock allocates top-down.
// Returns the end pfn of the last node (the first frame above all memory), 64-bit so overflow shows.
std::uint64_t layout_x86_memory(
    std::vector<mm::node_spec>& nodes, const std::vector<node_memory_request>& req, const mm::kernel_version& era);

// A zone a preset gives outright (a machine read from a /proc/zoneinfo): its type and sizes.
struct zone_request {
    mm::zone_type type = mm::ZONE_NORMAL;
    bool highmem = false; // HighMem, kept in the ZONE_MOVABLE slot (see mm::zone_extent)
    unsigned long present = 0;
    unsigned long managed = 0;
};

// Lay out nodes whose zones are given outright: each node starts on a memory section, its zones follow one
// another in zone order without holes, and each zone's present - managed pages are reserved at its top (so
// deferred init's early section stays whole). Fills memory, reserved and zones of `nodes`; returns the end pfn.
std::uint64_t layout_zones(std::vector<mm::node_spec>& nodes, const std::vector<std::vector<zone_request>>& zones,
    unsigned long section_pages);

// The frames a node's memmap takes: present pages * 64 bytes, rounded up to whole frames.
unsigned long default_reserved_pages(unsigned long present_pages);

// Linux's logical CPU numbers on x86 multi-socket machines (ACPI MADT order): first the first hardware
// thread of every core, socket by socket, then every core's second thread in the same order, and so on.
// node_socket[i] and node_cpus[i] describe node i; returns the CPU ids of each node, ascending.
std::vector<std::vector<int>> enumerate_cpus(
    const std::vector<int>& node_socket, const std::vector<int>& node_cpus, int threads_per_core);

} // namespace pcplab::sim
