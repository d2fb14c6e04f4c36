// struct per_cpu_pages: one CPU's cache of free pages for one zone, with the fields of every modelled era.
#pragma once

#include "page_list.hpp"

#include <array>
#include <cstdint>

namespace pcplab::mm
{

// Enough lists for the largest layout (v5.14-5.19: 15). kernel_era::nr_pcp_lists() says how many are used.
inline constexpr unsigned NR_PCP_LISTS_MAX = 15;

// pcp->flags (v6.7+)
enum pcpf : std::uint8_t {
    PCPF_PREV_FREE_HIGH_ORDER = 1U << 0,
    PCPF_FREE_HIGH_BATCH = 1U << 1,
};

struct per_cpu_pages {
    int count = 0; // pages on all lists, in base pages
    int high = 0; // boot pageset: 0
    int batch = 1; // boot pageset: 1
    int high_min = 0; // v6.7+ (pcp-high-autotune)
    int high_max = 0;
    std::uint8_t flags = 0;
    std::uint8_t alloc_factor = 0; // v6.7+
    std::int8_t expire = 0; // NUMA: ticks until a remote zone's pages are drained
    std::int16_t free_count = 0; // v6.7+
    std::int16_t free_factor = 0; // v5.14 .. v6.6
    std::int8_t stat_threshold = 0; // per_cpu_zonestat / per_cpu_pageset stat_threshold
    std::array<page_list, NR_PCP_LISTS_MAX> lists{};
};

} // namespace pcplab::mm
