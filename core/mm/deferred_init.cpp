// The pgdatinit threads (deferred_init_memmap): real std::threads that initialise struct pages and free them
// to the buddy allocator, one per node or, with parallel-deferred-init, several per node over chunks.
//
// The modelled thread count (deferred_init_threads: a node's CPUs from v5.8) sets the modelled time and the
// reports; on the host the chunks of every node are run by a pool of at most as many threads as the host has
// CPUs (host_init_threads). Hundreds of runnable threads on a small host starve every other thread of the
// process: a meta-1t-316 boot (316 init threads) held the window's thread off a 2-CPU host for seconds.
#include "boot.hpp"
#include "boot_internal.hpp"
#include "buddy.hpp"
#include "pcp.hpp"
#include "pcp_limits.hpp"
#include "watermarks.hpp"
#include "zone_lock.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>

namespace pcplab::mm
{

namespace
{

// Chunks are sections (padata's align and min_chunk are PAGES_PER_SECTION), so no buddy of a block freed in
// one chunk lies in another: chunks can be freed independently and merged afterwards. Their size is fixed
// (not derived from the thread count), which is what makes the result independent of it. As in padata, a
// node never gets more threads than chunks.
constexpr unsigned long CHUNK_PAGES = PAGES_PER_SECTION;

// A lock model for zones only the init thread can see: nothing to contend for.
class no_lock_ops : public lock_ops
{
public:
    void lock(const lock_id&, int, lock_caller) override { }
    bool trylock(const lock_id&, int, lock_caller) override { return true; }
    void unlock(const lock_id&, int, lock_caller, const mm_work&) override { }
};

// Host threads for `modelled` init threads: no more than the host's CPUs (at least one).
int host_init_threads(int modelled)
{
    const int cpus = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
    return std::max(1, std::min(modelled, cpus));
}

std::uint64_t now_ns()
{
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

struct chunk {
    pfn_t start = 0, end = 0;
    std::unique_ptr<zone> shadow; // free lists built by the thread that ran the chunk
    std::vector<pfn_t> pcp_frees; // v5.4: order-0 frees that go through the PCP, replayed in order
    mm_work work;
    unsigned long pages = 0;
};

struct node_job {
    std::size_t index = 0; // in deferred_init::impl::jobs
    int nid = 0;
    zone* z = nullptr;
    int threads = 1;
    std::vector<chunk> chunks;
    std::atomic<unsigned long> done_pages{0};
    unsigned long total_pages = 0;
    std::atomic<std::size_t> chunks_left{0};
    std::uint64_t start_ns = 0;
    std::atomic<std::uint64_t> end_ns{0};
};

} // namespace

struct deferred_init::impl {
    machine& m;
    std::vector<std::unique_ptr<node_job>> jobs;
    // Every chunk of every node, nodes interleaved so that all progress together (as the kernel's threads
    // do); the host threads take them in this order.
    std::vector<std::pair<node_job*, std::size_t>> order;
    std::atomic<std::size_t> next_chunk{0};
    std::vector<std::thread> threads;
    std::vector<deferred_thread_report> thread_reports;
    std::mutex report_lock;
    no_lock_ops no_locks;
    std::uint64_t start_ns = 0;
    bool planned = false;
    bool started = false;
    bool finished = false;

    explicit impl(machine& mm)
        : m(mm)
    {
    }

