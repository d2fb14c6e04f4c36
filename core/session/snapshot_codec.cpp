#include "session/snapshot_codec.hpp"

#include "session/byte_codec.hpp"

#include "procfs/procfs_texts.hpp"

namespace pcplab::session
{

namespace
{

constexpr unsigned NR_CALLERS = static_cast<unsigned>(mm::lock_caller::nr_callers);

// Fixed-size arrays carry their length, so a build with other constants refuses the blob instead of
// reading it shifted.
template <typename A> void put_array(byte_writer& w, const A& a)
{
    w.u(a.size());
    for (auto v : a) w.u(v);
}

template <typename A> void get_array(byte_reader& r, A& a, const char* what)
{
    if (r.u() != a.size()) throw codec_error(std::string("recorded with a different number of ") + what);
    for (auto& v : a) v = r.u_as<typename A::value_type>();
}

void put_hist(byte_writer& w, const sim::log_histogram& h)
{
    put_array(w, h.buckets);
}

void put_lock(byte_writer& w, const sim::lock_metrics& m)
{
    w.i(m.node);
    w.i(m.zone);
    for (auto v : {m.acquisitions, m.contended, m.wait_ns_total, m.wait_ns_max, m.hold_ns_total, m.hold_ns_max,
             m.max_pages_per_hold, m.holds_over_threshold})
        w.u(v);
    w.u(m.waits_over_threshold);
    put_hist(w, m.hold_hist);
    put_hist(w, m.wait_hist);
    put_array(w, m.holds_by_caller);
    put_array(w, m.hold_ns_by_caller);
    put_array(w, m.max_pages_by_caller);
    for (auto v : {m.waiting_ns, m.waiting_until, m.waiting_from, m.trylock_failures, m.order_inversions}) w.u(v);
}

// `enc`: the blob's encoding; encoding 1 predates waits_over_threshold, which stays 0.
void get_lock(byte_reader& r, sim::lock_metrics& m, unsigned enc)
{
    m.node = r.i_as<int>();
    m.zone = r.i_as<int>();
    for (auto* p : {&m.acquisitions, &m.contended, &m.wait_ns_total, &m.wait_ns_max, &m.hold_ns_total, &m.hold_ns_max,
             &m.max_pages_per_hold, &m.holds_over_threshold})
        *p = r.u();
    if (enc >= 2) m.waits_over_threshold = r.u();
    get_array(r, m.hold_hist.buckets, "histogram buckets");
    get_array(r, m.wait_hist.buckets, "histogram buckets");
    static_assert(sizeof(m.holds_by_caller) / sizeof(m.holds_by_caller[0]) == NR_CALLERS);
    get_array(r, m.holds_by_caller, "lock callers");
    get_array(r, m.hold_ns_by_caller, "lock callers");
    get_array(r, m.max_pages_by_caller, "lock callers");
    for (auto* p : {&m.waiting_ns, &m.waiting_until, &m.waiting_from, &m.trylock_failures, &m.order_inversions})
        *p = r.u();
}

void put_zone(byte_writer& w, const sim::zone_snapshot& z)
{
    w.i(z.node);
    w.i(z.zone);
    w.u(z.spanned);
    w.u(z.present);
    w.u(z.managed);
    w.i(z.free_pages);
    put_array(w, z.watermark);
    w.u(z.watermark_boost);
    w.u(z.flags);
    for (int v : {z.batch, z.high, z.high_min, z.high_max}) w.i(v);
    put_array(w, z.nr_free);
    w.u(z.free_blocks.size());
    for (const auto& per_order : z.free_blocks) put_array(w, per_order);
    w.b(z.free_blocks_exact);
    w.i(z.pcp_pages);
    w.b(z.lock.present);
    put_lock(w, z.lock.m);
    w.f(z.lock.contention_pct);
    w.f(z.lock.contention_pct_recent);
    w.i(z.lock.waiting_cpus_now);
    w.b(z.lock.someone_waiting);
}

void get_zone(byte_reader& r, sim::zone_snapshot& z, unsigned enc)
{
    z.node = r.i_as<int>();
    z.zone = r.i_as<int>();
    z.spanned = r.u_as<unsigned long>();
    z.present = r.u_as<unsigned long>();
    z.managed = r.u_as<unsigned long>();
    z.free_pages = r.i_as<long>();
    get_array(r, z.watermark, "watermarks");
    z.watermark_boost = r.u_as<unsigned long>();
    z.flags = r.u_as<unsigned>();
    for (int* p : {&z.batch, &z.high, &z.high_min, &z.high_max}) *p = r.i_as<int>();
    get_array(r, z.nr_free, "page orders");
    if (r.u() != z.free_blocks.size()) throw codec_error("recorded with a different number of page orders");
    for (auto& per_order : z.free_blocks) get_array(r, per_order, "migratetypes");
    z.free_blocks_exact = r.b();
    z.pcp_pages = r.i_as<long>();
    z.lock.present = r.b();
    get_lock(r, z.lock.m, enc);
    z.lock.contention_pct = r.f();
    z.lock.contention_pct_recent = r.f();
    z.lock.waiting_cpus_now = r.i_as<int>();
    z.lock.someone_waiting = r.b();
}

void put_cpu(byte_writer& w, const sim::cpu_metrics& c)
{
    for (auto v : {c.sys_ns, c.user_ns, c.idle_ns, c.spin_ns, c.allocs, c.frees, c.alloc_failures, c.pcp_hits,
             c.refills, c.drains})
        w.u(v);
}

void get_cpu(byte_reader& r, sim::cpu_metrics& c)
{
    for (auto* p : {&c.sys_ns, &c.user_ns, &c.idle_ns, &c.spin_ns, &c.allocs, &c.frees, &c.alloc_failures, &c.pcp_hits,
             &c.refills, &c.drains})
        *p = r.u();
}

void put_totals(byte_writer& w, const sim::global_metrics& t)
{
    for (auto v : {t.allocs, t.frees, t.pcp_hits, t.zone_allocs, t.free_high_drains, t.pcp_resident_pages,
             t.reclaimed_pages, t.drain_all_calls, t.alloc_failures, t.events_dropped})
        w.u(v);
}

void get_totals(byte_reader& r, sim::global_metrics& t)
{
    for (auto* p : {&t.allocs, &t.frees, &t.pcp_hits, &t.zone_allocs, &t.free_high_drains, &t.pcp_resident_pages,
             &t.reclaimed_pages, &t.drain_all_calls, &t.alloc_failures, &t.events_dropped})
        *p = r.u();
}

// Readers index by node, zone and CPU (trace tracks, zone names): a damaged blob must not hand them a node
// 2^31 or a zone type past the last.
// The switches, in enum order (patch_switches.hpp appends new ones, never renumbers). A blob written before a
// switch existed reads it as the recorded era's default: the switches added after the five seeds were era
// rules of the builds that wrote such blobs (docs/recording-schema.md). A blob with more switches than this
// build knows came from a newer pcplab and is refused.
void read_switches(byte_reader& r, sim::snapshot& s)
{
    const std::uint64_t n = r.u();
    if (n > mm::NR_PATCHES)
        throw codec_error("recorded with " + std::to_string(n) + " patch switches, this build knows "
            + std::to_string(mm::NR_PATCHES) + " (" + mm::patch_names_list() + "): it needs a newer pcplab");
    const mm::patch_set era_default = mm::default_patches(s.era);
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) s.patches.on[i] = i < n ? r.b() : era_default.on[i];
}

void check_topology(const sim::snapshot& s)
{
    constexpr int MAX_NODES = 1024, MAX_CPUS = 1 << 16;
    if (s.nr_cpus > MAX_CPUS || s.cpu_node.size() > static_cast<std::size_t>(MAX_CPUS))
        throw codec_error("corrupt (more CPUs than pcplab models)");
    for (int n : s.cpu_node)
        if (n < 0 || n >= MAX_NODES) throw codec_error("corrupt (a CPU on node " + std::to_string(n) + ")");
    for (const auto& z : s.zones)
        if (z.node < 0 || z.node >= MAX_NODES || z.zone < 0 || z.zone >= static_cast<int>(mm::MAX_NR_ZONES))
            throw codec_error("corrupt (a zone " + std::to_string(z.zone) + " on node " + std::to_string(z.node) + ")");
}

} // namespace

