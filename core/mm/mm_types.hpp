// Basic constants and enums of the simulated page allocator (x86-64, 4 KiB pages).
#pragma once

#include <cstdint>
#include <limits>

namespace pcplab::mm
{

using pfn_t = std::uint32_t; // 2^32 pages of 4 KiB = 16 TiB: enough for every preset
inline constexpr pfn_t NO_PFN = std::numeric_limits<pfn_t>::max();

inline constexpr unsigned PAGE_SHIFT = 12;
inline constexpr unsigned long PAGE_SIZE = 1UL << PAGE_SHIFT;
// Orders 0..10 (MAX_ORDER = 11 exclusive before v6.4, MAX_PAGE_ORDER = 10 inclusive from v6.8).
inline constexpr unsigned NR_PAGE_ORDERS = 11;
inline constexpr unsigned MAX_PAGE_ORDER = NR_PAGE_ORDERS - 1;
inline constexpr unsigned pageblock_order = 9; // HUGETLB_PAGE_ORDER on x86-64
inline constexpr unsigned long pageblock_nr_pages = 1UL << pageblock_order;
inline constexpr unsigned PAGE_ALLOC_COSTLY_ORDER = 3;
inline constexpr unsigned HPAGE_PMD_ORDER = 9;
inline constexpr unsigned long PAGES_PER_SECTION = 1UL << (27 - PAGE_SHIFT); // 128 MiB sections
inline constexpr unsigned SWAP_CLUSTER_MAX = 32;

// enum migratetype (include/linux/mmzone.h). CMA is not modelled (no CMA areas on the presets).
enum migratetype : std::uint8_t {
    MIGRATE_UNMOVABLE = 0,
    MIGRATE_MOVABLE = 1,
    MIGRATE_RECLAIMABLE = 2,
    MIGRATE_PCPTYPES = 3,
    MIGRATE_HIGHATOMIC = MIGRATE_PCPTYPES,
    MIGRATE_ISOLATE = 4,
    MIGRATE_TYPES = 5,
};
const char* migratetype_name(unsigned mt);

// enum zone_type on x86-64. ZONE_DEVICE exists only to be printed (always empty here).
enum zone_type : std::uint8_t {
    ZONE_DMA = 0,
    ZONE_DMA32 = 1,
    ZONE_NORMAL = 2,
    ZONE_MOVABLE = 3,
    ZONE_DEVICE = 4,
    MAX_NR_ZONES = 5,
};
const char* zone_name(unsigned zt);

// Zone boundaries (pfn) used by x86-64 zone_sizes_init: DMA below 16 MiB, DMA32 below 4 GiB.
inline constexpr pfn_t MAX_DMA_PFN = (16UL << 20) >> PAGE_SHIFT;
inline constexpr pfn_t MAX_DMA32_PFN = (4UL << 30) >> PAGE_SHIFT;

// enum zone_watermarks
enum zone_watermarks : std::uint8_t { WMARK_MIN, WMARK_LOW, WMARK_HIGH, WMARK_PROMO, NR_WMARK };

// Free page indicator bits (FPI_*), mm/page_alloc.c
// FPI_TRYLOCK (v6.15 free_pages_nolock, FPI_NOLOCK from v6.19): take zone->lock only with a trylock.
enum fpi_t : unsigned { FPI_NONE = 0, FPI_TO_TAIL = 1U << 1, FPI_TRYLOCK = 1U << 2 };

// alloc_flags bits used by the model (mm/internal.h)
enum alloc_flag : unsigned {
    ALLOC_WMARK_MIN = 0,
    ALLOC_WMARK_LOW = 1,
    ALLOC_WMARK_HIGH = 2,
    ALLOC_NO_WATERMARKS = 4,
    ALLOC_WMARK_MASK = 7,
    ALLOC_HARDER = 0x10,
    ALLOC_NOFRAGMENT = 0x100,
    // v6.15 alloc_pages_nolock: rmqueue_bulk / rmqueue_buddy only trylock zone->lock (the kernel's bit value
    // moved between versions; only its meaning matters here).
    ALLOC_TRYLOCK = 0x800,
};

} // namespace pcplab::mm