    // deferred_init_pages + deferred_free_range / deferred_free_pages (v5.4) and deferred_init_memmap_chunk
    // (v6.x): initialise and free a range in max-order (v6.4+) or pageblock (v5.4) blocks when aligned, else
    // page by page. A block freed whole has only its head written: the frames inside need no state of their
    // own until a split makes some of them heads (they keep the memmap's zero, page::inside_block). The kernel
    // writes every struct page, and the model's cost still counts every one (pages_initialised).
    void init_and_free_range(mm_ctx& c, chunk& ch, pfn_t s, pfn_t e)
    {
        unsigned block_order = m.era.version.at_least(6, 4) ? MAX_PAGE_ORDER : pageblock_order;
        unsigned long block = 1UL << block_order;
        pfn_t pfn = s;
        while (pfn < e) {
            init_single_page(m.pfn_to_page(pfn)); // a block's head, or a frame freed on its own
            if ((pfn & (block - 1)) == 0 && pfn + block <= e) {
                for (pfn_t pb = pfn; pb < pfn + block; pb += pageblock_nr_pages)
                    m.set_pageblock_migratetype(pb, MIGRATE_MOVABLE);
                free_boot_block(c, *ch.shadow, pfn, block_order, inner_frames::unwritten);
                pfn += static_cast<pfn_t>(block);
            } else {
                if ((pfn & (pageblock_nr_pages - 1)) == 0) m.set_pageblock_migratetype(pfn, MIGRATE_MOVABLE);
                if (m.era.boot_free_to_tail_bypassing_pcp())
                    free_boot_block(c, *ch.shadow, pfn, 0);
                else
                    ch.pcp_frees.push_back(pfn); // __free_pages(page, 0) -> free_unref_page, replayed later
                ++pfn;
            }
        }
    }

    // deferred_init_memmap_chunk over one chunk's free ranges.
    void run_chunk(node_job& job, chunk& ch)
    {
        pglist_data& pg = m.node_data(job.nid);
        const node_spec& ns = m.spec().nodes[static_cast<std::size_t>(job.nid)];
        zone& real = *job.z;
        ch.shadow = std::make_unique<zone>();
        ch.shadow->idx = real.idx;
        ch.shadow->node = real.node;
        ch.shadow->zone_start_pfn = real.zone_start_pfn;
        ch.shadow->spanned_pages = real.spanned_pages;
        ch.shadow->present_pages = real.present_pages;
        ch.shadow->set_list_bases();
        int cpu = pg.cpus.empty() ? 0 : pg.cpus.front();
        mm_ctx c{m, cpu, job.nid, ch.work, no_locks};
        for (const auto& r : free_ranges(pg, ns, ch.start, ch.end)) {
            // Each frame is initialised right before it is freed, as deferred_init_maxorder (v5.3+, Alexander
            // Duyck's 0e56acae4b4d) does per max-order block. Earlier eras initialise the whole range first; the
            // blocks freed and their order are the same either way (no block crosses a max-order boundary), so
            // only the host's time differs, and every era takes the faster way.
            init_and_free_range(c, ch, r.start, r.end);
            c.work.pages_initialised += r.pages();
            ch.pages += r.pages();
            // managed grows as the threads go (free_boot_block adds to the shadow): mirror it on the real
            // zone so progress is visible while init runs.
            real.managed_pages.fetch_add(r.pages(), std::memory_order_relaxed);
            job.done_pages.fetch_add(r.pages(), std::memory_order_relaxed);
        }
    }

    // One host thread: chunks from the common order until none is left; reports what it did per node.
    void worker(int thread_no)
    {
        std::uint64_t t0 = now_ns();
        std::vector<unsigned long> pages(jobs.size(), 0);
        for (;;) {
            std::size_t i = next_chunk.fetch_add(1);
            if (i >= order.size()) break;
            auto [job, c] = order[i];
            run_chunk(*job, job->chunks[c]);
            pages[job->index] += job->chunks[c].pages;
            if (job->chunks_left.fetch_sub(1) == 1) job->end_ns.store(now_ns());
        }
        std::lock_guard<std::mutex> g(report_lock);
        for (std::size_t j = 0; j < jobs.size(); ++j)
            if (pages[j] > 0) thread_reports.push_back({jobs[j]->nid, thread_no, pages[j], now_ns() - t0});
    }

