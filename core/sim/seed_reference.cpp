// The seeds' published numbers (quoted in shared/reference/seed-results.md from the seed mails), and the
// comparison of a simulated switch-off / switch-on pair with them.
#include "sim/seed_reference.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace pcplab::sim
{

namespace
{

using ec = expected_change;

std::vector<seed_reference> make_references()
{
    std::vector<seed_reference> out;

    seed_reference s0;
    s0.id = "000";
    s0.title = "Recalculate pcp batch and high after deferred meminit";
    s0.author = "Mel Gorman, Oct 2019";
    s0.sw = mm::patch::pcp_update_after_deferred_init;
    s0.preset = "epyc2-256";
    s0.era = "5.4.0-rc3";
    s0.workload = "kernbench";
    s0.machine = "2-socket AMD EPYC 2, 256 logical CPUs, 2 NUMA nodes";
    s0.benchmark = "kernbench, make -j256 (mmtests config-workload-kernbench-max), 5.4.0-rc3";
    const std::string k0 = "seed 000 mail, mmtests kernbench ";
    s0.figures = {
        {"normal_batch", "batch of the Normal zones", "pages", 7, 63, false, std::nullopt, change_form::percent,
            ec::exact, "", true, "seed 000 mail, zoneinfo of all 1024 pagesets (512 x batch 7 -> batch 63)", ""},
        {"sys_ns", "system CPU time", "s", 14760.30, 4551.77, false, -69.16, change_form::percent, ec::decrease, "",
            false, k0 + "Amean syst-256", ""},
        {"build_elapsed_s", "elapsed time", "s", 162.42, 118.46, false, -27.06, change_form::percent, ec::decrease, "",
            false, k0 + "Amean elsp-256", ""},
        {"user_ns", "user CPU time", "s", 13249.50, 15928.40, false, 20.22, change_form::percent, ec::increase, "",
            false, k0 + "Amean user-256 (worse with the fix)",
            "User code shares its core with the SMT sibling (smt.pair_throughput in the model assumptions): a "
            "sibling spinning on zone->lock runs PAUSE and leaves the core to it, one that compiles leaves it "
            "smt.pair_throughput / 2 of the core (0.68 here). "
            "With the fix the siblings spin less and compile more, so each compile takes longer. The pair "
            "throughput is the nearest published figure (a Zen 1 average over multi-threaded programs, L), not a "
            "kernel build's on Zen 2"},
        {"zone_lock_wait_ns", "zone->lock wait", "ns", std::nullopt, std::nullopt, false, std::nullopt,
            change_form::percent, ec::decrease, "", false, "seed 000 mail: the profile blamed zone->lock contention",
            ""},
    };
    out.push_back(std::move(s0));

    seed_reference s1;
    s1.id = "001";
    s1.title = "free_pcppages_bulk: do not hold lock when picking pages to free";
    s1.author = "Aaron Lu, 2018";
    s1.sw = mm::patch::bulk_free_pick_outside_lock;
    s1.preset = "skylake-4s";
    s1.era = "4.15-rc4";
    s1.workload = "page-fault1";
    s1.machine = "Skylake 4-socket";
    s1.benchmark = "will-it-scale page_fault1, full load, v4.15-rc4 base";
    s1.figures = {
        {"seed_measure", "page_fault1 iterations per second", "iterations", 15728686, 17433559, false, 10.8,
            change_form::percent, ec::increase, "", false, "seed 001 mail, Skylake(4S) column",
            "run on v4.15-rc4 as measured: its reset_deferred_meminit initialised 2 GiB per node before "
            "setup_per_cpu_pageset, so the Normal zones have batch 31 (v4.17's one early section gave batch 7 and "
            "+2.7%). zone->lock is saturated either way, so the score follows the lock time per page; the pick moved "
            "out (list ops and struct-page touches that hit: the pages were freed moments before) is about 12% of a "
            "free_pcppages_bulk hold, and those holds are about a third of the lock's time. The same mail measured "
            "+2.9% on Broadwell 4S and +4.6% on Skylake 2S; what makes Skylake 4S gain +10.8% is not modelled. The "
            "rate is taken over 4 whole loops per task (see page_fault1.cpp)"},
        {"fpb_hold_mean_ns", "mean zone->lock hold in free_pcppages_bulk", "ns", std::nullopt, std::nullopt, false,
            std::nullopt, change_form::percent, ec::decrease, "", false,
            "seed 001 mail: picking moves out of the critical section", ""},
    };
    out.push_back(std::move(s1));

    seed_reference s2;
    s2.id = "002";
    s2.title = "mm: tune PCP high automatically";
    s2.author = "Huang Ying, Oct 2023";
    s2.sw = mm::patch::pcp_high_autotune;
    s2.preset = "intel-2s-224";
    s2.era = "v6.7";
    s2.workload = "kernbench";
    s2.machine = "2-socket Intel, 224 logical CPUs";
    s2.benchmark = "8 kbuild instances in parallel (make -j28 each, 8 cgroups)";
    const std::string k2 = "seed 002 cover letter";
    s2.figures = {
        {"build_elapsed_s", "build time", "s", std::nullopt, std::nullopt, false, -3.5, change_form::percent,
            ec::decrease, "", false, k2,
            "part of the gain is the exit drain of the free_high drains figure: with the PGD at order 0 (kernbench "
            "pgd_order=0, no page-table isolation) the model gives -0.9%, the switched-on build taking as long "
            "and the switched-off one 0.9% less. The series' first patch removed that drain (kbuild -j112 on "
            "this machine: -3.4% build time, Huang Ying, \"mm, pcp: avoid to drain PCP when process exit\"), so the "
            "published baseline (patches 1-6) no longer had it while the model's switch goes from v6.6 to the whole "
            "v6.7 series; at --quick scale (a quarter of the CPUs, little contention) the change is -0.3%"},
        {"contention_pct", "zone->lock contention", "%", 11.0, 0.5, false, -95.45, change_form::percent, ec::decrease,
            "", true, k2 + " (cycles% of spinlock contention; the table quotes 14.0% -> 0.5%)", ""},
        {"free_high_drains", "free_high drains", "", std::nullopt, std::nullopt, false, -65.6, change_form::percent,
            ec::decrease, "", false, k2,
            "each exiting process frees its PGD, order 1 with page-table isolation, right after exit_mmap's order-0 "
            "run: with the switch off (v6.6: free_factor > 0 and a high order) that free drains the pageset, the "
            "trigger Huang Ying traced in kbuild (224 CPUs x 4 jobs x 3 processes = 2688); v6.7 drains only on the "
            "second high-order free in a row (PCPF_PREV_FREE_HIGH_ORDER), which a PGD after order-0 frees never "
            "is, so none are left. The published baseline (patches 1-6) already had that test (patch 1: free_high "
            "-50.8% in kbuild) and kept a batch before draining (PCPF_FREE_HIGH_BATCH); the drains it still counted "
            "come from runs of high-order frees such as SLUB's order-1..3 slab pages, which kernbench does not model "
            "(no published count of slab page frees in a kernel build). The sign and size agree, but the drains "
            "the model removes are the exit drains of patch 1, not those the tuning saved"},
        {"zone_allocs", "pages allocated from the zone", "", std::nullopt, std::nullopt, false, -83.9,
            change_form::percent, ec::decrease, "", false, k2, ""},
        {"pcp_resident_pages", "pages on PCP lists", "", std::nullopt, std::nullopt, false, std::nullopt,
            change_form::percent, ec::increase, "", false, k2 + " (cost noted: average used memory up to +18.4%)", ""},
    };
    out.push_back(std::move(s2));

    seed_reference s3;
    s3.id = "003";
    s3.title = "mm/page_alloc: Batch callers of free_pcppages_bulk";
    s3.author = "Joshua Hahn, 2025";
    s3.sw = mm::patch::batched_bulk_free;
    s3.preset = "meta-1t-316";
    s3.era = "v6.18";
    s3.workload = "stress-vm";
    s3.machine = "1 TB RAM, 316 CPUs (softlockups); benchmarks on 250 GB / 176 CPUs";
    s3.benchmark = "stress-ng --vm 10 --vm-bytes 30G (and --vm 50 --vm-bytes 5G)";
    s3.figures = {
        {"covered_max_pages", "largest single zone->lock hold of the batched callers", "pages", 2000, std::nullopt,
            true, std::nullopt, change_form::percent, ec::at_most_bound, "max_batch", false,
            "seed 003 cover letter: 2k+ pages freed under zone->lock; the series frees pcp->batch at a time", ""},
        {"hold_ns_max", "longest zone->lock hold", "ns", std::nullopt, std::nullopt, false, std::nullopt,
            change_form::percent, ec::decrease, "", false, "seed 003 cover letter: softlockups, RCU stalls", ""},
        {"holds_over_threshold", "zone->lock holds over the threshold", "", std::nullopt, std::nullopt, false,
            std::nullopt, change_form::percent, ec::decrease, "", false, "seed 003 cover letter",
            "no single hold reaches the 1 ms default threshold, switch off or on (see the longest hold): before "
            "the series the batched callers already stop at batch << CONFIG_PCP_BATCH_SCALE_MAX (2016 pages) per "
            "hold. The zone->lock times over 1 ms that kernel reports show are waits: rmqueue_bulk including its "
            "wait ran over 1 ms on a 64-core EPYC with the scale at 5 (Yafang Shao, linux-mm, 2024), and the "
            "seed's RCU stall is 10.4 s of one CPU's softirq time. The holds under the threshold do shrink: see the "
            "holds of 131 us or more, and lesson 06 (holds over 100 us)"},
        {"holds_from_131us", "zone->lock holds of 131 us or more", "", std::nullopt, std::nullopt, false, std::nullopt,
            change_form::percent, ec::decrease, "", false,
            "seed 003 cover letter: the lock in free_pcppages_bulk held for a long time",
            "the hold-time tail below the threshold, counted from the log2 hold histogram (2^17 ns). Every bucket "
            "edge from 16.4 us to 262 us gives fewer holds with the switch on (the seed test checks each); under "
            "16 us there are more, the chunks of pcp->batch"},
        {"wait_ns_max", "longest zone->lock wait", "ns", std::nullopt, std::nullopt, false, std::nullopt,
            change_form::percent, ec::decrease, "", false,
            "seed 003 cover letter: starvation on the pcp and zone locks, softlockups, RCU stalls", ""},
        {"waits_over_threshold", "zone->lock waits over the threshold", "", std::nullopt, std::nullopt, false,
            std::nullopt, change_form::percent, ec::decrease, "", false,
            "seed 003 cover letter: starvation on the pcp and zone locks",
            "a CPU waits behind the whole queue: with 316 CPUs on one zone->lock some CPU is waiting for most of "
            "the run, and the series moves the same pages under the lock (its total hold time barely changes), "
            "so as many waits pass 1 ms; what the chunks shorten is the longest wait, behind fewer long holds"},
        {"score", "stress-vm throughput (bogo ops)", "", std::nullopt, std::nullopt, false, 4.85, change_form::percent,
            ec::neutral_or_better, "", false, "seed 003 cover letter: +4.85% (--vm 10 x 30G), -0.02% (--vm 50 x 5G)",
            "bogo ops as stress-ng counts them (one per 32 KiB the methods process, see stress_vm.cpp). The switch "
            "models the seed's v2 series, whose drain_pages_zone patch (chunks of batch) v3 dropped because "
            "drain_pages_zone runs on every CPU through __drain_all_pages; at --quick scale (200 ms from boot, "
            "reclaim draining every CPU) that patch multiplies the drains' zone->lock round trips about fivefold "
            "and throughput falls by about a third; over the full 2 s run it is neutral"},
    };
    out.push_back(std::move(s3));

    seed_reference s4;
    s4.id = "004";
    s4.title = "mm: parallelize deferred struct page initialization within each node";
    s4.author = "Daniel Jordan, 2018 RFC";
    s4.sw = mm::patch::parallel_deferred_init;
    s4.preset = "xeon-88-503g";
    s4.era = "4.15-rc2";
    s4.workload = "boot";
    s4.machine = "Xeon E5-2699 v4, 88 CPUs, 503 GB, 2 sockets";
    s4.benchmark = "boot, max deferred-init time per node (3 boots)";
    s4.figures = {
        {"deferred_init_max_ms", "max deferred-init time per node", "ms", 5860, 613, false, 9.56, change_form::factor,
            ec::decrease, "", false, "seed 004 RFC, E5-2699 v4 table (ktask: 9.56x)", ""},
    };
    out.push_back(std::move(s4));

    // Beyond the seeds (issue 24): a switch from a later patch, with the figures its mail published.
    seed_reference s5;
    s5.id = "005";
    s5.title = "mm: pcp: increase pcp->free_count threshold to trigger free_high";
    s5.author = "Nikhil Dhama, 2025";
    s5.sw = mm::patch::free_high_batch_plus_high_min;
    s5.preset = "epyc2-256";
    s5.era = "v6.12";
    s5.workload = "net-stream";
    s5.machine = "2-node AMD server, 384 vCPUs per node (memory not stated); iperf3 clients and servers on two such "
                 "machines connected by Mellanox ConnectX-7";
    s5.benchmark = "iperf3, 64 client/server pairs (scores relative to v6.6 vanilla = 100)";
    const std::string k5 = "patch v3 mail (linux-mm, 2025-04-07)";
    s5.figures = {
        {"score", "iperf3 throughput (v6.6 = 100)", "", 69, 100, false, (100.0 / 69.0 - 1.0) * 100.0,
            change_form::percent, ec::increase, "", false,
            k5 + ": iperf3 v6.6 = 100, v6.12 = 69, v6.12 + this patch = 100",
            "KiB sent by net-stream in the same virtual time on epyc2-256 (2 nodes, 256 CPUs, the nearest "
            "preset; the paper's machine has 2 x 384 vCPUs and a NIC). A net-stream CPU does nothing but copy "
            "32 KiB blocks and allocate and free them: no TCP/IP processing, no NIC, no interrupts. With the "
            "switch off every turn flushes its run to the buddy lists and refills from them, 128 CPUs of a node "
            "queueing on one zone->lock, and nothing else dilutes that wait; the paper's throughput also pays "
            "for the network stack, so its change is far smaller. The direction agrees; the size is not "
            "comparable"},
        {"free_high_drains", "free_high flushes", "", 170, std::nullopt, false, std::nullopt, change_form::percent,
            ec::decrease, "", false,
            "patch v2 thread (linux-mm, 2025-03-19): free_high events in a 20 s iperf3 run, 4 on v6.6, 170 on v6.12, "
            "58 with v2's threshold (batch x 5); none given for the merged batch + high_min/2",
            "the published counts compare v6.6 (free_factor) with v6.12 (free_count, threshold batch) over a 20 s "
            "run, counted in a way the mail does not describe; the model counts every free_high flush of every CPU, "
            "so only the direction is compared"},
        {"zone_allocs", "pages allocated from the zone", "", std::nullopt, std::nullopt, false, std::nullopt,
            change_form::percent, ec::decrease, "", false,
            k5 + ": the early flush makes high-order allocations \"go to global list more frequently\"", ""},
    };
    out.push_back(std::move(s5));

    seed_reference s6;
    s6.id = "006";
    s6.title = "mm/page_alloc: remotely drain per-cpu lists";
    s6.author = "Nicolas Saenz Julienne and Mel Gorman, 2022";
    s6.sw = mm::patch::remote_drain_under_pcp_lock;
    s6.preset = "skylake-2s";
    s6.era = "v6.6"; // the first modelled era with pcp->lock (v6.0 .. v6.5 run as v5.4, which has none)
    s6.workload = "net-stream";
    s6.machine = "not stated";
    s6.benchmark = "netperf and hackbench, with __drain_all_pages(NULL, true) triggered about 100 times a second";
    const std::string k6 = "patch mail (Mel Gorman's \"Drain remote per-cpu directly\" series, 2022; 443c2accd1b6)";
    s6.figures = {
        {"score", "netperf / hackbench throughput", "%", std::nullopt, std::nullopt, false, 5.0, change_form::percent,
            ec::neutral_or_better, "", false,
            k6 + ": \"no observed performance degradation\"; \"the new scheme performs a bit better (~5%)\"",
            "KiB sent by net-stream on skylake-2s (112 CPUs) as v6.6 (the patch was measured on its v5.19-era "
            "base; v6.6 is the first modelled era with pcp->lock) while CPU 0 forces the drain 100 times a virtual "
            "second. The model does not show the mail's gain: it loses about 1.5%, inside the neutral band, so "
            "\"no degradation\" holds and \"a bit better\" does not. On, CPU 0 empties all 112 pagesets itself "
            "(its own stream pays for them) and the allocations and frees that meet its hold go to zone->lock; "
            "off, each CPU pays only for its own lists, and the kworker's wakeup and context switch, which the "
            "patch removes, are not priced (no source in the cost model). The mail names neither its machine "
            "nor which of its figures moved by ~5%"},
        {"remote_work_items", "drain work items on other CPUs", "", std::nullopt, 0, false, std::nullopt,
            change_form::percent, ec::exact, "", true,
            k6 + ": \"other unrelated tasks are not interrupted\" (cover letter, v4)",
            "the work items __drain_all_pages queued on CPUs other than the draining one"},
        {"pcp_trylock_failures", "pcp->lock trylocks that failed", "", std::nullopt, std::nullopt, false, std::nullopt,
            change_form::percent, ec::increase, "", false,
            k6 + ": \"If there is a parallel drain in progress, free to the buddy allocator directly\"",
            "allocations and frees that found their own pageset held by CPU 0's drain and went to the buddy "
            "lists under zone->lock; none off, where each CPU drains its own lists"},
    };
    out.push_back(std::move(s6));

    seed_reference s7;
    s7.id = "007";
    s7.title = "mm: page_alloc: speed up fallbacks in rmqueue_bulk()";
    s7.author = "Johannes Weiner, 2025";
    s7.sw = mm::patch::rmqueue_bulk_fallback_mode;
    s7.preset = "skylake-4s";
    s7.era = "v6.18"; // the first modelled era with the v6.15 claim/steal fallback (v6.15 itself runs as v6.13)
    s7.workload = "frag-churn";
    s7.machine = "224 threads, 4 sockets, Intel Xeon Platinum 8380H (Cooper Lake), 192 GiB (kernel test robot); "
                 "an NXP board, not named (Carlos Song)";
    s7.benchmark = "vm-scalability lru-file-mmap-read, 300 s (LKP); worst-case zone->lock + IRQ-off time (NXP)";
    const std::string k7 = "kernel test robot report on 90abee6d7895 (202505191442.830abdbd-lkp@intel.com, "
                           "2025-05-19), 61c4e6ca8c vs 90abee6d78";
    s7.figures = {
        {"seed_measure", "vm-scalability.throughput", "", std::nullopt, std::nullopt, false, 208.7,
            change_form::percent, ec::increase, "", false,
            k7 + ": vm-scalability.throughput 10757194 -> 33209235 (+208.7%)",
            "file pages streamed per virtual second by frag-churn on skylake-4s (224 CPUs, 4 nodes: the nearest "
            "preset to the 4-socket Cooper Lake) as v6.18, timed from the moment every CPU has placed and half "
            "freed its order-3 unmovable slabs. The size agrees for a partly different reason: the model's stream "
            "does nothing but allocate, write and free (no page cache, no file reads, no reclaim scanning), so "
            "the 56 CPUs of each node keep its zone->lock saturated with the switch off and on alike, and the "
            "throughput follows how many refills the lock can serve, which the shorter holds raise"},
        {"spin_pct", "cycles spinning on zone->lock in rmqueue_bulk", "%", 31.07, 3.49, false,
            (3.49 / 31.07 - 1.0) * 100.0, change_form::percent, ec::decrease, "", false,
            k7
                + ": perf-profile native_queued_spin_lock_slowpath._raw_spin_lock_irqsave.rmqueue_bulk 31.07% -> "
                  "3.49%",
            "the time CPUs spent waiting for locks, as a share of their busy (system + user) time. The model "
            "disagrees: its CPUs have nothing to do outside the allocator, so zone->lock stays saturated and "
            "they spin nearly all the time either way; the robot's CPUs spend most cycles in the page cache, "
            "file reads and reclaim (its free_unref_folios alone is 31%), where shorter holds let the queue "
            "drain. The model's spinning also counts the frees' waits, the profile only rmqueue_bulk's"},
        {"hold_ns_max", "worst-case zone->lock hold (IRQs off)", "ms", 280, 8, false, 280.0 / 8.0, change_form::factor,
            ec::decrease, "", false,
            "patch mail (linux-mm, 2025-04-07; Carlos Song's NXP measurements): next-20250319 280 ms, this patch "
            "8 ms",
            "the longest zone->lock hold of the run, a refill of the polluted zone whose every page repeats the "
            "claim search (off) or only its first (on). Carlos Song's board, workload and how the worst case was "
            "caught are not given; his times include IRQ-off time outside the lock, which the model has not got"},
        {"claim_searches_per_refill", "__rmqueue_claim searches per rmqueue_bulk", "", std::nullopt, std::nullopt,
            false, std::nullopt, change_form::percent, ec::decrease, "", false,
            "patch mail: \"when the search for a block to claim has already failed, there is no point in trying "
            "again for the next page\"",
            "the top-down searches for a block to claim, divided by the PCP refills (the slab refills of the "
            "setup among them)"},
    };
    out.push_back(std::move(s7));

    seed_reference s8;
    s8.id = "008";
    s8.title = "mm, bpf: Introduce try_alloc_pages() for opportunistic page allocation; free_pages_nolock()";
    s8.author = "Alexei Starovoitov, 2025";
    s8.sw = mm::patch::alloc_pages_nolock;
    s8.preset = "skylake-2s";
    s8.era = "v6.18"; // v6.15 merged it; v6.18 is the modelled era the later scenarios share
    s8.workload = "bpf-any-context";
    s8.machine = "no measurement was published";
    s8.benchmark = "no published figure: the mails describe the mechanism (trylock only, no slow path, NULL while "
                   "deferred init runs, pcp->count may exceed high)";
    const std::string k8 = "no published figure; the behaviour is from the code of 97769a53f117 and 8c57b687e833";
    s8.figures = {
        {"any_context_failures_deferred_init", "any-context allocations failed during deferred init", "", std::nullopt,
            std::nullopt, false, std::nullopt, change_form::percent, ec::increase, "", false,
            k8
                + ": try_alloc_pages_noprof returns NULL while deferred_pages_enabled() (\"Bailout, since "
                  "_deferred_grow_zone() needs to take a lock\")",
            "the BPF-like program's allocations on every CPU of skylake-2s from power-on: off, they take the "
            "ordinary path and succeed from the early memory; on, every one fails until the last node's "
            "deferred init has ended"},
        {"any_context_over_high_pages_max", "pages above pcp->high after a nolock free", "pages", std::nullopt,
            std::nullopt, false, std::nullopt, change_form::percent, ec::increase, "", false,
            k8
                + ": free_unref_page_commit with FPI_TRYLOCK returns before the high check (\"Let pcp->count get "
                  "over high mark temporarily\")",
            "the most pages one pageset held above its high right after one of the program's frees; off, the "
            "ordinary free flushes at high, so none"},
        {"any_context_over_high_ns_max", "longest time a pageset stayed above pcp->high", "ns", std::nullopt,
            std::nullopt, false, std::nullopt, change_form::percent, ec::increase, "", false,
            k8 + " (\"temporarily\" is not quantified)",
            "from the nolock free that left a pageset above high to the end of that CPU's first later action "
            "after which it is at or under high again (an ordinary free's flush, allocations, or the vmstat "
            "tick's decay_pcp_high); a pageset still above high when the run ends counts until then"},
        {"any_context_spin_ns", "lock waiting inside the any-context calls", "ns", std::nullopt, std::nullopt, false,
            std::nullopt, change_form::percent, ec::decrease, "", false,
            k8 + ": every lock on the nolock paths is a trylock",
            "off, the program's calls wait for pcp->lock and zone->lock like any other caller, which a real "
            "program in NMI could not risk (the lock may be held by the code it interrupted); on, a held lock "
            "is a failure, never a wait"},
    };
    out.push_back(std::move(s8));

    seed_reference s9;
    s9.id = "009";
    s9.title = "[RFC 0/2] mm: page_alloc: pcp buddy allocator (not merged)";
    s9.author = "Johannes Weiner, 2026";
    s9.sw = mm::patch::pcp_buddy;
    s9.preset = "skylake-2s";
    s9.era = "v6.18"; // the RFC is not merged; v6.18 is the latest modelled era before it
    s9.workload = "jemalloc-purge";
    s9.machine = "Meta production hosts (not described); no measurement was published";
    s9.benchmark = "no published figure: the cover letter (linux-mm, 2026-04-03) reports zone->lock contention "
                   "in production from jemalloc's purger threads and process exits, and lists the benefits it "
                   "expects; the author calls his tests limited (reply to Rik van Riel, 2026-04-06)";
    const std::string k9 = "no published figure; the direction is the cover letter's expectation";
    s9.figures = {
        {"zone_lock_acq_per_1000_allocs", "zone->lock acquisitions per 1000 page allocations", "", std::nullopt,
            std::nullopt, false, std::nullopt, change_form::percent, ec::decrease, "", false,
            k9
                + ": \"coarser/fewer allocations transactions under the zone->lock\" and frees routed back to where "
                  "the allocations happen, \"reducing the chances of zone->lock slowpaths\"",
            "every zone->lock acquisition of the run, per 1000 pages the workers fault in. The model disagrees, and "
            "says why: v6.18's auto-tuned refill already takes up to batch << 5 pages (2016) per hold, so off has few "
            "acquisitions, each long; on, the purgers' frees hold the owners' pcp->lock (and flush their lists under "
            "it), and an owner's allocation whose pcp_spin_trylock fails meanwhile takes one page from the buddy "
            "lists under zone->lock (rmqueue_buddy), as any v6.x allocation does: many short acquisitions. The "
            "block claims and flushes alone (rmqueue_bulk, free_pcppages_bulk) stay about as many per page as off"},
        {"zone_lock_wait_ns", "time waiting for zone->lock", "ns", std::nullopt, std::nullopt, false, std::nullopt,
            change_form::percent, ec::decrease, "", false, k9 + ": the RFC is motivated by zone->lock contention",
            "the wait for every zone->lock of the run, summed: off, refills and flushes of up to batch << 5 pages "
            "hold the lock long; on, a claim takes whole pageblocks off the lists in one step each and "
            "splits them outside the lock, and a flush frees chunks merged under pcp->lock"},
        {"score", "pages faulted in", "pages", std::nullopt, std::nullopt, false, std::nullopt, change_form::percent,
            ec::increase, "", false, k9 + ": \"making the page allocator scale better with higher thread counts\"",
            "the pages the workers faulted in within the same virtual time: the time no longer spent waiting for "
            "zone->lock goes to faulting"},
    };
    out.push_back(std::move(s9));

    seed_reference s10;
    s10.id = "010";
    s10.title = "mm/page_alloc: leave IRQs enabled for per-cpu page allocations";
    s10.author = "Mel Gorman, 2022";
    s10.sw = mm::patch::pcp_lock_irqs_enabled;
    s10.preset = "skylake-2s";
    s10.era = "v6.6"; // merged for v6.2; v6.6 is the first modelled era with pcp->lock (off: as v6.0 / v6.1)
    s10.workload = "net-stream";
    s10.machine = "no measurement was published";
    s10.benchmark = "no published figure: the commit (5749077415994eb0) gives none and warns that \"this may not be "
                    "a universal win if an interrupt-intensive workload also allocates heavily from interrupt "
                    "context and contends heavily on the zone->lock as a result\"";
    const std::string k10 = "no published figure; the direction is the commit's own description";
    s10.figures = {
        {"irq_pcp_fallbacks", "interrupt calls that went to zone->lock (pcp->lock held)", "", std::nullopt,
            std::nullopt, false, std::nullopt, change_form::percent, ec::increase, "", false,
            k10
                + ": \"If an IRQ is raised when a PCP allocation is in progress, the trylock will fail and fallback "
                  "to using the buddy lists directly\"",
            "the RX interrupts' pcp_spin_trylock calls that failed because the code they interrupted held their "
            "CPU's own pcp->lock; off, IRQs are off for that whole hold, so an interrupt never finds it held"},
        {"irq_irqs_off_ns_total", "time with IRQs off in lock holds, all CPUs", "ns", std::nullopt, std::nullopt, false,
            std::nullopt, change_form::percent, ec::decrease, "", false,
            k10 + ": \"Demote the lock to pcp_spin_lock avoids an IRQ disable/enable in the common case\"",
            "every CPU's IRQs-off time inside lock holds and their waits, summed: off, every pcp->lock hold of "
            "every allocation and free masks IRQs; on, only zone->lock holds (refills, flushes, buddy fallbacks)"},
        {"irq_delay_ns_total", "time interrupts waited for IRQs to come back on", "ns", std::nullopt, std::nullopt,
            false, std::nullopt, change_form::percent, ec::decrease, "", false,
            k10 + ": \"the zone lock still needs to disable IRQs but that will only happen on PCP refill and drain\"",
            "summed over every interrupt: off, one raised during a pcp->lock hold waits for its end, a nested "
            "refill's or flush's zone->lock wait and hold included; on, only for the zone->lock hold (and its "
            "wait) it arrived in, which on a contended zone->lock is most of it"},
        {"zone_lock_acquisitions", "zone->lock acquisitions", "", std::nullopt, std::nullopt, false, std::nullopt,
            change_form::percent, ec::increase, "", false,
            k10 + ": \"at the cost of some IRQ allocations taking a slower path\"",
            "every zone->lock acquisition of the run: on, each interrupt that found pcp->lock held takes or frees "
            "its page on the buddy lists in one hold of its own"},
    };
    out.push_back(std::move(s10));

    // The batch scale (issue: "the batch scale as a knob"): no switch, a vm.* setting whose two values are the
    // sides. The cap is Huang Ying's CONFIG_PCP_BATCH_SCALE_MAX (v6.7); the sysctl and the measurement are Yafang
    // Shao's (not merged).
    seed_reference s11;
    s11.id = "011";
    s11.title = "mm/page_alloc: Introduce a new sysctl knob vm.pcp_batch_scale_max (not merged)";
    s11.author = "Yafang Shao, 2024";
    s11.sysctl = sysctl_sides{mm::vm_sysctl::pcp_batch_scale_max, 5, 0};
    s11.preset = "meta-250g-176"; // one node of AMD EPYC, as his guest was (his: 64 cores, ours: 176 CPUs)
    s11.era = "v6.18";
    s11.workload = "page-fault1";
    s11.machine = "AMD EPYC 7W83, 64 cores, one NUMA node, a KVM guest";
    s11.benchmark = "ten parallel scripts that each map 6 GiB, write it and unmap it; funclatency of "
                    "rmqueue_bulk (the wait for zone->lock included), CONFIG_PCP_BATCH_SCALE_MAX 5 against 0";
    s11.figures = {
        {"refill_latency_mean_ns", "a refill's time, mean hold + mean wait (at 0 published: most 2-16 us)", "us",
            449.775, std::nullopt, false, std::nullopt, change_form::percent, ec::decrease, "", true,
            "Yafang Shao, \"[PATCH v2 3/3] mm/page_alloc: Introduce a new sysctl knob vm.pcp_batch_scale_max\", "
            "linux-mm 2024: average 449775 ns at 5 (the slowest over 30 ms); at 0 most calls took 2-16 us (a "
            "histogram, no average given)",
            "the mean rmqueue_bulk hold plus the mean wait of a zone->lock acquisition, over every zone; ten tasks "
            "(page-fault1 at intensity 0.057) fault in and unmap, as his ten scripts did, but build and copy no "
            "6 GiB string in between, so at 0 more of them queue on zone->lock than his did: the model stays "
            "above his 2-16 us"},
    };
    out.push_back(std::move(s11));
    return out;
}

double sum_zones(const run_summary& r, std::uint64_t zone_summary::*field)
{
    double v = 0;
    for (const auto& z : r.zones) v += static_cast<double>(z.*field);
    return v;
}

double max_zones(const run_summary& r, std::uint64_t zone_summary::*field)
{
    double v = 0;
    for (const auto& z : r.zones) v = std::max(v, static_cast<double>(z.*field));
    return v;
}

std::string pct(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f%%", v);
    return buf;
}

std::string change_str(double v, change_form f)
{
    if (f == change_form::percent) return pct(v);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2fx", v);
    return buf;
}

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

} // namespace

const char* expected_change_name(expected_change e)
{
    switch (e) {
    case ec::decrease:
        return "decrease";
    case ec::increase:
        return "increase";
    case ec::neutral:
        return "neutral";
    case ec::neutral_or_better:
        return "neutral or better";
    case ec::exact:
        return "exact";
    case ec::at_most_bound:
        return "at most the bound";
    }
    return "?";
}

const std::vector<seed_reference>& seed_references()
{
    static const std::vector<seed_reference> refs = make_references();
    return refs;
}

std::string control_name(const seed_reference& ref)
{
    if (ref.sysctl) return mm::vm_sysctl_name(ref.sysctl->name);
    return ref.sw ? std::string(mm::patch_name(*ref.sw)) : std::string("?");
}

std::string sides_label(const seed_reference& ref)
{
    if (ref.sysctl)
        return control_name(ref) + " " + std::to_string(ref.sysctl->off) + " / " + std::to_string(ref.sysctl->on);
    return control_name(ref) + " off / on";
}

const seed_reference* find_seed_reference(std::string_view id)
{
    int n = -1;
    auto res = std::from_chars(id.data(), id.data() + id.size(), n);
    if (id.empty() || res.ec != std::errc() || res.ptr != id.data() + id.size() || n < 0) return nullptr;
    for (const auto& r : seed_references())
        if (std::stoi(r.id) == n) return &r;
    return nullptr;
}

std::uint64_t zone_lock_holds_from(const run_summary& r, unsigned log2_ns)
{
    std::uint64_t n = 0;
    for (const auto& z : r.zones)
        for (std::size_t i = log2_ns; i < z.hold_hist_log2.size(); ++i) n += z.hold_hist_log2[i];
    return n;
}

std::optional<double> simulated_figure(const run_summary& r, std::string_view key)
{
    const run_totals& t = r.totals;
    if (key == "deferred_init_max_ms") {
        if (r.boot.empty()) return std::nullopt;
        double m = 0;
        for (const auto& b : r.boot) m = std::max(m, b.modelled_ms);
        return m;
    }
    if (key == "normal_batch") {
        std::optional<double> lowest;
        for (const auto& z : r.zones)
            if (z.name == "Normal") lowest = std::min(lowest.value_or(z.batch), static_cast<double>(z.batch));
        return lowest;
    }
    if (key == "sys_ns") return static_cast<double>(t.sys_ns);
    if (key == "user_ns") return static_cast<double>(t.user_ns);
    if (key == "elapsed_ns") return static_cast<double>(t.elapsed_ns);
    if (key == "score") return t.score;
    if (key == "build_elapsed_s") {
        // A build's elapsed time exists only once it has finished (a run cut off by its duration has none).
        if (r.stop_reason != "finished" || r.seed_measure.empty()) return std::nullopt;
        return r.seed_measure_value;
    }
    if (key == "seed_measure")
        return r.seed_measure.empty() ? std::nullopt : std::optional<double>(r.seed_measure_value);
    if (key == "zone_allocs") return static_cast<double>(t.zone_allocs);
    if (key == "free_high_drains") return static_cast<double>(t.free_high_drains);
    if (key == "pcp_resident_pages") return static_cast<double>(t.pcp_resident_pages);
    if (key == "pcp_trylock_failures") return static_cast<double>(t.pcp_trylock_failures);
    if (key == "remote_work_items") return static_cast<double>(t.remote_work_items);
    if (key == "any_context_failures_deferred_init") return static_cast<double>(t.any_context.failures_deferred_init);
    if (key == "any_context_failures") return static_cast<double>(t.any_context.failures);
    if (key == "any_context_over_high_pages_max") return static_cast<double>(t.any_context.over_high_pages_max);
    if (key == "any_context_over_high_ns_max") return static_cast<double>(t.any_context.over_high_ns_max);
    if (key == "any_context_spin_ns") return static_cast<double>(t.any_context.spin_ns);
    if (key == "claim_searches_per_refill")
        return t.refills ? std::optional<double>(static_cast<double>(t.claim_searches) / static_cast<double>(t.refills))
                         : std::nullopt;
    if (key == "irq_pcp_fallbacks") return static_cast<double>(t.irq.pcp_fallbacks);
    if (key == "irq_delay_ns_max") return static_cast<double>(t.irq.delay_ns_max);
    if (key == "irq_delay_ns_total") return static_cast<double>(t.irq.delay_ns_total);
    if (key == "irq_irqs_off_ns_max") return static_cast<double>(t.irq.irqs_off_ns_max);
    if (key == "irq_irqs_off_ns_total") return static_cast<double>(t.irq.irqs_off_ns_total);
    if (key == "zone_lock_acquisitions")
        return r.zones.empty() ? std::nullopt : std::optional<double>(sum_zones(r, &zone_summary::acquisitions));
    if (key == "refill_latency_mean_ns") {
        double holds = 0, hold_ns = 0, acquisitions = 0, wait_ns = 0;
        for (const auto& z : r.zones) {
            acquisitions += static_cast<double>(z.acquisitions);
            wait_ns += static_cast<double>(z.wait_ns_total);
            for (const auto& c : z.callers)
                if (c.name == "rmqueue_bulk") {
                    holds += static_cast<double>(c.holds);
                    hold_ns += static_cast<double>(c.hold_ns_total);
                }
        }
        if (holds == 0 || acquisitions == 0) return std::nullopt;
        return hold_ns / holds + wait_ns / acquisitions;
    }
    if (key == "zone_lock_acq_per_1000_allocs") {
        if (t.allocs == 0 || r.zones.empty()) return std::nullopt;
        return 1000.0 * sum_zones(r, &zone_summary::acquisitions) / static_cast<double>(t.allocs);
    }
    if (key == "spin_pct") {
        const double busy = static_cast<double>(t.sys_ns + t.user_ns);
        return busy > 0 ? std::optional<double>(100.0 * static_cast<double>(t.spin_ns) / busy) : std::nullopt;
    }
    if (r.zones.empty()) return std::nullopt; // the rest measure zone->lock
    if (key == "zone_lock_wait_ns") return sum_zones(r, &zone_summary::wait_ns_total);
    if (key == "hold_ns_max") return max_zones(r, &zone_summary::hold_ns_max);
    if (key == "hold_ns_p99") return max_zones(r, &zone_summary::hold_ns_p99);
    if (key == "holds_over_threshold") return sum_zones(r, &zone_summary::holds_over_threshold);
    if (key == "wait_ns_max") return max_zones(r, &zone_summary::wait_ns_max);
    if (key == "waits_over_threshold") return sum_zones(r, &zone_summary::waits_over_threshold);
    if (key == "holds_from_131us") return static_cast<double>(zone_lock_holds_from(r, 17));
    if (key == "contention_pct") {
        double m = 0;
        for (const auto& z : r.zones) m = std::max(m, z.contention_pct);
        return m;
    }
    if (key == "max_batch") {
        double m = 0;
        for (const auto& z : r.zones) m = std::max(m, static_cast<double>(z.batch));
        return m;
    }
    if (key == "fpb_hold_mean_ns" || key == "covered_max_pages") {
        static const std::vector<std::string> covered
            = {"free_pcppages_bulk", "drain_pages_zone", "decay_pcp_high", "drain_zone_pages"};
        double holds = 0, ns = 0, pages = 0;
        for (const auto& z : r.zones)
            for (const auto& c : z.callers) {
                if (key == "fpb_hold_mean_ns" && c.name == "free_pcppages_bulk") {
                    holds += static_cast<double>(c.holds);
                    ns += static_cast<double>(c.hold_ns_total);
                }
                if (key == "covered_max_pages" && std::find(covered.begin(), covered.end(), c.name) != covered.end())
                    pages = std::max(pages, static_cast<double>(c.max_pages));
            }
        if (key == "covered_max_pages") return pages;
        if (holds == 0) return std::nullopt;
        return ns / holds;
    }
    return std::nullopt;
}

std::optional<double> change_between(double off, double on, change_form form)
{
    if (form == change_form::percent) {
        if (off == 0) return std::nullopt;
        return (on - off) / off * 100.0;
    }
    if (on == 0) return std::nullopt;
    return off / on;
}

figure_comparison compare_figure(const published_figure& fig, const run_summary& off, const run_summary& on)
{
    figure_comparison c;
    c.fig = &fig;
    c.sim_off = simulated_figure(off, fig.key);
    c.sim_on = simulated_figure(on, fig.key);
    if (!c.sim_off || !c.sim_on) {
        c.disagreement = fig.key == "build_elapsed_s"
            ? "not measured: the build did not finish within the run's virtual time"
            : "not measured: the runs have no " + fig.key;
        return c;
    }
    const double a = *c.sim_off, b = *c.sim_on;

    if (fig.expect == ec::exact) {
        if (fig.on && *fig.on != 0) c.ratio = b / *fig.on;
        bool off_ok = !fig.off || *fig.off == a;
        bool on_ok = !fig.on || *fig.on == b;
        c.agrees = off_ok && on_ok;
        if (!c.agrees)
            c.disagreement = "exact values: published " + (fig.off ? num(*fig.off) : "?") + " -> "
                + (fig.on ? num(*fig.on) : "?") + ", simulated " + num(a) + " -> " + num(b);
        return c;
    }
    c.sim_change = change_between(a, b, fig.form);
    if (fig.expect == ec::at_most_bound) {
        auto bound = simulated_figure(on, fig.bound_key);
        bool within = bound && b <= *bound;
        bool shrinks = b < a;
        c.agrees = within && shrinks;
        if (!within)
            c.disagreement = "bound: " + num(b) + " with the switch on, more than " + fig.bound_key + " "
                + (bound ? num(*bound) : "?");
        else if (!shrinks)
            c.disagreement
                = "no effect: " + num(a) + " off, " + num(b) + " on (nothing larger than the bound to split)";
        return c;
    }

    // A change: percent, or a factor (off / on) which shows "no change" as 1.
    if (!c.sim_change) {
        // Something the switch brings about (none off, some on) is an increase of no defined size: it agrees
        // when the publication gives only the direction.
        if (fig.form == change_form::percent && fig.expect == ec::increase && !fig.change && a == 0 && b > 0) {
            c.agrees = true;
            return c;
        }
        c.disagreement = a == 0 && b == 0 ? "not exercised: 0 with the switch off and on"
                                          : "undefined change: " + num(a) + " -> " + num(b);
        return c;
    }
    const double ch = *c.sim_change;
    const double as_pct = fig.form == change_form::percent ? ch : (1.0 / ch - 1.0) * 100.0; // on vs off
    if (fig.change && *fig.change != 0) c.ratio = ch / *fig.change;
    const std::string shown = change_str(ch, fig.form);
    const std::string pub = fig.change ? change_str(*fig.change, fig.form) : expected_change_name(fig.expect);

    switch (fig.expect) {
    case ec::decrease:
    case ec::increase: {
        bool right_way = fig.expect == ec::decrease ? as_pct <= -NO_EFFECT_PCT : as_pct >= NO_EFFECT_PCT;
        if (!right_way) {
            c.disagreement = "direction: published " + pub + ", simulated " + shown;
            return c;
        }
        if (c.ratio && (*c.ratio < 1.0 / MAGNITUDE_FACTOR || *c.ratio > MAGNITUDE_FACTOR)) {
            c.disagreement = "magnitude: published " + pub + ", simulated " + shown + " (ratio " + num(*c.ratio) + ")";
            return c;
        }
        c.agrees = true;
        return c;
    }
    case ec::neutral:
        c.agrees = std::fabs(as_pct) <= NEUTRAL_PCT;
        if (!c.agrees) c.disagreement = "not neutral: simulated " + shown;
        return c;
    case ec::neutral_or_better:
        c.agrees = as_pct >= -NEUTRAL_PCT;
        if (!c.agrees) c.disagreement = "worse: published " + pub + ", simulated " + shown;
        return c;
    default:
        break;
    }
    return c;
}

} // namespace pcplab::sim