std::string encode_snapshot(const sim::snapshot& s)
{
    byte_writer w;
    w.u(SNAPSHOT_ENCODING);
    w.u(s.seq);
    w.i(s.side);
    w.u(static_cast<unsigned>(s.state));
    w.s(s.error);
    w.u(s.sim_time_ns);
    w.u(s.boundary_ns);
    w.u(s.events_processed);
    w.f(s.run.speed);
    w.u(s.run.quantum_ns);
    w.f(s.run.events_per_s);
    w.f(s.run.vns_per_s);
    w.b(s.run.behind);
    w.u(s.run.generation);
    w.u(s.run.commands_done_through);
    w.f(s.run.boot_speed);

    w.s(s.preset);
    for (int v : {s.era.major, s.era.minor, s.era.patch, s.era.rc}) w.i(v);
    w.u(s.patches.on.size());
    for (bool on : s.patches.on) w.b(on);
    w.i(s.patches.init_threads);
    w.s(s.workload);
    w.f(s.intensity);
    w.u(s.seed);

    w.i(s.nr_cpus);
    w.u(s.cpu_node.size());
    for (int n : s.cpu_node) w.i(n);
    w.u(s.zones.size());
    for (const auto& z : s.zones) put_zone(w, z);
    w.u(s.pcp.size());
    for (const auto& p : s.pcp) {
        w.i(p.count);
        w.i(p.high);
        w.i(p.batch);
    }
    w.u(s.cpus.size());
    for (const auto& c : s.cpus) put_cpu(w, c);
    put_totals(w, s.totals);
    w.f(s.score.work_units);
    w.s(s.score.unit);
    w.s(s.score.seed_measure);
    w.f(s.score.seed_measure_value);

    w.u(s.events_dropped);
    w.b(s.holds_kept);
    w.u(s.holds_dropped);
    w.u(s.deferred_init.size());
    for (const auto& d : s.deferred_init) {
        w.i(d.node);
        w.i(d.threads);
        w.u(d.done);
        w.u(d.total);
        w.b(d.finished);
        w.f(d.modelled_ms);
        w.f(d.host_ms);
        w.b(d.paced);
        w.u(d.host_done);
        w.f(d.modelled_elapsed_ms);
    }
    w.b(s.state_digest.has_value());
    if (s.state_digest) w.u(*s.state_digest);
    // The /proc texts themselves go to the procfs table once per rendering (snapshots share them).
    w.b(s.procfs != nullptr); // zoneinfo, then buddyinfo: a snapshot has both or neither
    w.b(s.procfs != nullptr);
    w.u(s.procfs_time_ns);
    // Encoding 3: the boot on the time axis.
    w.u(s.boot.deferred_init_start_ns);
    w.u(s.boot.init_end_ns);
    w.u(s.boot.workload_start_ns);
    for (const auto& d : s.deferred_init) w.u(d.done_at_ns);
    // Encoding 4: the remote-drain switch's counters (pcp_spin_trylock failures, drain work on other CPUs).
    w.u(s.totals.pcp_trylock_failures);
    w.u(s.totals.remote_work_items);
    // Encoding 5: calls from any context (the alloc-pages-nolock switch's figures).
    const sim::any_context_metrics& ac = s.totals.any_context;
    for (std::uint64_t v : {ac.allocs, ac.failures, ac.failures_deferred_init, ac.spin_ns, ac.frees, ac.frees_over_high,
             ac.over_high_pages_max, ac.over_high_ns_max, ac.parked})
        w.u(v);
    // Encoding 6: interrupt-context allocations (the pcp-lock-irqs-enabled switch's figures).
    const sim::irq_metrics& iq = s.totals.irq;
    for (std::uint64_t v : {iq.arrivals, iq.allocs, iq.alloc_failures, iq.frees, iq.pcp_fallbacks, iq.delayed,
             iq.delay_ns_total, iq.delay_ns_max, iq.irqs_off_ns_max, iq.irqs_off_ns_total, iq.spin_ns})
        w.u(v);
    return w.take();
}