    // The jobs: each node's deferred range in chunks, its frame total and thread count. No thread yet.
    void plan()
    {
        if (planned) return;
        planned = true;
        for (auto& pgp : m.nodes) {
            pglist_data& pg = *pgp;
            if (pg.first_deferred_pfn == NO_PFN) continue;
            auto job = std::make_unique<node_job>();
            job->nid = pg.node_id;
            job->z = node_zone_of(pg, pg.first_deferred_pfn);
            if (!job->z) continue;
            pfn_t end = static_cast<pfn_t>(job->z->zone_end_pfn());
            for (pfn_t s = pg.first_deferred_pfn; s < end;) {
                pfn_t e = static_cast<pfn_t>(std::min<unsigned long>(end, (s / CHUNK_PAGES + 1) * CHUNK_PAGES));
                chunk ch;
                ch.start = s;
                ch.end = e;
                job->chunks.push_back(std::move(ch));
                s = e;
            }
            for (const auto& r :
                free_ranges(pg, m.spec().nodes[static_cast<std::size_t>(pg.node_id)], pg.first_deferred_pfn, end))
                job->total_pages += r.pages();
            job->chunks_left = job->chunks.size();
            int want = deferred_init_threads(m.patches, m.era.version, static_cast<int>(pg.cpus.size()));
            job->threads = std::max(1, std::min<int>(want, static_cast<int>(job->chunks.size())));
            job->index = jobs.size();
            jobs.push_back(std::move(job));
        }
    }

    void start()
    {
        plan();
        start_ns = now_ns();
        for (auto& job : jobs) {
            job->start_ns = start_ns;
            if (job->chunks.empty()) job->end_ns = start_ns;
        }
        m.stage = boot_stage::deferred_init;
        int modelled = 0;
        std::size_t most = 0;
        for (auto& job : jobs) {
            modelled += job->threads;
            most = std::max(most, job->chunks.size());
        }
        order.clear();
        for (std::size_t c = 0; c < most; ++c)
            for (auto& job : jobs)
                if (c < job->chunks.size()) order.emplace_back(job.get(), c);
        const int host = host_init_threads(modelled);
        for (int t = 0; t < host; ++t) threads.emplace_back([this, t] { worker(t); });
        started = true;
    }

    // Merge the chunks' free lists into the zone in pfn order: head insertions (v5.4) go in front of what
    // earlier chunks added, tail insertions (FPI_TO_TAIL, v5.10+) behind, which is the order one thread
    // freeing the whole range in pfn order produces.
    void merge(node_job& job)
    {
        zone& z = *job.z;
        int cpu = m.node_data(job.nid).cpus.empty() ? 0 : m.node_data(job.nid).cpus.front();
        mm_ctx c = m.ctx(cpu);
        list_ops lo = m.lists();
        bool to_tail = m.era.boot_free_to_tail_bypassing_pcp();
        {
            zone_lock_guard lock(c, z, lock_caller::deferred_init);
            for (auto& ch : job.chunks) {
                for (unsigned o = 0; o < NR_PAGE_ORDERS; ++o) {
                    auto& from = ch.shadow->free_area_[o];
                    auto& to = z.free_area_[o];
                    for (unsigned mt = 0; mt < MIGRATE_TYPES; ++mt) {
                        if (to_tail)
                            lo.splice_tail(from.free_list[mt], to.free_list[mt]);
                        else
                            lo.splice_head(from.free_list[mt], to.free_list[mt]);
                        to.nr_free_mt[mt] += from.nr_free_mt[mt];
                    }
                    to.nr_free += from.nr_free;
                }
                z.nr_free_pages += ch.shadow->nr_free_pages;
                c.work += ch.work;
            }
        }
        // The shadow zones counted their managed pages; the real zone already has them (added in run_chunk)
        // except the v5.4 order-0 frees, which free_unref_page below hands to the PCP.
        for (auto& ch : job.chunks) {
            for (pfn_t pfn : ch.pcp_frees) {
                page& p = m.pfn_to_page(pfn);
                p.set_state(page_state::allocated); // __free_pages_core hands it over with a reference (order 0)
                free_unref_page(c, pfn, 0);
            }
            ch.shadow.reset();
        }
    }

