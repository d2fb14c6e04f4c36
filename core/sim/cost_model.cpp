// The cost model's arithmetic: a class's defaults plus the preset's overrides, compiled into the rates the
// engine charges (each with the formula that produced it), the price of a batch of allocator work, and the
// modelled deferred-init time.
#include "cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>

namespace pcplab::sim
{

const cost_param* cost_model::find(const std::string& key) const
{
    for (const auto& p : params)
        if (p.key == key) return &p;
    return nullptr;
}

double cost_model::get(const std::string& key) const
{
    if (const cost_param* p = find(key)) return p->value;
    throw std::out_of_range("cost model (" + machine_class + ") has no parameter '" + key + "'");
}

bool cost_model::set(const std::string& key, double v, const std::string& source)
{
    for (auto& p : params)
        if (p.key == key) {
            p.value = v;
            p.source = source;
            return true;
        }
    params.push_back({key, v, "not a default of this class", source});
    return false;
}

namespace
{

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// Resolves rates with their formulas; the single place where keys become rates.
struct rate_builder {
    const cost_model& m;
    std::vector<derived_rate> out;

    double key(const char* k) const { return m.get(k); }
    bool has(const char* k) const { return m.find(k) != nullptr; }
    const char* first_of(std::initializer_list<const char*> keys) const
    {
        for (const char* k : keys)
            if (has(k)) return k;
        return nullptr;
    }
    double add(const char* name, double v, const std::string& formula)
    {
        out.push_back({name, v, formula});
        return v;
    }
    // factor x c2c(key)
    double handover(const char* name, const char* c2c_key)
    {
        const double f = key("lock_ns.handover_factor"), c = key(c2c_key);
        return add(name, f * c, "lock_ns.handover_factor x " + std::string(c2c_key) + " = " + num(f) + " x " + num(c));
    }
};

std::vector<derived_rate> build(const cost_model& m)
{
    rate_builder b{m, {}};
    b.add("list_op_ns", b.key("page_ns.list_op_hot"), "page_ns.list_op_hot");
    const double hit = b.key("cache.l2_hit_cycles") / b.key("clock_ghz");
    b.add("page_hit_ns", hit, "cache.l2_hit_cycles / clock_ghz (an L2 hit)");
    const double local = b.add("page_miss_local_ns", b.key("page_ns.struct_page_miss"), "page_ns.struct_page_miss");

    // Remote struct-page miss: the remote DRAM latency; on 8S, the mean over 1- and 2-hop nodes.
    if (b.has("dram_ns.remote")) {
        b.add("page_miss_remote_ns", b.key("dram_ns.remote"), "dram_ns.remote");
    } else if (b.has("dram_ns.remote_1hop") && b.has("dram_ns.remote_2hop")) {
        const double s = b.key("topology.two_hop_share"), r1 = b.key("dram_ns.remote_1hop"),
                     r2 = b.key("dram_ns.remote_2hop");
        b.add("page_miss_remote_ns", (1 - s) * r1 + s * r2,
            "(1 - topology.two_hop_share) x dram_ns.remote_1hop + share x dram_ns.remote_2hop");
    } else if (b.has("dram_ns.remote_1hop")) {
        b.add("page_miss_remote_ns", b.key("dram_ns.remote_1hop"), "dram_ns.remote_1hop");
    } else {
        b.add("page_miss_remote_ns", local, "no remote node in this class: = page_miss_local_ns");
    }

    // A merge or split step's own bookkeeping (order and flag updates on a hot struct page). Its list ops
    // and its buddy's struct-page touch are counted and priced separately, so the E value is one step of
    // a hot struct-page walk ([P8] 5.1 ns), the low end of the 5-10 ns hot merge step of sources 4b. The
    // per-page buddy costs of 5a (k x dram, zone_lock_per_page_op) include those misses and come from the
    // seeds' own page_fault1 runs ([Z1], [Z2]); using them here would both double-count and fit a seed.
    const double step = b.key("page_ns.seq_struct_page_touch");
    b.add("merge_step_ns", step, "page_ns.seq_struct_page_touch (E: touches and list ops priced apart)");
    b.add("split_step_ns", step, "page_ns.seq_struct_page_touch (E: touches and list ops priced apart)");

    // One hot PCP alloc+free pair = 2 calls, each with one PCP list op and one struct-page touch that hits.
    const double pair = b.key("page_ns.pcp_alloc_free_pair_hot"), list = b.key("page_ns.list_op_hot");
    b.add("call_ns", std::max(0.0, (pair - 2 * list - 2 * hit) / 2),
        "(page_ns.pcp_alloc_free_pair_hot - 2 x list_op_ns - 2 x page_hit_ns) / 2 = (" + num(pair) + " - "
            + num(2 * list) + " - " + num(2 * hit) + ") / 2");
    b.add("lock_ns", b.key("lock_ns.lock_unlock_irqsave"), "lock_ns.lock_unlock_irqsave (zone->lock is irqsave)");

    // Hand-overs: factor x one-way c2c. Within a socket the common pair is in different CCXs / tiles.
    b.handover("handover_smt_ns", "c2c_ns.smt");
    const char* sock_key
        = b.first_of({"c2c_ns.same_socket_other_ccx", "c2c_ns.same_socket_other_tile", "c2c_ns.same_socket"});
    if (!sock_key) throw std::out_of_range("cost model (" + m.machine_class + ") has no same-socket c2c_ns key");
    const double sock = b.handover("handover_socket_ns", sock_key);
    const double f = b.key("lock_ns.handover_factor");
    if (b.has("c2c_ns.same_socket_other_ccx_home_remote")) {
        b.handover("handover_socket_home_remote_ns", "c2c_ns.same_socket_other_ccx_home_remote");
    } else if (b.has("c2c_ns.home_remote_extra")) {
        const double c = b.key(sock_key) + b.key("c2c_ns.home_remote_extra");
        b.add("handover_socket_home_remote_ns", f * c,
            "lock_ns.handover_factor x (" + std::string(sock_key) + " + c2c_ns.home_remote_extra)");
    } else {
        b.add("handover_socket_home_remote_ns", sock, "no home-node data: = handover_socket_ns");
    }

    double remote;
    if (b.has("c2c_ns.cross_socket")) {
        remote = b.handover("handover_remote_ns", "c2c_ns.cross_socket");
    } else if (b.has("c2c_ns.cross_socket_home_local") && b.has("c2c_ns.cross_socket_home_remote")) {
        const double c = (b.key("c2c_ns.cross_socket_home_local") + b.key("c2c_ns.cross_socket_home_remote")) / 2;
        remote = b.add("handover_remote_ns", f * c,
            "lock_ns.handover_factor x mean(c2c_ns.cross_socket_home_local, _home_remote): one end is on the home "
            "node");
    } else if (b.has("c2c_ns.cross_socket_1hop") && b.has("c2c_ns.cross_socket_2hop")) {
        const double s = b.key("topology.two_hop_share");
        const double c = (1 - s) * b.key("c2c_ns.cross_socket_1hop") + s * b.key("c2c_ns.cross_socket_2hop");
        remote = b.add("handover_remote_ns", f * c,
            "lock_ns.handover_factor x ((1 - topology.two_hop_share) x c2c_ns.cross_socket_1hop + share x _2hop)");
    } else if (b.has("c2c_ns.cross_socket_1hop")) {
        remote = b.handover("handover_remote_ns", "c2c_ns.cross_socket_1hop");
    } else {
        remote = b.add("handover_remote_ns", sock, "one socket: = handover_socket_ns");
    }
    if (b.has("c2c_ns.cross_socket_home_remote"))
        b.handover("handover_remote_to_home_ns", "c2c_ns.cross_socket_home_remote");
    else
        b.add("handover_remote_to_home_ns", remote, "no home-node data: = handover_remote_ns");
    if (b.has("c2c_ns.cross_socket_home_local"))
        b.handover("handover_remote_from_home_ns", "c2c_ns.cross_socket_home_local");
    else
        b.add("handover_remote_from_home_ns", remote, "no home-node data: = handover_remote_ns");

    const double bw = b.key("bw_gbps.single_thread_write");
    b.add("clear_page_ns", 4096 / bw, "4096 B / bw_gbps.single_thread_write = 4096 / " + num(bw));
    b.add("deferred_t1_ns_per_page", b.key("deferred_init.t1_ns_per_page"), "deferred_init.t1_ns_per_page");
    b.add("deferred_floor_ns_per_page", b.key("deferred_init.floor_ns_per_page"), "deferred_init.floor_ns_per_page");
    b.add("cache_lines_per_cpu", std::floor(b.key("cache.l2_kib") * 1024 / 64),
        "cache.l2_kib x 1024 / 64 B (one struct page per line)");
    // Each of two busy threads gets pair / 2 of the core, so its work takes 2 / pair times as long.
    const double smt_pair = b.key("smt.pair_throughput");
    b.add("smt_busy_sibling_factor", std::max(0.0, 2 / smt_pair - 1),
        "2 / smt.pair_throughput - 1 = 2 / " + num(smt_pair) + " - 1");
    return b.out;
}

// The keys build() reads, for is_cost_model_key().
const std::set<std::string>& rate_keys()
{
    static const std::set<std::string> k
        = {"page_ns.list_op_hot", "cache.l2_hit_cycles", "clock_ghz", "page_ns.struct_page_miss", "dram_ns.remote",
            "dram_ns.remote_1hop", "dram_ns.remote_2hop", "topology.two_hop_share", "page_ns.seq_struct_page_touch",
            "page_ns.pcp_alloc_free_pair_hot", "lock_ns.lock_unlock_irqsave", "lock_ns.handover_factor", "c2c_ns.smt",
            "c2c_ns.same_socket_other_ccx", "c2c_ns.same_socket_other_tile", "c2c_ns.same_socket",
            "c2c_ns.same_socket_other_ccx_home_remote", "c2c_ns.home_remote_extra", "c2c_ns.cross_socket",
            "c2c_ns.cross_socket_home_local", "c2c_ns.cross_socket_home_remote", "c2c_ns.cross_socket_1hop",
            "c2c_ns.cross_socket_2hop", "bw_gbps.single_thread_write", "deferred_init.t1_ns_per_page",
            "deferred_init.floor_ns_per_page", "cache.l2_kib", "smt.pair_throughput"};
    return k;
}

} // namespace

std::vector<derived_rate> explain_rates(const cost_model& m)
{
    return build(m);
}

cost_rates compile_rates(const cost_model& m)
{
    cost_rates r;
    for (const auto& d : build(m)) {
        const std::string& n = d.name;
        if (n == "list_op_ns")
            r.list_op_ns = d.value;
        else if (n == "page_hit_ns")
            r.page_hit_ns = d.value;
        else if (n == "page_miss_local_ns")
            r.page_miss_local_ns = d.value;
        else if (n == "page_miss_remote_ns")
            r.page_miss_remote_ns = d.value;
        else if (n == "merge_step_ns")
            r.merge_step_ns = d.value;
        else if (n == "split_step_ns")
            r.split_step_ns = d.value;
        else if (n == "call_ns")
            r.call_ns = d.value;
        else if (n == "lock_ns")
            r.lock_ns = d.value;
        else if (n == "handover_smt_ns")
            r.handover_smt_ns = d.value;
        else if (n == "handover_socket_ns")
            r.handover_socket_ns = d.value;
        else if (n == "handover_remote_ns")
            r.handover_remote_ns = d.value;
        else if (n == "handover_socket_home_remote_ns")
            r.handover_socket_home_remote_ns = d.value;
        else if (n == "handover_remote_to_home_ns")
            r.handover_remote_to_home_ns = d.value;
        else if (n == "handover_remote_from_home_ns")
            r.handover_remote_from_home_ns = d.value;
        else if (n == "clear_page_ns")
            r.clear_page_ns = d.value;
        else if (n == "deferred_t1_ns_per_page")
            r.deferred_t1_ns_per_page = d.value;
        else if (n == "deferred_floor_ns_per_page")
            r.deferred_floor_ns_per_page = d.value;
        else if (n == "cache_lines_per_cpu")
            r.cache_lines_per_cpu = static_cast<int>(d.value);
        else if (n == "smt_busy_sibling_factor")
            r.smt_busy_sibling_factor = d.value;
        else
            throw std::logic_error("compile_rates: unhandled rate " + n);
    }
    return r;
}

double work_ns(const cost_rates& r, const mm::mm_work& w)
{
    // pages_initialised is left out: deferred init is priced by deferred_init_ms. pageblock_moves and the
    // page counts are not steps of their own: their list ops and touches are counted separately.
    // A fallback search is priced by what dominates it: the pageblock walk of each claim attempt, a struct page
    // touch per frame (prep_move_freepages_block). Its looks at each order's list heads (fallback_area_checks)
    // are not priced, as no free-list emptiness test is (__rmqueue_smallest's neither): hot reads of struct
    // zone, about 1% of one walk. claim_searches only counts the searches.
    return static_cast<double>(w.pcp_list_ops + w.buddy_list_ops) * r.list_op_ns
        + static_cast<double>(w.merge_steps) * r.merge_step_ns + static_cast<double>(w.split_steps) * r.split_step_ns
        + static_cast<double>(w.page_touch_hit) * r.page_hit_ns
        + static_cast<double>(w.page_touch_local) * r.page_miss_local_ns
        + static_cast<double>(w.page_touch_remote) * r.page_miss_remote_ns;
}

double deferred_init_ns_per_page(const cost_rates& r, int threads)
{
    return std::max(r.deferred_t1_ns_per_page / std::max(1, threads), r.deferred_floor_ns_per_page);
}

double deferred_init_ms(const cost_rates& r, unsigned long pages, int threads)
{
    return static_cast<double>(pages) * deferred_init_ns_per_page(r, threads) / 1e6;
}

double handover_ns(const cost_rates& r, bool smt_sibling, bool same_socket, bool holder_on_home, bool acquirer_on_home)
{
    if (smt_sibling) return r.handover_smt_ns;
    if (same_socket) return acquirer_on_home ? r.handover_socket_ns : r.handover_socket_home_remote_ns;
    // Intel MLC: a line homed in the reader's socket costs more than one homed in the writer's ([C4]).
    if (acquirer_on_home) return r.handover_remote_to_home_ns;
    if (holder_on_home) return r.handover_remote_from_home_ns;
    return r.handover_remote_to_home_ns; // homed on a third socket: not the writer's either
}

cost_model cost_model_for(const mm::machine_spec& spec)
{
    std::string why;
    cost_model m = class_defaults(infer_cost_class(spec, &why));
    m.class_reason = why;
    for (const auto& [key, value] : spec.cost_model) {
        std::string source = "preset";
        if (const cost_param* d = m.find(key))
            source += (d->value == value ? " (= class default; " : " (class default " + num(d->value) + "; ")
                + d->source + ")";
        m.set(key, value, source);
    }
    return m;
}

bool is_cost_model_key(const std::string& key)
{
    if (rate_keys().count(key)) return true;
    for (const auto& cls : cost_class_names())
        if (class_defaults(cls).find(key)) return true;
    return false;
}

} // namespace pcplab::sim
