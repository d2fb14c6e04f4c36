// The story table. Each caption says what the teacher points at; each figure is an expression of the lessons'
// condition language (lessons/README.md), evaluated on machine A and on machine B. A machine is the seed's as
// `pcplab-cli seeds` runs it (core/sim/seed_scenarios.cpp says why each is scaled as it is).
#include "lessons/seed_stories.hpp"

#include "lessons/lesson.hpp"

#include <algorithm>
#include <stdexcept>

namespace pcplab::lessons
{

namespace
{

constexpr sim::vtime_ns MS = 1'000'000;

struct figure_text {
    const char* label;
    const char* expr;
    const char* unit;
};

struct checkpoint_text {
    sim::vtime_ns after_boot_ns;
    const char* view;
    const char* title;
    const char* caption;
    std::vector<figure_text> figures;
};

struct story_text {
    const char* seed;
    const char* title;
    const char* summary;
    double speed;
    std::vector<checkpoint_text> checkpoints;
};

// A is the kernel without the patch, B with it: "B vs A" in the key figures is the patch's effect.
const std::vector<story_text>& table()
{
    static const std::vector<story_text> t = {
        {"000", "Seed 000: batch and high recalculated after deferred init",
            "epyc2-256 on 5.4.0-rc3: A keeps batch 7 from boot, B recalculates to 63", 1e8,
            {
                // 20 ms after the boot rather than at its end: paused at the end, B's step sat on the plot's
                // right edge where nobody could point at it.
                {20 * MS, "limits", "The limits after boot",
                    "Deferred init ended at the dashed lines (node 1 last), 20 ms ago. Machine B has the "
                    "fix: once all memory was there it recalculated every pageset, batch 63 (the step up). "
                    "Machine A is 5.4.0-rc3 as Mel Gorman found it: its Normal zones kept batch 7, computed at "
                    "boot from their first 128 MiB.",
                    {{"batch of the Normal zones", "min(zones where zone == \"Normal\", batch)", ""},
                        {"high of the Normal zones", "min(zones where zone == \"Normal\", high)", ""}}},
                {60 * MS, "locks", "zone->lock under kernbench",
                    "The build is running on all 256 CPUs. With batch 7, A refills its per-CPU lists seven pages "
                    "at a time where B takes 63: A goes to zone->lock far more often, and its CPUs queue for it.",
                    {{"zone->lock acquisitions", "sum(zones, lock.acquisitions)", ""},
                        {"time waiting for zone->lock", "sum(zones, lock.wait_ns)", "ns"},
                        {"contention", "max(zones, lock.contention_pct)", "%"}}},
                {200 * MS, "rates", "What it costs",
                    "The waiting is system time: on the same build A spends far more of it than B. The paper "
                    "measured 14760 s against 4552 s of system time for a 256-job kernbench.",
                    {{"system time", "sys_ns", "ns"}, {"user time", "user_ns", "ns"},
                        {"jobs done", "score.work_units", ""}}},
            }},
        {"001", "Seed 001: bulk free picks its pages outside zone->lock",
            "skylake-4s on 4.15-rc4, page_fault1: A frees under the lock, B picks first", 1e8,
            {
                {45 * MS, "locks", "Holds of free_pcppages_bulk",
                    "Every CPU faults in 16 MiB and unmaps it; the unmap overflows the per-CPU lists and "
                    "free_pcppages_bulk gives pages back to the buddy allocator under zone->lock. A also picks "
                    "the pages off the lists while it holds the lock; B (Aaron Lu's patch) picks them first and "
                    "holds the lock only to free them.",
                    {{"mean hold of free_pcppages_bulk", "max(zones, caller.free_pcppages_bulk.mean_hold_ns)", "ns"},
                        {"time waiting for zone->lock", "sum(zones, lock.wait_ns)", "ns"},
                        {"contention", "max(zones, lock.contention_pct)", "%"}}},
                {175 * MS, "rates", "Throughput",
                    "Shorter holds mean shorter queues: B's CPUs spend less time spinning and fault in more "
                    "memory in the same virtual time. The tasks move in convoy, so B's lead shows as rounds "
                    "of loops finished earlier: each round ends a little sooner on B.",
                    {{"loops done", "score.work_units", ""}, {"system time", "sys_ns", "ns"},
                        {"spinning", "spin_ns", "ns"}}},
            }},
        {"002", "Seed 002: per-CPU high tuned to the workload",
            "intel-2s-224 on v6.7, kernbench: A keeps a fixed high, B grows it on refill", 1e8,
            {
                {40 * MS, "limits", "pcp->high moves on B",
                    "On B (Huang Ying's auto-tuning) a CPU that refills its list raises its own pcp->high, up "
                    "to high_max; the vmstat tick lets it decay again. A keeps the high it booted with. For now "
                    "the key figures show B worse: refills with no free between them double in size "
                    "(alloc_factor, up to batch << 5 = 2016 pages), so B fills its growing lists in long "
                    "zone->lock holds. That is "
                    "the price of the larger lists; the next stop shows what they buy.",
                    {{"mean high of the Normal pagesets", "mean(pagesets where zone == \"Normal\", high)", ""},
                        {"largest high", "max(pagesets where zone == \"Normal\", high)", ""}}},
                {200 * MS, "locks", "Fewer trips to zone->lock",
                    "A larger high keeps freed pages on the CPU for the next allocation: B goes to the buddy "
                    "allocator less often and waits less for zone->lock.",
                    {{"pages from the buddy allocator", "totals.zone_allocs", ""},
                        {"time waiting for zone->lock", "sum(zones, lock.wait_ns)", "ns"},
                        {"contention", "max(zones, lock.contention_pct)", "%"}}},
            }},
        {"003", "Seed 003: long zone->lock holds broken into batches",
            "meta-1t-316 on v6.18, stress-vm: A frees thousands of pages in one hold, B a batch at a time", 1e8,
            {
                {650 * MS, "locks", "Drains under memory pressure",
                    "stress-vm fills memory and unmaps it. Once memory runs low, reclaim drains every CPU's "
                    "lists: A frees up to 32 batches (2016 pages) in one zone->lock hold; B (Joshua Hahn's "
                    "series) drops the lock after every batch, so the other CPUs get their turn. Until then "
                    "both machines run alike.",
                    {{"longest hold", "max(zones, lock.hold_max_ns)", "ns"},
                        {"longest wait for zone->lock", "max(zones, lock.wait_max_ns)", "ns"}}},
            }},
        {"004", "Seed 004: deferred init in parallel",
            "xeon-88-503g on 4.15-rc2: A initialises each node with one thread, B with a quarter of its CPUs", 1e8,
            {
                // Past B's modelled init (about 20 ms) and well short of A's (about 170 ms): at the end of the boot
                // both bars had barely started and differed by two per cent.
                {40 * MS, "deferred", "The boot",
                    "Struct pages above the first 2 GiB of each node (4.15's early part) are initialised after "
                    "boot by deferred init. A runs one thread per node; B (Daniel Jordan's RFC) splits each "
                    "node's memory over a quarter of its CPUs: its bars are done while A's are still climbing.",
                    {{"init threads per node", "max(nodes, init_threads)", ""},
                        {"modelled deferred-init time (slowest node)", "max(nodes, init_modelled_ms) * 1ms", "ns"}}},
            }},
        {"005", "005: free_high raised to batch + high_min/2",
            "epyc2-256 on v6.12, net-stream: A flushes a run of order-3 frees after one batch, B keeps it", 1e8,
            {
                {50 * MS, "pcp", "Streams between pairs of CPUs",
                    "Every CPU sends 32 KiB blocks (order 3) to its pair, which frees them after reading: a run "
                    "of high-order frees of pages another CPU allocated. A (v6.12) calls that run free_high after "
                    "one batch of pages and flushes the list to the buddy allocator, so its next sends refill "
                    "from zone->lock. B (Nikhil Dhama's patch) waits for batch + high_min/2 pages and serves its "
                    "sends from the list.",
                    {{"free_high flushes", "totals.free_high_drains", ""},
                        {"pages from the zone", "totals.zone_allocs", ""},
                        {"zone->lock acquisitions", "sum(zones, lock.acquisitions)", ""}}},
            }},
        {"006", "006: other CPUs' lists drained under their pcp->lock",
            "skylake-2s on v6.6, net-stream with 100 forced drains a second: A queues work on every CPU, B drains "
            "them from CPU 0",
            1e8,
            {
                {50 * MS, "pcp", "CPU 0 drains every list 100 times a second",
                    "Every CPU streams to its pair while CPU 0 calls drain_all_pages every 10 ms. A (v5.19's "
                    "scheme) queues a work item on each of the other 111 CPUs, which stops its stream to empty its "
                    "own lists. B (the v6.0 remote drain) takes each CPU's pcp->lock and empties the lists itself: "
                    "no other CPU is interrupted, but one that allocates or frees while CPU 0 holds its pageset "
                    "goes to the buddy lists under zone->lock.",
                    {{"drain work items on other CPUs", "totals.remote_work_items", ""},
                        {"pcp->lock trylocks that failed", "totals.pcp_trylock_failures", ""},
                        {"zone->lock acquisitions", "sum(zones, lock.acquisitions)", ""}}},
            }},
        {"007", "007: rmqueue_bulk keeps the fallback mode that found the last page",
            "skylake-4s on v6.18, frag-churn: A searches for a block to claim for every page of a refill, B once "
            "per batch",
            1e8,
            {
                // The slabs are placed and half freed about 26 ms after the boot (4 GiB nodes); then every CPU
                // streams.
                {150 * MS, "locks", "Movable refills in polluted memory",
                    "Order-3 unmovable slabs once filled most of memory and were half freed, so every pageblock "
                    "is unmovable and more than half used: a movable request can take a page from one but never "
                    "claim it. Every refill of a movable list falls back. A (v6.15 before the fix) repeats the "
                    "search for a block to claim, reading each candidate's pageblock, for every page of the "
                    "batch under zone->lock; B goes straight to stealing after the first page.",
                    {{"longest zone->lock hold", "max(zones, lock.hold_max_ns)", "ns"},
                        {"zone->lock held, summed", "sum(zones, lock.hold_ns)", "ns"},
                        {"file pages streamed", "score.work_units", ""}}},
            }},
        {"008", "008: allocation from any context, with trylocks only",
            "skylake-2s on v6.18, bpf-any-context from power-on: A's program allocates on the ordinary paths, B's "
            "with alloc_pages_nolock and free_pages_nolock",
            1e8,
            {
                {300 * MS, "pcp", "A BPF program allocating from any context",
                    "A tracing program on every CPU allocates pages for its map from whatever it interrupted, and "
                    "every 128 pages frees them all. A (before v6.15) has no allocator it may call there: the "
                    "model lets it take the ordinary paths, where it waits for zone->lock like anyone else. B "
                    "(v6.15) only tries the locks: its program got nothing while deferred init ran, and its frees "
                    "skip the high check, so a pageset stays above pcp->high until the CPU's next ordinary free "
                    "flushes it (the next stop shows it).",
                    {{"any-context allocations failed during deferred init",
                         "totals.any_context.failures_deferred_init", ""},
                        {"frees that left a pageset above high", "totals.any_context.frees_over_high", ""},
                        {"longest time above high", "totals.any_context.over_high_ns_max", "ns"},
                        {"lock waiting inside any-context calls", "totals.any_context.spin_ns", "ns"}}},
                // The overshoot needs pages to free: B's program has them only after deferred init, and empties
                // its map when the load's round ends (about 780 ms after boot), after each CPU's own pages. At
                // 300 ms both machines read 0 here.
                {900 * MS, "pcp", "After deferred init: B's lists above high",
                    "Deferred init is over and B's program gets its pages now. When the load's round ends every "
                    "CPU frees its own pages, then the program empties its map. A frees on the ordinary path, "
                    "which flushes a list once it reaches pcp->high. B's free_pages_nolock skips that check: on lists "
                    "already full of the CPU's own pages its frees leave pagesets above high, each until its CPU's "
                    "next ordinary free or the periodic "
                    "decay trims it.",
                    {{"frees that left a pageset above high", "totals.any_context.frees_over_high", ""},
                        {"most pages above high after one free", "totals.any_context.over_high_pages_max", ""},
                        {"longest time above high", "totals.any_context.over_high_ns_max", "ns"},
                        {"any-context allocations that got a page", "totals.any_context.allocs", ""}}},
            }},
        {"009", "009: the pcp buddy allocator (RFC, not merged)",
            "skylake-2s on v6.18, jemalloc-purge: A refills and flushes a batch at a time, B claims whole "
            "pageblocks and sends every free to the CPU that owns the page's block",
            1e8,
            {
                {50 * MS, "locks", "Workers fault pages in, four purgers free them",
                    "Every CPU but four faults pages in for a jemalloc-like allocator; four purger CPUs free what "
                    "the workers gave back. A (v6.18): the workers' lists run dry and refill a batch at a time "
                    "under zone->lock, the purgers' lists overflow and flush under it. B (Johannes Weiner's RFC, "
                    "not merged): a refill claims a whole pageblock in one hold and splits it outside the lock, and "
                    "a purger's free goes to the list of the CPU that owns the page's block, where the next fault "
                    "takes it again.",
                    {{"zone->lock acquisitions", "sum(zones, lock.acquisitions)", ""},
                        {"zone->lock wait, summed", "sum(zones, lock.wait_ns)", "ns"},
                        {"pages faulted in", "score.work_units", ""}}},
            }},
        {"010", "010: IRQs left on under pcp->lock",
            "skylake-2s on v6.6, net-stream with RX interrupts: A keeps IRQs off for every pcp->lock hold (v6.0, "
            "v6.1), B only for zone->lock (v6.2+)",
            1e8,
            {
                {50 * MS, "locks", "RX interrupts while the streams hold their pcp->lock",
                    "Every CPU streams order-3 pages to its pair and takes NIC interrupts that each free an old RX "
                    "page and take a new one. A (v6.0, v6.1): pcp->lock is taken with IRQs off, so an interrupt "
                    "that arrives during a pageset hold waits until it ends, a refill's or flush's zone->lock wait "
                    "and hold included. B (Mel Gorman's v6.2 change): IRQs stay on; the interrupt runs at once, finds "
                    "its CPU's pcp->lock held by the code it interrupted, and goes to the buddy lists under "
                    "zone->lock: IRQs are off for far less time and interrupts wait a little less, "
                    "but zone->lock is taken many more times (the lanes of B).",
                    {{"interrupt calls sent to zone->lock", "totals.irq.pcp_fallbacks", ""},
                        {"time interrupts waited, summed", "totals.irq.delay_ns_total", "ns"},
                        {"longest interrupt wait", "totals.irq.delay_ns_max", "ns"},
                        {"IRQs-off time in lock holds, all CPUs", "totals.irq.irqs_off_ns_total", "ns"},
                        {"zone->lock acquisitions", "sum(zones, lock.acquisitions)", ""}}},
            }},
        {"011", "011: the batch scale, 5 against 0 (vm.pcp_batch_scale_max)",
            "meta-250g-176 on v6.18, ten page-fault1 tasks: A refills up to batch << 5 pages in one zone->lock "
            "hold, B (scale 0) one batch",
            1e8,
            {
                {50 * MS, "locks", "Ten tasks fault memory in on one node",
                    "Ten tasks map, write and unmap memory, as Yafang Shao's ten scripts did. A (the default scale "
                    "5): a CPU that keeps allocating without freeing doubles its refill each time, up to 32 "
                    "batches in one zone->lock hold, and the other CPUs wait behind it (the long bars). B (scale "
                    "0, his proposed sysctl): every refill is one batch, so holds are short and the waits behind "
                    "them too, at the price of many more acquisitions. His mail: 449 us on average at 5, mostly "
                    "2-16 us at 0.",
                    {{"largest refill, pages", "max(zones, caller.rmqueue_bulk.max_pages)", ""},
                        {"a refill's time: mean hold + mean wait",
                            "max(zones, caller.rmqueue_bulk.mean_hold_ns) + sum(zones, lock.wait_ns) / "
                            "sum(zones, lock.acquisitions)",
                            "ns"},
                        {"zone->lock acquisitions", "sum(zones, lock.acquisitions)", ""}}},
            }},
    };
    return t;
}

compiled_expr compile_or_throw(const std::string& story, const std::string& text)
{
    auto r = compile_expr(text, vtype::number);
    if (auto* e = std::get_if<pcplab::error>(&r))
        throw std::logic_error(
            "story " + story + ": '" + text + "' column " + std::to_string(e->column) + ": " + e->message);
    return std::get<compiled_expr>(std::move(r));
}

std::vector<story> compile_table()
{
    std::vector<story> out;
    for (const story_text& st : table()) {
        story s;
        s.seed = sim::find_seed_reference(st.seed);
        if (!s.seed) throw std::logic_error(std::string("story ") + st.seed + ": no such seed");
        s.title = st.title;
        s.summary = st.summary;
        s.speed = st.speed;
        for (const checkpoint_text& ct : st.checkpoints) {
            story_checkpoint c;
            c.after_boot_ns = ct.after_boot_ns;
            c.view = ct.view;
            const auto& views = view_ids();
            if (std::find(views.begin(), views.end(), c.view) == views.end())
                throw std::logic_error(std::string("story ") + st.seed + ": no view '" + c.view + "'");
            c.title = ct.title;
            c.caption = ct.caption;
            for (const figure_text& ft : ct.figures)
                c.figures.push_back({ft.label, compile_or_throw(st.seed, ft.expr), ft.unit});
            s.checkpoints.push_back(std::move(c));
        }
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace

const std::vector<story>& seed_stories()
{
    static const std::vector<story> stories = compile_table();
    return stories;
}

const story* find_story(const std::string& seed_id)
{
    const sim::seed_reference* ref = sim::find_seed_reference(seed_id);
    for (const story& s : seed_stories())
        if (s.seed == ref) return &s;
    return nullptr;
}

story_machines make_story_machines(const story& s)
{
    story_machines m{sim::make_seed_scenario(*s.seed, sim::seed_scale::full), {}, {}, {}};
    m.a = sim::seed_engine_config(m.scenario, m.scenario.off);
    m.b = sim::seed_engine_config(m.scenario, m.scenario.on);
    m.a.keep_events = m.b.keep_events = true;
    // A finite workload starts a new round where it ends, virtual time going on, so that a checkpoint later
    // than one round is still reached (a reboot would start the clock and the checkpoints over: story 001 on
    // 4.15-rc4 finishes a round 136 ms after boot, before its 175 ms checkpoint). Not the boot's own story
    // (004): there the boot is what plays, so the window reboots to show it again.
    m.a.continuous = m.b.continuous = s.seed->workload != "boot";
    m.make_load = sim::seed_workload_factory(m.scenario);
    return m;
}

} // namespace pcplab::lessons
