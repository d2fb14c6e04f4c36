#include "vmstat_names.hpp"

namespace pcplab::procfs
{

// Lists for a distro x86-64 config: CONFIG_NUMA, CONFIG_ZSMALLOC, CONFIG_SWAP, CONFIG_NUMA_BALANCING,
// CONFIG_HUGETLB_PAGE and CONFIG_IOMMU_SUPPORT on; CONFIG_SHADOW_CALL_STACK (arm64) and
// CONFIG_UNACCEPTED_MEMORY off (the v6.18 capture has no nr_unaccepted line).
namespace
{

// NUMA counters: the same six names in every modelled era.
const std::vector<std::string_view> numa_names
    = {"numa_hit", "numa_miss", "numa_foreign", "numa_interleave", "numa_local", "numa_other"};

// v4.17 .. v4.19: checked in a v4.19 tree. The empty name is NR_INDIRECTLY_RECLAIMABLE_BYTES, hidden from
// /proc/vmstat in v4.17-rc ("mm: don't show nr_indirectly_reclaimable in /proc/vmstat") but still printed
// by zoneinfo as a line with a blank name until v4.20 replaced it with nr_kernel_misc_reclaimable.
const zoneinfo_stat_names v4_17 = {
    "v4.19 mm/vmstat.c vmstat_text",
    {"nr_inactive_anon", "nr_active_anon", "nr_inactive_file", "nr_active_file", "nr_unevictable",
        "nr_slab_reclaimable", "nr_slab_unreclaimable", "nr_isolated_anon", "nr_isolated_file", "workingset_refault",
        "workingset_activate", "workingset_nodereclaim", "nr_anon_pages", "nr_mapped", "nr_file_pages", "nr_dirty",
        "nr_writeback", "nr_writeback_temp", "nr_shmem", "nr_shmem_hugepages", "nr_shmem_pmdmapped",
        "nr_anon_transparent_hugepages", "nr_unstable", "nr_vmscan_write", "nr_vmscan_immediate_reclaim", "nr_dirtied",
        "nr_written", ""},
    {"nr_free_pages", "nr_zone_inactive_anon", "nr_zone_active_anon", "nr_zone_inactive_file", "nr_zone_active_file",
        "nr_zone_unevictable", "nr_zone_write_pending", "nr_mlock", "nr_page_table_pages", "nr_kernel_stack",
        "nr_bounce", "nr_zspages", "nr_free_cma"},
    numa_names,
};

// v4.20 .. v5.8 (v5.4): v4.19 plus workingset_nodes and workingset_restore (v4.20), nr_kernel_misc_reclaimable
// in place of the hidden item (v4.20), nr_file_hugepages/nr_file_pmdmapped (v5.4); zone stats unchanged.
// Assembled from the vmstat_text hunks of those patches, whose context lines show the v5.x neighbours.
const zoneinfo_stat_names v5_4 = {
    "v4.19 vmstat_text + the v4.20/v5.4 vmstat_text patches",
    {"nr_inactive_anon", "nr_active_anon", "nr_inactive_file", "nr_active_file", "nr_unevictable",
        "nr_slab_reclaimable", "nr_slab_unreclaimable", "nr_isolated_anon", "nr_isolated_file", "workingset_nodes",
        "workingset_refault", "workingset_activate", "workingset_restore", "workingset_nodereclaim", "nr_anon_pages",
        "nr_mapped", "nr_file_pages", "nr_dirty", "nr_writeback", "nr_writeback_temp", "nr_shmem", "nr_shmem_hugepages",
        "nr_shmem_pmdmapped", "nr_file_hugepages", "nr_file_pmdmapped", "nr_anon_transparent_hugepages", "nr_unstable",
        "nr_vmscan_write", "nr_vmscan_immediate_reclaim", "nr_dirtied", "nr_written", "nr_kernel_misc_reclaimable"},
    v4_17.zone,
    numa_names,
};

// v6.6 / v6.7 (used for v5.9 .. v6.8): workingset counters split anon/file (v5.9), kernel stack and page
// tables moved to node stats (v5.9/v5.11), nr_unstable gone (v5.8), nr_throttled_written (v5.16),
// nr_sec_page_table_pages (v6.0), nr_swapcached (v5.17), pgpromote_* (v5.18/v6.1).
const std::vector<std::string_view> v6_6_node
    = {"nr_inactive_anon", "nr_active_anon", "nr_inactive_file", "nr_active_file", "nr_unevictable",
        "nr_slab_reclaimable", "nr_slab_unreclaimable", "nr_isolated_anon", "nr_isolated_file", "workingset_nodes",
        "workingset_refault_anon", "workingset_refault_file", "workingset_activate_anon", "workingset_activate_file",
        "workingset_restore_anon", "workingset_restore_file", "workingset_nodereclaim", "nr_anon_pages", "nr_mapped",
        "nr_file_pages", "nr_dirty", "nr_writeback", "nr_writeback_temp", "nr_shmem", "nr_shmem_hugepages",
        "nr_shmem_pmdmapped", "nr_file_hugepages", "nr_file_pmdmapped", "nr_anon_transparent_hugepages",
        "nr_vmscan_write", "nr_vmscan_immediate_reclaim", "nr_dirtied", "nr_written", "nr_throttled_written",
        "nr_kernel_misc_reclaimable", "nr_foll_pin_acquired", "nr_foll_pin_released", "nr_kernel_stack",
        "nr_page_table_pages", "nr_sec_page_table_pages", "nr_swapcached", "pgpromote_success", "pgpromote_candidate"};
const std::vector<std::string_view> v6_6_zone
    = {"nr_free_pages", "nr_zone_inactive_anon", "nr_zone_active_anon", "nr_zone_inactive_file", "nr_zone_active_file",
        "nr_zone_unevictable", "nr_zone_write_pending", "nr_mlock", "nr_bounce", "nr_zspages", "nr_free_cma"};
const zoneinfo_stat_names v6_6 = {"v6.x vmstat_text listings (v6.0 .. v6.8 shape)", v6_6_node, v6_6_zone, numa_names};

// v6.13 (used for v6.9 .. v6.14): nr_iommu_pages (v6.11), pgdemote_* moved from the events to the node
// stats, nr_hugetlb (v6.13, memcg hugetlb accounting; its patch shows it right after pgdemote_khugepaged).
std::vector<std::string_view> v6_13_node()
{
    std::vector<std::string_view> n = v6_6_node;
    auto at = [&](std::string_view after, std::initializer_list<std::string_view> add) {
        for (auto it = n.begin(); it != n.end(); ++it)
            if (*it == after) {
                n.insert(it + 1, add);
                return;
            }
    };
    at("nr_sec_page_table_pages", {"nr_iommu_pages"});
    at("pgpromote_candidate", {"pgdemote_kswapd", "pgdemote_direct", "pgdemote_khugepaged", "nr_hugetlb"});
    return n;
}
const zoneinfo_stat_names v6_13
    = {"v6.6 lists + the v6.9 .. v6.13 node_stat additions", v6_13_node(), v6_6_zone, numa_names};

// v6.18: exactly the lines of the real capture shared/fixtures/zoneinfo/linux-6.18-kvm-1node-2cpu.txt.
const zoneinfo_stat_names v6_18 = {
    "linux-6.18-kvm-1node-2cpu.txt capture",
    {"nr_inactive_anon", "nr_active_anon", "nr_inactive_file", "nr_active_file", "nr_unevictable",
        "nr_slab_reclaimable", "nr_slab_unreclaimable", "nr_isolated_anon", "nr_isolated_file", "workingset_nodes",
        "workingset_refault_anon", "workingset_refault_file", "workingset_activate_anon", "workingset_activate_file",
        "workingset_restore_anon", "workingset_restore_file", "workingset_nodereclaim", "nr_anon_pages", "nr_mapped",
        "nr_file_pages", "nr_dirty", "nr_writeback", "nr_shmem", "nr_shmem_hugepages", "nr_shmem_pmdmapped",
        "nr_file_hugepages", "nr_file_pmdmapped", "nr_anon_transparent_hugepages", "nr_vmscan_write",
        "nr_vmscan_immediate_reclaim", "nr_dirtied", "nr_written", "nr_throttled_written", "nr_kernel_misc_reclaimable",
        "nr_foll_pin_acquired", "nr_foll_pin_released", "nr_kernel_stack", "nr_page_table_pages",
        "nr_sec_page_table_pages", "nr_iommu_pages", "nr_swapcached", "pgpromote_success", "pgpromote_candidate",
        "pgpromote_candidate_nrl", "pgdemote_kswapd", "pgdemote_direct", "pgdemote_khugepaged", "pgdemote_proactive",
        "nr_hugetlb", "nr_balloon_pages", "nr_kernel_file_pages"},
    {"nr_free_pages", "nr_free_pages_blocks", "nr_zone_inactive_anon", "nr_zone_active_anon", "nr_zone_inactive_file",
        "nr_zone_active_file", "nr_zone_unevictable", "nr_zone_write_pending", "nr_mlock", "nr_zspages", "nr_free_cma"},
    numa_names,
};

} // namespace

const zoneinfo_stat_names& zoneinfo_stat_names_for(const mm::kernel_version& v)
{
    if (v.before(4, 20)) return v4_17;
    if (v.before(5, 9)) return v5_4;
    if (v.before(6, 9)) return v6_6;
    if (v.before(6, 15)) return v6_13;
    return v6_18;
}

} // namespace pcplab::procfs
