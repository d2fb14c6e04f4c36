// The per-class default cost tables: cost-model-sources.md section 5, one block per machine class, with every
// value's source as the document gives it ("5b: [C1] H"). Values the document does not give but the engine
// needs (L2 size and hit latency, some single-thread bandwidths) are marked E with their reasoning.
#include "cost_model.hpp"

#include <map>
#include <regex>
#include <stdexcept>

namespace pcplab::sim
{

namespace
{

// What each key prices; shared by all classes so a block only lists key, value and source.
const std::map<std::string, std::string>& what_table()
{
    static const std::map<std::string, std::string> t = {
        {"clock_ghz", "assumed sustained clock (GHz); converts cycle counts to ns"},
        {"c2c_ns.smt", "one-way cache-line transfer between SMT siblings (ns)"},
        {"c2c_ns.same_ccx", "one-way cache-line transfer inside one CCX / L3 (ns)"},
        {"c2c_ns.same_socket_other_ccx", "... to another CCX of the same socket, line homed locally (ns)"},
        {"c2c_ns.same_socket_other_ccx_home_remote", "... to another CCX, line homed on the other socket (ns)"},
        {"c2c_ns.same_tile", "one-way cache-line transfer inside one compute tile (ns)"},
        {"c2c_ns.same_socket_other_tile", "... to another tile of the same socket (ns)"},
        {"c2c_ns.same_socket", "one-way cache-line transfer between cores of one socket / L3 (ns)"},
        {"c2c_ns.home_remote_extra", "extra cost when the line is homed on another socket (ns)"},
        {"c2c_ns.cross_socket", "one-way cache-line transfer to another socket (ns)"},
        {"c2c_ns.cross_socket_home_local", "... to another socket, line homed in the writer's socket (ns)"},
        {"c2c_ns.cross_socket_home_remote", "... to another socket, line homed in the reader's socket (ns)"},
        {"c2c_ns.cross_socket_1hop", "... to a socket one link away (ns)"},
        {"c2c_ns.cross_socket_2hop", "... to a socket two links away (ns)"},
        {"dram_ns.local", "idle DRAM load latency, local node (ns)"},
        {"dram_ns.remote", "idle DRAM load latency, remote node (ns)"},
        {"dram_ns.remote_1hop", "idle DRAM load latency, node one link away (ns)"},
        {"dram_ns.remote_2hop", "idle DRAM load latency, node two links away (ns)"},
        {"topology.two_hop_share", "share of the other sockets that are two links away"},
        {"bw_gbps.node_read", "read bandwidth of one node (GB/s)"},
        {"bw_gbps.remote_link", "bandwidth across the socket link (GB/s)"},
        {"bw_gbps.single_thread_write", "write bandwidth of one thread (GB/s); prices clear_page"},
        {"bw_gbps.single_thread_clear_mostly_remote", "reference: one thread clearing mostly remote memory (GB/s)"},
        {"lock_ns.lock_unlock", "uncontended spin_lock + spin_unlock (ns)"},
        {"lock_ns.lock_unlock_irqsave", "uncontended spin_lock_irqsave + unlock_irqrestore (zone->lock) (ns)"},
        {"lock_ns.local_irq_save_restore", "local_irq_save + restore alone (pre-5.14 PCP protection) (ns)"},
        {"lock_ns.handover_factor", "lock hand-over = factor x one-way c2c of the two CPUs"},
        {"page_ns.list_op_hot", "list_add or list_del on a cache-hot struct page (ns)"},
        {"page_ns.struct_page_miss", "struct page touch that misses to local DRAM (ns)"},
        {"page_ns.seq_struct_page_touch", "one step of a sequential walk over hot struct pages (ns)"},
        {"page_ns.pcp_alloc_free_pair_hot", "order-0 alloc + free through the PCP, hot, one thread (ns)"},
        {"page_ns.pcp_pair_all_cpus_default_stats", "reference: PCP pair with all CPUs running, default stats (ns)"},
        {"page_ns.pcp_pair_all_cpus_no_stats", "reference: PCP pair with all CPUs running, NUMA stats off (ns)"},
        {"page_ns.pcp_pair_all_cpus_big_threshold", "reference: PCP pair, all CPUs, large stat threshold (ns)"},
        {"page_ns.buddy_per_page_k_old", "reference, not read: buddy cost per page / DRAM, <= v4.17 (fit to [Z1])"},
        {"page_ns.buddy_per_page_k_new", "reference, not read: buddy cost per page / DRAM, v5+ (fit to [Z2]/[P8])"},
        {"page_ns.zone_lock_per_page_op_v4_16",
            "reference, not read: zone->lock time per page op from seed 001's series' page_fault1 ([Z1])"},
        {"page_ns.zone_lock_per_page_op_v6_5",
            "reference, not read: zone->lock time per page op from seed 002's RFC page_fault1 ([Z2])"},
        {"page_ns.zone_lock_per_page_op_v6_x", "reference, not read: zone->lock time per page op (estimate)"},
        {"page_ns.zone_lock_spin_share_page_fault1",
            "observed outcome, not read: share of cycles spinning on zone->lock, seed 001's page_fault1 ([Z3])"},
        {"page_ns.zone_lock_spin_share_one_socket_page_fault1",
            "observed outcome, not read: share of cycles spinning, seed 002's RFC page_fault1 ([Z2])"},
        {"deferred_init.t1_ns_per_page", "deferred struct-page init + free, one thread (ns/page)"},
        {"deferred_init.floor_ns_per_page", "memory-bandwidth floor of parallel deferred init (ns/page)"},
        {"deferred_init.single_thread_no_deferral_1TB.memset_ns_per_page",
            "reference: memset of the memmap, one thread, boot without deferral (ns/page)"},
        {"deferred_init.single_thread_no_deferral_1TB.init_ns_per_page",
            "reference: __init_single_page, one thread, boot without deferral (ns/page)"},
        {"deferred_init.single_thread_no_deferral_1TB.fused_ns_per_page",
            "reference: memset folded into __init_single_page, one thread (ns/page)"},
        {"cache.l2_kib", "private L2 per core (KiB); / 64 B = struct pages a CPU's cache model keeps"},
        {"cache.l2_hit_cycles", "L2 load-to-use latency (cycles); / clock = a struct page touch that hits"},
        {"smt.pair_throughput",
            "work of one core with both SMT threads busy, relative to one thread alone (a busy sibling slows "
            "user code to pair / 2)"},
    };
    return t;
}

struct row {
    const char* key;
    double value;
    const char* source;
};

struct class_block {
    const char* name;
    const char* title;
    const char* section; // "5b" ... "5h"; "" for the generic class
    int sockets;
    std::vector<row> rows;
};

// Blocks shared by several Intel classes whose cores the document does not list cache figures for.
constexpr const char* E_L2_256 = "E: 256 KiB L2 per core on Haswell/Broadwell (vendor spec; not in the sources)";
constexpr const char* E_L2_HIT_12 = "E: 12-cycle L2 hit on Haswell/Broadwell/Zen 2 (vendor optimisation guides)";
// What two busy SMT threads of one core get done together. No source gives it for a kernel build on these
// parts; these are the nearest published figures (L), the AMD one measured, the Intel one the vendor's claim.
constexpr const char* L_SMT_AMD = "E from L: mean SMT gain of multi-threaded programs on Zen 1 (Ryzen 7 1800X), 35.76% "
                                  "(zen.looncraz.net/smt_ccx.php); no Zen 2 or Zen 5 kernel-build figure found";
constexpr const char* L_SMT_INTEL
    = "E from L: Intel's claim of 30% for multi-threaded work (as quoted in M. Fleming, "
      "\"Does SMT make sense?\", codeblueprint.co.uk, 2019); no kernel-build figure found";
constexpr double SMT_AMD = 1.36, SMT_INTEL = 1.30;

const std::vector<class_block>& blocks()
{
    static const std::vector<class_block> b = {
        {"amd_rome_2s", "AMD EPYC 2 \"Rome\" 2S (7742-class)", "5b", 2,
            {{"clock_ghz", 3.0, "E"}, {"c2c_ns.smt", 8, "[C1] H"}, {"c2c_ns.same_ccx", 25, "[C1] H (median 25.3)"},
                {"c2c_ns.same_socket_other_ccx", 125, "[C1] H (118 same CCD / 133 other CCD, line homed locally)"},
                {"c2c_ns.same_socket_other_ccx_home_remote", 260, "[C1] H + [C3]"},
                {"c2c_ns.cross_socket", 265, "[C1] H (median 266.6)"},
                {"dram_ns.local", 122, "[M5] H (NPS1, 128 MB random)"}, {"dram_ns.remote", 210, "E"},
                {"bw_gbps.node_read", 103, "[M8] L"}, {"bw_gbps.single_thread_write", 15, "E"},
                {"lock_ns.lock_unlock", 9, "E from [S1]/[S2]"}, {"lock_ns.lock_unlock_irqsave", 16, "E from [S1]/[S2]"},
                {"lock_ns.handover_factor", 1.5, "E from [S1]/[S2]"}, {"page_ns.list_op_hot", 1, "[L1] M"},
                {"page_ns.struct_page_miss", 122, "= dram.local"}, {"page_ns.seq_struct_page_touch", 5, "[P8] M"},
                {"page_ns.pcp_alloc_free_pair_hot", 60, "E (Intel data 40-84 ns [P1]-[P4])"},
                {"page_ns.buddy_per_page_k_old", 1.3, "E, \u00a75a"},
                {"page_ns.buddy_per_page_k_new", 0.55, "E, \u00a75a"},
                {"deferred_init.t1_ns_per_page", 16, "t1 E (Zen1 guest 14-15 [D1])"},
                {"deferred_init.floor_ns_per_page", 1.46, "floor = 128/(0.85*103)"},
                {"cache.l2_kib", 512, "E: 512 KiB L2 per Zen 2 core (vendor spec; not in the sources)"},
                {"cache.l2_hit_cycles", 12, E_L2_HIT_12}, {"smt.pair_throughput", SMT_AMD, L_SMT_AMD}}},
        {"intel_bdw_ep_2s", "Intel Broadwell-EP 2S (E5-2699 v4)", "5c", 2,
            {{"clock_ghz", 2.8, "E (2.2 base, all-core turbo assumed)"}, {"c2c_ns.smt", 8, "[C1] H, [C7] H, [C6] M"},
                {"c2c_ns.same_socket", 44, "[C1] H, [C7] H, [C6] M"},
                {"c2c_ns.cross_socket", 120, "[C1] H, [C7] H, [C6] M"},
                {"c2c_ns.home_remote_extra", 0, "[C1] H, [C7] H, [C6] M"}, {"dram_ns.local", 95, "[M4] H"},
                {"dram_ns.remote", 140, "E (Haswell-EP 132-141 [M3])"}, {"bw_gbps.node_read", 60, "[M3]/[M7] M"},
                {"bw_gbps.single_thread_write", 18, "[M3]/[M7] M"},
                {"lock_ns.lock_unlock", 12, "[S1] cycles @2.8 GHz, M/E"},
                {"lock_ns.lock_unlock_irqsave", 22, "[S1] cycles @2.8 GHz, M/E"},
                {"lock_ns.local_irq_save_restore", 14, "[S1] cycles @2.8 GHz, M/E"},
                {"lock_ns.handover_factor", 1.5, "[S1] cycles @2.8 GHz, M/E"}, {"page_ns.list_op_hot", 1, "[L1] M"},
                {"page_ns.struct_page_miss", 95, "= dram.local"}, {"page_ns.seq_struct_page_touch", 5, "[P8] M"},
                {"page_ns.pcp_alloc_free_pair_hot", 84, "[P4] H (185 TSC cycles)"},
                {"page_ns.pcp_pair_all_cpus_default_stats", 244, "[P4] H"},
                {"page_ns.pcp_pair_all_cpus_no_stats", 155, "[P4] H"},
                {"page_ns.zone_lock_per_page_op_v4_16", 111, "[Z1] derived M"},
                {"deferred_init.t1_ns_per_page", 21.7, "[D2]/[D1] H"},
                {"deferred_init.floor_ns_per_page", 2.5, "[D2]/[D1] H"}, {"cache.l2_kib", 256, E_L2_256},
                {"cache.l2_hit_cycles", 12, E_L2_HIT_12}, {"smt.pair_throughput", SMT_INTEL, L_SMT_INTEL}}},
        {"intel_bdw_ex_4s", "Intel Broadwell-EX 4S (E7-8890 v4, presumed)", "5d", 4,
            {{"clock_ghz", 2.6, "E"}, {"c2c_ns.smt", 8, "E (Broadwell-EP [C1] + EX overhead)"},
                {"c2c_ns.same_socket", 48, "E (Broadwell-EP [C1] + EX overhead)"},
                {"c2c_ns.cross_socket_1hop", 140, "E (Broadwell-EP [C1] + EX overhead)"},
                {"dram_ns.local", 135,
                    "[M6] L (first-generation E7-4800 4S proxy; E7 v3/v4 also use buffered memory [M11])"},
                {"dram_ns.remote_1hop", 197,
                    "[M6] L (first-generation E7-4800 4S proxy; E7 v3/v4 also use buffered memory [M11])"},
                {"bw_gbps.node_read", 65, "E"},
                {"bw_gbps.single_thread_write", 12.7,
                    "E, not in 5d: Broadwell-EP's 18 ([M7] M) x 95/135 local DRAM latency ([M4]/[M6]); one "
                    "thread's bandwidth is its misses in flight / latency"},
                {"lock_ns.lock_unlock", 13, "E"}, {"lock_ns.lock_unlock_irqsave", 24, "E"},
                {"lock_ns.handover_factor", 1.5, "E"}, {"page_ns.list_op_hot", 1, "[L1] M"},
                {"page_ns.struct_page_miss", 135, "= dram.local"}, {"page_ns.seq_struct_page_touch", 5, "[P8] M"},
                {"page_ns.pcp_alloc_free_pair_hot", 90, "E (Broadwell-EP 84 [P4] + slower memory)"},
                {"page_ns.zone_lock_per_page_op_v4_16", 146, "[Z1] derived M"},
                {"deferred_init.t1_ns_per_page", 23, "E"},
                {"deferred_init.floor_ns_per_page", 2.3, "E; floor = 128/(0.85*65)"}, {"cache.l2_kib", 256, E_L2_256},
                {"cache.l2_hit_cycles", 12, E_L2_HIT_12}, {"smt.pair_throughput", SMT_INTEL, L_SMT_INTEL}}},
        {"intel_skx_2s", "Intel Skylake-SP 2S (Platinum 8180)", "5e", 2, {}}, // rows: skx_rows(2)
        {"intel_skx_4s", "Intel Skylake-SP 4S (Platinum 8180), all socket pairs 1 UPI hop", "5e", 4, {}},
        {"intel_spr_2s", "Intel Sapphire Rapids 2S, 224 threads (8480+ class)", "5f", 2,
            {{"clock_ghz", 2.6, "E"}, {"c2c_ns.smt", 8, "E (Ice Lake 51 [C1] + EMIB hop)"},
                {"c2c_ns.same_tile", 50, "E (Ice Lake 51 [C1] + EMIB hop)"},
                {"c2c_ns.same_socket_other_tile", 70, "E (Ice Lake 51 [C1] + EMIB hop)"},
                {"c2c_ns.cross_socket_home_local", 130, "E (Ice Lake 108 [C1]; SKX home delta +64 [C4])"},
                {"c2c_ns.cross_socket_home_remote", 190, "E (Ice Lake 108 [C1]; SKX home delta +64 [C4])"},
                {"dram_ns.local", 110, "E"}, {"dram_ns.remote", 180, "E"},
                {"bw_gbps.node_read", 186, "[M8] L (372 GB/s 2S triad)"},
                {"bw_gbps.single_thread_write", 13,
                    "E, not in 5f (no source): Skylake-SP's 12 ([M7] M) x 48/32 L2 misses in flight (Golden Cove / "
                    "Skylake) x 81/110 local DRAM latency ([M1] / this class)"},
                {"lock_ns.lock_unlock", 11, "E"}, {"lock_ns.lock_unlock_irqsave", 20, "E"},
                {"lock_ns.handover_factor", 1.5, "E"}, {"page_ns.list_op_hot", 1, "[L1] M"},
                {"page_ns.struct_page_miss", 110, "= dram.local"}, {"page_ns.seq_struct_page_touch", 5, "[P8] M"},
                {"page_ns.pcp_alloc_free_pair_hot", 50, "E ([P3]/[P6] modern cores 46-64 ns)"},
                {"page_ns.zone_lock_per_page_op_v6_5", 60, "[Z2] derived M"},
                {"page_ns.zone_lock_spin_share_one_socket_page_fault1", 0.609, "[Z2] H"},
                {"deferred_init.t1_ns_per_page", 15, "t1 E"},
                {"deferred_init.floor_ns_per_page", 0.81, "floor = 128/(0.85*186)"},
                {"cache.l2_kib", 2048, "E: 2 MiB L2 per Golden Cove core (vendor spec; not in the sources)"},
                {"cache.l2_hit_cycles", 16, "E: about 16-cycle L2 hit on Golden Cove (vendor optimisation guide)"},
                {"smt.pair_throughput", SMT_INTEL, L_SMT_INTEL}}},
        {"amd_turin_dense_1s_316", "\"316-CPU 1 TB\" (AMD EPYC 9D85; Zen 5c, 1 socket; inferred)", "5g", 1,
            {{"clock_ghz", 2.8, "E"}, {"c2c_ns.smt", 9, "E anchored on Genoa [C2] (22-25 / 97-104)"},
                {"c2c_ns.same_ccx", 30, "E anchored on Genoa [C2] (22-25 / 97-104)"},
                {"c2c_ns.same_socket_other_ccx", 105, "E anchored on Genoa [C2] (22-25 / 97-104)"},
                {"dram_ns.local", 125, "E"},
                {"bw_gbps.node_read", 450, "E (576 theoretical, 12 ch DDR5-6000, for 9965 [M9])"},
                {"bw_gbps.single_thread_write", 15,
                    "E, not in 5g (no source): Rome's estimate (2c), a Zen core at a similar local latency "
                    "(125 vs 122 ns)"},
                {"lock_ns.lock_unlock", 9, "E"}, {"lock_ns.lock_unlock_irqsave", 16, "E"},
                {"lock_ns.handover_factor", 1.5, "E"}, {"page_ns.list_op_hot", 1, "[L1] M"},
                {"page_ns.struct_page_miss", 125, "= dram.local"}, {"page_ns.seq_struct_page_touch", 5, "[P8] M"},
                {"page_ns.pcp_alloc_free_pair_hot", 50, "E"},
                {"page_ns.zone_lock_per_page_op_v6_x", 70, "E (k_new 0.55 x 125)"},
                {"deferred_init.t1_ns_per_page", 15, "E"},
                {"deferred_init.floor_ns_per_page", 0.33,
                    "E; 268 M pages => about 90 ms with all CPUs, about 4 s single-threaded"},
                {"cache.l2_kib", 1024, "E: 1 MiB L2 per Zen 5c core (vendor spec; not in the sources)"},
                {"cache.l2_hit_cycles", 14, "E: 14-cycle L2 hit on Zen 4/5 (vendor optimisation guide)"},
                {"smt.pair_throughput", SMT_AMD, L_SMT_AMD}}},
        {"intel_hsx_ex_8s", "Xeon E7-8895 v3 8S (Haswell-EX, Oracle X5-8, 288 threads)", "5h", 8,
            {{"clock_ghz", 2.6, "nominal"}, {"c2c_ns.smt", 8, "E (Haswell-EP MLC 47/108 [C6])"},
                {"c2c_ns.same_socket", 50, "E (Haswell-EP MLC 47/108 [C6])"},
                {"c2c_ns.cross_socket_1hop", 150, "E (Haswell-EP MLC 47/108 [C6])"},
                {"c2c_ns.cross_socket_2hop", 220, "E (Haswell-EP MLC 47/108 [C6])"},
                {"dram_ns.local", 135, "[M6] L (gen-1 E7 proxy)"},
                {"dram_ns.remote_1hop", 197, "[M6] L (gen-1 E7 proxy)"},
                {"dram_ns.remote_2hop", 260, "[M6] L (gen-1 E7 proxy); 2-hop E"},
                {"topology.two_hop_share", 4.0 / 7.0,
                    "E: 3 QPI links per socket of 8 => 3 other sockets at 1 hop, 4 at 2 hops (0: [H2] H; hops E)"},
                {"bw_gbps.node_read", 65, "node E"},
                {"bw_gbps.single_thread_clear_mostly_remote", 1.7, "single thread [D6] M"},
                {"bw_gbps.single_thread_write", 12.7,
                    "E, not in 5h: as Broadwell-EX (18 [M7] x 95/135); [D6]'s 1.7 is 2 MB clears of mostly "
                    "remote memory, not a local 4 KiB clear"},
                {"lock_ns.lock_unlock", 13, "E; NUMA hand-over penalty is large [S3]"},
                {"lock_ns.lock_unlock_irqsave", 24, "E; NUMA hand-over penalty is large [S3]"},
                {"lock_ns.handover_factor", 1.5, "E; NUMA hand-over penalty is large [S3]"},
                {"page_ns.list_op_hot", 1, "[L1] M"}, {"page_ns.struct_page_miss", 135, "= dram.local"},
                {"page_ns.seq_struct_page_touch", 5, "[P8] M"}, {"page_ns.pcp_alloc_free_pair_hot", 90, "E"},
                {"page_ns.zone_lock_per_page_op_v4_16", 175, "E (k_old 1.3 x 135)"},
                {"deferred_init.single_thread_no_deferral_1TB.memset_ns_per_page", 42, "[D4] H"},
                {"deferred_init.single_thread_no_deferral_1TB.init_ns_per_page", 18.3, "[D4] H"},
                {"deferred_init.single_thread_no_deferral_1TB.fused_ns_per_page", 31, "[D4] H"},
                {"deferred_init.t1_ns_per_page", 20,
                    "E (5h t1_ns_per_page_local); 128 GiB/node => about 0.65 s/node single thread (pre-5.8)"},
                {"deferred_init.floor_ns_per_page", 2.3, "E; about 80 ms at the floor"},
                {"cache.l2_kib", 256, E_L2_256}, {"cache.l2_hit_cycles", 12, E_L2_HIT_12},
                {"smt.pair_throughput", SMT_INTEL, L_SMT_INTEL}}},
        // No block in the document: a small machine for lessons. Core costs from the i7-4790K that the
        // lock and page-alloc microbenchmarks ran on; the second "socket" borrows Broadwell-EP 2S's figures.
        {"generic_desktop", "Generic desktop (classroom; no block in cost-model-sources.md)", "", 0,
            {{"clock_ghz", 4.0, "[S1] (i7-4790K @ 4.00 GHz)"},
                {"c2c_ns.smt", 8, "E: SMT siblings 6.5-9.8 ns on every part of [C1]"},
                {"c2c_ns.same_socket", 25,
                    "E: one small L3: [C1] TR 3960X same-L3 23.5, [C9] 27-30 measured here, [C8] Zen 4 15-19"},
                {"c2c_ns.cross_socket", 120,
                    "E: a desktop has no second socket; the classroom's borrows Broadwell-EP 2S ([C1] 118-128)"},
                {"dram_ns.local", 80, "E: desktop DDR4 idle latency, about Skylake-SP's 81 ([M1])"},
                {"dram_ns.remote", 140, "E: as Broadwell-EP 2S (5c; Haswell-EP 132-141 [M3])"},
                {"bw_gbps.node_read", 40, "E: 2 channels DDR4-3200 = 51.2 GB/s peak, about 80% achievable"},
                {"bw_gbps.single_thread_write", 16, "[L1] M (15.7-18 GB/s single-thread stores, measured here)"},
                {"lock_ns.lock_unlock", 8.3, "[S1] H (33 cycles @4 GHz)"},
                {"lock_ns.lock_unlock_irqsave", 15.6, "[S1] H (62 cycles @4 GHz)"},
                {"lock_ns.local_irq_save_restore", 9.7, "[S1] H (38 cycles @4 GHz)"},
                {"lock_ns.handover_factor", 1.5, "E, 5a (ticket lock measured 1.2 [S2])"},
                {"page_ns.list_op_hot", 0.8, "[L1] M (1.6 ns per del+add pair)"},
                {"page_ns.struct_page_miss", 80, "= dram.local"},
                {"page_ns.seq_struct_page_touch", 2.7, "E: [P8]'s 5.1 ns per struct page at 2.1 GHz, scaled to 4 GHz"},
                {"page_ns.pcp_alloc_free_pair_hot", 46, "[P2] H (page_bench02, 184 cycles @4 GHz)"},
                {"deferred_init.t1_ns_per_page", 12.5, "E: the fastest one-thread rate measured ([D5] 12.5 ns/page)"},
                {"deferred_init.floor_ns_per_page", 3.76, "E: floor = 128/(0.85*40)"},
                {"cache.l2_kib", 256, "E: i7-4790K (Haswell) 256 KiB L2 per core (vendor spec)"},
                {"cache.l2_hit_cycles", 12, E_L2_HIT_12}, {"smt.pair_throughput", SMT_INTEL, L_SMT_INTEL}}},
    };
    return b;
}

// 5e serves 2S and 4S: only the derived zone-lock figure differs.
std::vector<row> skx_rows(int sockets)
{
    return {{"clock_ghz", 2.8, "E (2.5 base)"}, {"c2c_ns.smt", 7.5, "[C4] H (MLC HITM 53.7) / [C1] M (CAS 46.6-48.0)"},
        {"c2c_ns.same_socket", 52, "[C4] H (MLC HITM 53.7) / [C1] M (CAS 46.6-48.0)"},
        {"c2c_ns.cross_socket_home_local", 114, "[C4] H (data homed in writer socket)"},
        {"c2c_ns.cross_socket_home_remote", 178, "[C4] H"}, {"dram_ns.local", 81, "[M1] H"},
        {"dram_ns.remote", 131, "[M1] H"}, {"bw_gbps.node_read", 108, "[M1] H, [M7] M"},
        {"bw_gbps.remote_link", 51, "[M1] H, [M7] M"}, {"bw_gbps.single_thread_write", 12, "[M1] H, [M7] M"},
        {"lock_ns.lock_unlock", 12, "E from [S1]"}, {"lock_ns.lock_unlock_irqsave", 22, "E from [S1]"},
        {"lock_ns.handover_factor", 1.5, "E from [S1]"}, {"page_ns.list_op_hot", 1, "[L1] M"},
        {"page_ns.struct_page_miss", 81, "= dram.local"}, {"page_ns.seq_struct_page_touch", 5, "[P8] M"},
        {"page_ns.pcp_alloc_free_pair_hot", 75, "E (no single-thread SKX source)"},
        {"page_ns.pcp_pair_all_cpus_default_stats", 289, "[P5] H (722 cycles @2.5 GHz)"},
        {"page_ns.pcp_pair_all_cpus_big_threshold", 152, "[P5] H"},
        sockets >= 4 ? row{"page_ns.zone_lock_per_page_op_v4_16", 128, "[Z1] derived M (4S: 128)"}
                     : row{"page_ns.zone_lock_per_page_op_v4_16", 125, "[Z1] derived M (4S: 128)"},
        {"page_ns.zone_lock_spin_share_page_fault1", 0.80, "[Z3] H"},
        {"deferred_init.t1_ns_per_page", 17.7, "[D1] H (Skylake 8167M)"},
        {"deferred_init.floor_ns_per_page", 1.37, "[D1] H (Skylake 8167M)"},
        {"cache.l2_kib", 1024, "E: 1 MiB L2 per Skylake-SP core (vendor spec; not in the sources)"},
        {"cache.l2_hit_cycles", 14, "E: 14-cycle L2 hit on Skylake-SP (vendor optimisation guide)"},
        {"smt.pair_throughput", SMT_INTEL, L_SMT_INTEL}};
}

const class_block* find_block(const std::string& name)
{
    for (const auto& b : blocks())
        if (name == b.name) return &b;
    return nullptr;
}

} // namespace

std::vector<std::string> cost_class_names()
{
    std::vector<std::string> names;
    for (const auto& b : blocks()) names.emplace_back(b.name);
    return names;
}

cost_model class_defaults(const std::string& machine_class)
{
    const class_block* b = find_block(machine_class);
    if (!b) throw std::out_of_range("unknown cost-model class '" + machine_class + "'");
    cost_model m;
    m.machine_class = b->name;
    m.class_title = b->title;
    if (*b->section) m.class_title += std::string(", cost-model-sources.md \u00a7") + b->section;
    const std::vector<row> rows = b->rows.empty() ? skx_rows(b->sockets) : b->rows;
    const std::string prefix = *b->section ? "\u00a7" + std::string(b->section) + ": " : "";
    for (const auto& r : rows) {
        auto w = what_table().find(r.key);
        m.params.push_back({r.key, r.value, w == what_table().end() ? "" : w->second, prefix + r.source});
    }
    return m;
}

std::string infer_cost_class(const mm::machine_spec& spec, std::string* reason)
{
    auto say = [&](const std::string& cls, const std::string& why) {
        if (reason) *reason = why;
        return cls;
    };
    // 1. The description names its block ("cost-model-sources.md section 5c"): the preset author's intent.
    static const std::regex cite(R"((?:section|§)\s*5([b-h])\b)");
    std::smatch m;
    if (std::regex_search(spec.description, m, cite)) {
        const char letter = m.str(1)[0];
        for (const auto& b : blocks())
            if (b.section[0] == '5' && b.section[1] == letter
                && (letter != 'e' || (b.sockets >= 4) == (spec.sockets >= 4)))
                return say(b.name,
                    std::string("the description cites cost-model-sources.md section 5") + letter
                        + (letter == 'e' ? " with " + std::to_string(spec.sockets) + " sockets" : ""));
    }
    // 2. The c2c keys of the overrides are specific to each block's topology.
    auto has = [&](const char* k) { return spec.cost_model.count(k) != 0; };
    const std::string n = std::to_string(spec.sockets) + " socket(s)";
    if (has("c2c_ns.same_ccx"))
        return spec.sockets >= 2 ? say("amd_rome_2s", "cost_model has c2c_ns.same_ccx (AMD CCX) and " + n)
                                 : say("amd_turin_dense_1s_316", "cost_model has c2c_ns.same_ccx (AMD CCX) and " + n);
    if (has("c2c_ns.same_tile")) return say("intel_spr_2s", "cost_model has c2c_ns.same_tile (Sapphire Rapids tiles)");
    if (has("c2c_ns.cross_socket_2hop") || spec.sockets >= 8)
        return say("intel_hsx_ex_8s", "cost_model has c2c_ns.cross_socket_2hop or 8+ sockets");
    if (has("c2c_ns.cross_socket_home_local"))
        return spec.sockets >= 4 ? say("intel_skx_4s", "cost_model has c2c_ns.cross_socket_home_local and " + n)
                                 : say("intel_skx_2s", "cost_model has c2c_ns.cross_socket_home_local and " + n);
    if (has("c2c_ns.cross_socket_1hop")) return say("intel_bdw_ex_4s", "cost_model has c2c_ns.cross_socket_1hop");
    if (has("c2c_ns.cross_socket") && has("c2c_ns.same_socket"))
        return say("intel_bdw_ep_2s", "cost_model has c2c_ns.same_socket and c2c_ns.cross_socket");
    return say("generic_desktop", "no class hint in the preset: the generic desktop class");
}

} // namespace pcplab::sim
