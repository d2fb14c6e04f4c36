// run_summary as JSON, and K runs merged into mean / standard deviation figure by figure.
#include "sim/run_summary.hpp"
#include "sim/run_summary_detail.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>

namespace pcplab::sim
{

using detail::ojson;

mean_stddev compute_mean_stddev(const std::vector<double>& values)
{
    mean_stddev r;
    if (values.empty()) return r;
    double sum = 0;
    for (double v : values) sum += v;
    r.mean = sum / static_cast<double>(values.size());
    if (values.size() < 2) return r;
    double sq = 0;
    for (double v : values) sq += (v - r.mean) * (v - r.mean);
    r.stddev = std::sqrt(sq / static_cast<double>(values.size() - 1));
    return r;
}

namespace detail
{

namespace
{

ojson zone_object(const zone_summary& z)
{
    ojson o;
    o["node"] = z.node;
    o["zone"] = z.name;
    o["zone_idx"] = z.zone;
    o["managed_pages"] = z.managed_pages;
    o["batch"] = z.batch;
    o["high"] = z.high;
    if (z.autotune) {
        o["high_min"] = z.high_min;
        o["high_max"] = z.high_max;
        o["pcp_high_mean"] = z.pcp_high_mean;
    }
    o["pcp_pages"] = z.pcp_pages;
    ojson lock;
    lock["acquisitions"] = z.acquisitions;
    lock["contended"] = z.contended;
    lock["wait_ns_total"] = z.wait_ns_total;
    lock["wait_ns_max"] = z.wait_ns_max;
    lock["hold_ns_total"] = z.hold_ns_total;
    lock["hold_ns_max"] = z.hold_ns_max;
    lock["hold_ns_p99"] = z.hold_ns_p99;
    lock["max_pages_per_hold"] = z.max_pages_per_hold;
    lock["holds_over_threshold"] = z.holds_over_threshold;
    lock["waits_over_threshold"] = z.waits_over_threshold;
    lock["hold_hist_log2"] = z.hold_hist_log2;
    lock["waiting_ns"] = z.waiting_ns;
    o["lock"] = std::move(lock);
    o["contention_pct"] = z.contention_pct;
    ojson callers = ojson::object();
    for (const auto& c : z.callers)
        callers[c.name] = ojson{{"holds", c.holds}, {"hold_ns_total", c.hold_ns_total}, {"max_pages", c.max_pages}};
    o["callers"] = std::move(callers);
    return o;
}

ojson totals_object(const run_totals& t)
{
    return ojson{{"allocs", t.allocs}, {"frees", t.frees}, {"alloc_failures", t.alloc_failures},
        {"pcp_hits", t.pcp_hits}, {"zone_allocs", t.zone_allocs}, {"refills", t.refills}, {"drains", t.drains},
        {"free_high_drains", t.free_high_drains}, {"pcp_resident_pages", t.pcp_resident_pages},
        {"reclaimed_pages", t.reclaimed_pages}, {"pcp_trylock_failures", t.pcp_trylock_failures},
        {"remote_work_items", t.remote_work_items}, {"claim_searches", t.claim_searches}, {"sys_ns", t.sys_ns},
        {"user_ns", t.user_ns}, {"idle_ns", t.idle_ns}, {"spin_ns", t.spin_ns}, {"elapsed_ns", t.elapsed_ns},
        {"score", t.score}, {"any_context_allocs", t.any_context.allocs},
        {"any_context_failures", t.any_context.failures},
        {"any_context_failures_deferred_init", t.any_context.failures_deferred_init},
        {"any_context_spin_ns", t.any_context.spin_ns}, {"any_context_frees", t.any_context.frees},
        {"any_context_frees_over_high", t.any_context.frees_over_high},
        {"any_context_over_high_pages_max", t.any_context.over_high_pages_max},
        {"any_context_over_high_ns_max", t.any_context.over_high_ns_max}, {"any_context_parked", t.any_context.parked},
        {"irq_arrivals", t.irq.arrivals}, {"irq_allocs", t.irq.allocs}, {"irq_alloc_failures", t.irq.alloc_failures},
        {"irq_frees", t.irq.frees}, {"irq_pcp_fallbacks", t.irq.pcp_fallbacks}, {"irq_delayed", t.irq.delayed},
        {"irq_delay_ns_total", t.irq.delay_ns_total}, {"irq_delay_ns_max", t.irq.delay_ns_max},
        {"irq_irqs_off_ns_max", t.irq.irqs_off_ns_max}, {"irq_irqs_off_ns_total", t.irq.irqs_off_ns_total},
        {"irq_spin_ns", t.irq.spin_ns}};
}

// Fields that name the configuration rather than measure it: a repeat keeps the first run's value.
bool is_config_key(std::string_view key)
{
    static const std::set<std::string_view> keys
        = {"seed", "intensity", "hold_threshold_ns", "init_threads", "node", "zone_idx", "threads"};
    return keys.count(key) != 0;
}

// Merge the i-th values of several runs (null where a run lacks the field: 0 for numbers).
ojson merge_values(const std::vector<const ojson*>& vals, std::string_view key)
{
    const ojson* first = nullptr;
    for (const ojson* v : vals)
        if (v && !v->is_null()) {
            first = v;
            break;
        }
    if (!first) return nullptr;

    if (first->is_object()) {
        ojson out = ojson::object();
        std::vector<std::string> keys; // union of keys, in first-seen order
        for (const ojson* v : vals)
            if (v && v->is_object())
                for (auto it = v->begin(); it != v->end(); ++it)
                    if (std::find(keys.begin(), keys.end(), it.key()) == keys.end()) keys.push_back(it.key());
        for (const auto& k : keys) {
            std::vector<const ojson*> sub;
            for (const ojson* v : vals) sub.push_back(v && v->is_object() && v->contains(k) ? &(*v)[k] : nullptr);
            out[k] = merge_values(sub, k);
        }
        return out;
    }
    if (first->is_array()) {
        ojson out = ojson::array();
        for (std::size_t i = 0; i < first->size(); ++i) {
            std::vector<const ojson*> sub;
            for (const ojson* v : vals) sub.push_back(v && v->is_array() && i < v->size() ? &(*v)[i] : nullptr);
            out.push_back(merge_values(sub, key));
        }
        return out;
    }
    if (first->is_number() && !is_config_key(key)) {
        std::vector<double> xs;
        for (const ojson* v : vals) xs.push_back(v && v->is_number() ? v->get<double>() : 0.0);
        auto ms = compute_mean_stddev(xs);
        return ojson{{"mean", ms.mean}, {"stddev", ms.stddev}};
    }
    // Strings, booleans and configuration numbers: one value when all runs agree, else every run's value.
    ojson all = ojson::array();
    bool same = true;
    for (const ojson* v : vals) {
        ojson x = v ? *v : ojson(nullptr);
        if (x != *first) same = false;
        all.push_back(std::move(x));
    }
    if (same || is_config_key(key)) return *first;
    return all;
}

} // namespace

ojson run_summary_object(const run_summary& s)
{
    ojson o;
    o["preset"] = s.preset;
    o["era"] = s.era;
    o["requested_era"] = s.requested_era;
    ojson patches = ojson::object();
    for (const auto& [name, on] : s.patches) patches[name] = on;
    o["patches"] = std::move(patches);
    if (!s.patch_origins.empty()) {
        ojson origins = ojson::object();
        for (std::size_t i = 0; i < s.patches.size() && i < s.patch_origins.size(); ++i)
            origins[s.patches[i].first] = s.patch_origins[i];
        o["patch_origins"] = std::move(origins);
    }
    o["init_threads"] = s.init_threads;
    o["workload"] = s.workload;
    ojson params = ojson::object();
    for (const auto& [k, v] : s.workload_params) params[k] = v;
    o["workload_params"] = std::move(params);
    o["intensity"] = s.intensity;
    o["seed"] = s.seed;
    o["hold_threshold_ns"] = s.hold_threshold_ns;
    o["stop_reason"] = s.stop_reason;
    o["sim_time_ns"] = s.sim_time_ns;
    o["events"] = s.events;
    o["wall_ns"] = s.wall_ns;
    o["boot_times"] = ojson{{"deferred_init_start_ns", s.deferred_init_start_ns}, {"init_end_ns", s.init_end_ns},
        {"workload_start_ns", s.workload_start_ns}};
    if (s.continuous) o["rounds"] = s.rounds;
    o["totals"] = totals_object(s.totals);
    o["work_units"] = s.work_units;
    o["score_unit"] = s.score_unit;
    o["seed_measure"] = ojson{{"name", s.seed_measure}, {"value", s.seed_measure_value}};
    ojson zones = ojson::array();
    for (const auto& z : s.zones) zones.push_back(zone_object(z));
    o["zones"] = std::move(zones);
    if (s.has_pcp_lock)
        o["pcp_lock"] = ojson{{"acquisitions", s.pcp_lock.acquisitions}, {"contended", s.pcp_lock.contended},
            {"wait_ns_total", s.pcp_lock.wait_ns_total}, {"hold_ns_total", s.pcp_lock.hold_ns_total}};
    ojson boot = ojson::array();
    for (const auto& b : s.boot)
        boot.push_back(ojson{{"node", b.node}, {"threads", b.threads}, {"pages", b.pages},
            {"modelled_ms", b.modelled_ms}, {"host_ms", b.host_ms}, {"done_at_ns", b.done_at_ns}});
    o["boot"] = std::move(boot);
    return o;
}

ojson run_repeat_object(const std::vector<run_summary>& runs)
{
    std::vector<ojson> objs;
    for (const auto& r : runs) objs.push_back(run_summary_object(r));
    std::vector<const ojson*> ptrs;
    for (const auto& o : objs) ptrs.push_back(&o);
    ojson out = merge_values(ptrs, "");
    if (out.is_null()) out = ojson::object();
    if (!objs.empty()) out["workload_params"] = objs.front()["workload_params"]; // configuration, not figures
    out["repeat"] = runs.size();
    ojson seeds = ojson::array();
    for (const auto& r : runs) seeds.push_back(r.seed);
    out["seeds"] = std::move(seeds);
    return out;
}

} // namespace detail

std::string run_summary_json(const run_summary& s)
{
    return detail::run_summary_object(s).dump() + "\n";
}

std::string run_repeat_json(const std::vector<run_summary>& runs)
{
    return detail::run_repeat_object(runs).dump() + "\n";
}

std::string run_summary_text(const run_summary& s)
{
    return detail::run_object_text(detail::run_summary_object(s));
}

std::string run_repeat_text(const std::vector<run_summary>& runs)
{
    return detail::run_object_text(detail::run_repeat_object(runs));
}

} // namespace pcplab::sim