sim::snapshot decode_snapshot(std::string_view blob)
{
    byte_reader r(blob);
    sim::snapshot s;
    const auto enc_read = r.u();
    if (enc_read < 1 || enc_read > SNAPSHOT_ENCODING)
        throw codec_error("snapshot encoding " + std::to_string(enc_read) + " is not one this pcplab reads (1 to "
            + std::to_string(SNAPSHOT_ENCODING) + ")");
    const auto enc = static_cast<unsigned>(enc_read);
    s.seq = r.u();
    s.side = r.i_as<int>();
    auto st = r.u();
    if (st > static_cast<unsigned>(sim::run_state::stopped)) throw codec_error("corrupt (unknown run state)");
    s.state = static_cast<sim::run_state>(st);
    s.error = r.s();
    s.sim_time_ns = r.u();
    s.boundary_ns = r.u();
    s.events_processed = r.u();
    s.run.speed = r.f();
    s.run.quantum_ns = r.u();
    s.run.events_per_s = r.f();
    s.run.vns_per_s = r.f();
    s.run.behind = r.b();
    s.run.generation = r.u();
    s.run.commands_done_through = r.u();
    s.run.boot_speed = r.f();

    s.preset = r.s();
    for (int* p : {&s.era.major, &s.era.minor, &s.era.patch, &s.era.rc}) *p = r.i_as<int>();
    read_switches(r, s);
    s.patches.init_threads = r.i_as<int>();
    s.workload = r.s();
    s.intensity = r.f();
    s.seed = r.u();

    s.nr_cpus = r.i_as<int>();
    s.cpu_node.resize(r.count());
    for (int& n : s.cpu_node) n = r.i_as<int>();
    s.zones.resize(r.count(64));
    for (auto& z : s.zones) get_zone(r, z, enc);
    s.pcp.resize(r.count(3));
    for (auto& p : s.pcp) {
        p.count = r.i_as<std::int32_t>();
        p.high = r.i_as<std::int32_t>();
        p.batch = r.i_as<std::int32_t>();
    }
    if (s.nr_cpus < 0 || s.pcp.size() != s.zones.size() * static_cast<std::size_t>(s.nr_cpus))
        throw codec_error("corrupt (pagesets do not match zones x CPUs)");
    s.cpus.resize(r.count(10));
    for (auto& c : s.cpus) get_cpu(r, c);
    get_totals(r, s.totals);
    s.score.work_units = r.f();
    s.score.unit = r.s();
    s.score.seed_measure = r.s();
    s.score.seed_measure_value = r.f();

    s.events_dropped = r.u();
    s.holds_kept = r.b();
    s.holds_dropped = r.u();
    s.deferred_init.resize(r.count(31));
    for (auto& d : s.deferred_init) {
        d.node = r.i_as<int>();
        d.threads = r.i_as<int>();
        d.done = r.u_as<unsigned long>();
        d.total = r.u_as<unsigned long>();
        d.finished = r.b();
        d.modelled_ms = r.f();
        d.host_ms = r.f();
        d.paced = r.b();
        d.host_done = r.u_as<unsigned long>();
        d.modelled_elapsed_ms = r.f();
    }
    if (r.b()) s.state_digest = r.u();
    const bool zoneinfo = r.b(), buddyinfo = r.b();
    s.procfs_time_ns = r.u();
    if (enc >= 3) {
        s.boot.deferred_init_start_ns = r.u();
        s.boot.init_end_ns = r.u();
        s.boot.workload_start_ns = r.u();
        for (auto& d : s.deferred_init) d.done_at_ns = r.u();
    }
    if (enc >= 4) {
        s.totals.pcp_trylock_failures = r.u();
        s.totals.remote_work_items = r.u();
    }
    if (enc >= 5) {
        sim::any_context_metrics& ac = s.totals.any_context;
        for (std::uint64_t* v : {&ac.allocs, &ac.failures, &ac.failures_deferred_init, &ac.spin_ns, &ac.frees,
                 &ac.frees_over_high, &ac.over_high_pages_max, &ac.over_high_ns_max, &ac.parked})
            *v = r.u();
    }
    if (enc >= 6) {
        sim::irq_metrics& iq = s.totals.irq;
        for (std::uint64_t* v :
            {&iq.arrivals, &iq.allocs, &iq.alloc_failures, &iq.frees, &iq.pcp_fallbacks, &iq.delayed,
                &iq.delay_ns_total, &iq.delay_ns_max, &iq.irqs_off_ns_max, &iq.irqs_off_ns_total, &iq.spin_ns})
            *v = r.u();
    }
    // A placeholder the reader replaces with the recorded texts (procfs table).
    if (zoneinfo || buddyinfo) s.procfs = procfs::procfs_texts::from_texts({}, {});
    if (!r.at_end()) throw codec_error("corrupt (" + std::to_string(r.left()) + " bytes after the snapshot)");
    check_topology(s);
    return s;
}

} // namespace pcplab::session