    deferred_init_report finish()
    {
        for (auto& t : threads) t.join();
        threads.clear();
        deferred_init_report rep;
        for (auto& job : jobs) {
            merge(*job);
            m.node_data(job->nid).deferred_init_done = true;
            rep.nodes.push_back({job->nid, job->threads, job->total_pages, job->end_ns.load() - job->start_ns});
        }
        for (auto& pg : m.nodes) pg->deferred_init_done = true;
        pcp_update_after_deferred_init(m);
        rep.threads = thread_reports;
        std::sort(rep.threads.begin(), rep.threads.end(),
            [](const auto& a, const auto& b) { return a.node != b.node ? a.node < b.node : a.thread < b.thread; });
        rep.host_ns = now_ns() - start_ns;
        finished = true;
        return rep;
    }
};

deferred_init::deferred_init(machine& m)
    : m_impl(std::make_unique<impl>(m))
{
}

deferred_init::~deferred_init()
{
    if (m_impl->started && !m_impl->finished) m_impl->finish();
}

void deferred_init::plan()
{
    m_impl->plan();
}

void deferred_init::start()
{
    m_impl->start();
}

unsigned long deferred_init::progress(int nid) const
{
    for (auto& j : m_impl->jobs)
        if (j->nid == nid) return j->done_pages.load(std::memory_order_relaxed);
    return 0;
}

unsigned long deferred_init::total(int nid) const
{
    for (auto& j : m_impl->jobs)
        if (j->nid == nid) return j->total_pages;
    return 0;
}

int deferred_init::threads(int nid) const
{
    for (auto& j : m_impl->jobs)
        if (j->nid == nid) return j->threads;
    return 0;
}

deferred_init_report deferred_init::finish()
{
    return m_impl->finish();
}

// Seed 000 as merged (3e8fc0075e24, v5.4 .. v5.13): page_alloc_init_late, once wait_for_completion has seen
// every node's pgdatinit thread finish, runs zone_pcp_update on every populated zone (the posted patch called
// it at the end of each node's deferred_init_memmap; the merged one moved it here). Zones whose managed pages
// did not change keep their limits and report nothing. v5.14 removed the loop: setup_per_zone_wmarks, run by
// init_per_zone_wmark_min after deferred init (boot_late), recomputes the limits instead.
void pcp_update_after_deferred_init(machine& m)
{
    if (!m.patches[patch::pcp_update_after_deferred_init] || !m.era.version.before(5, 14)) return;
    m.for_each_populated_zone([&](zone& z) {
        if (z.pagesets_allocated) zone_pcp_update(m, z, 0, limits_cause::deferred_init_done);
    });
}

// page_alloc_init_late (v5.4 / v6.x): start the pgdatinit threads and wait for all of them.
deferred_init_report page_alloc_init_late(machine& m)
{
    deferred_init d(m);
    d.start();
    return d.finish();
}

// start_kernel (v5.4 / v6.x): mm_init -> mem_init, later setup_per_cpu_pageset.
void boot_early(machine& m)
{
    if (m.stage < boot_stage::early_init) mem_init(m);
    if (m.stage < boot_stage::pagesets_setup) {
        setup_per_cpu_pageset(m);
        m.stage = boot_stage::pagesets_setup;
    }
}

// kernel_init_freeable -> do_basic_setup -> initcalls: init_per_zone_wmark_min runs after deferred init.
void boot_late(machine& m)
{
    init_per_zone_wmark_min(m);
    m.stage = boot_stage::booted;
}

// start_kernel + kernel_init_freeable, as far as the page allocator goes.
deferred_init_report boot(machine& m)
{
    boot_early(m);
    deferred_init_report rep = page_alloc_init_late(m);
    boot_late(m);
    return rep;
}

} // namespace pcplab::mm
