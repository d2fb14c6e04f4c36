// The cost model: nanoseconds per allocator step, per struct-page miss (local / remote), per lock
// acquisition and hand-over. Defaults per machine class from shared/reference/cost-model-sources.md,
// each tied to its source; overridable per preset ("cost_model" keys); shown as "model assumptions".
#pragma once

#include "mm/machine_spec.hpp"
#include "mm/mm_work.hpp"

#include <string>
#include <vector>

namespace pcplab::sim
{

struct cost_param {
    std::string key; // preset key, e.g. "dram_ns.local"
    double value = 0; // ns (or a factor)
    std::string what; // one line: what it prices
    std::string source; // e.g. "[M5] AnandTech Rome review, H" or "preset override"
};

struct cost_model {
    std::string machine_class; // e.g. "amd_rome_2s"
    std::vector<cost_param> params;
    std::string class_title; // e.g. "AMD EPYC 2 \"Rome\" 2S (7742-class), cost-model-sources.md 5b"
    std::string class_reason; // how the class was chosen for the preset (for the user)

    double get(const std::string& key) const; // throws std::out_of_range for an unknown key
    const cost_param* find(const std::string& key) const; // nullptr for an unknown key
    // Replaces the value and source of `key`; a key the model lacks is appended (`what` says so).
    // Returns true when the key existed.
    bool set(const std::string& key, double v, const std::string& source);
};

// The parameters the engine needs, resolved to numbers once (the hot path must not look up strings).
struct cost_rates {
    double list_op_ns = 1; // one PCP or free-list link/unlink (cache-hot)
    double page_hit_ns = 2; // a struct page touch that hits the CPU's cache
    double page_miss_local_ns = 100; // ... that misses to the local node's DRAM
    double page_miss_remote_ns = 150; // ... to a remote node
    double merge_step_ns = 2; // bookkeeping of one buddy merge (its touches are priced separately)
    double split_step_ns = 2;
    double call_ns = 20; // fixed cost of one allocator call (gfp checks, stats, IRQ off/on)
    double lock_ns = 10; // uncontended spin_lock + spin_unlock
    double handover_smt_ns = 12; // lock line moving to the SMT sibling (c2c x handover_factor)
    double handover_socket_ns = 70; // ... to another core of the same socket / L3 domain
    double handover_remote_ns = 180; // ... to another socket
    double clear_page_ns = 300; // user time to write one 4 KiB page (single-thread write bandwidth)
    double deferred_t1_ns_per_page = 16; // deferred init, one thread
    double deferred_floor_ns_per_page = 1.5; // memory-bandwidth floor of a node
    int cache_lines_per_cpu = 16384; // struct pages a CPU's caches keep (for the hit/miss model)
    // Extra time user code takes while its SMT sibling is busy, as a share of its time alone: 2 / pair - 1
    // where pair is what two busy threads of one core do together (0: a sibling costs nothing).
    double smt_busy_sibling_factor = 0;
    // Where the lock word's home node matters (cost-model-sources §1b, §5a). Each defaults to the plain
    // rate above when the class shows no home-node effect; handover_ns() picks among them.
    double handover_socket_home_remote_ns = 70; // same socket, lock word homed on another socket (Rome: 2x)
    double handover_remote_to_home_ns = 180; // cross-socket, the acquiring CPU is on the home node
    double handover_remote_from_home_ns = 180; // cross-socket, the previous holder is on the home node
};
cost_rates compile_rates(const cost_model& m); // throws std::out_of_range naming a missing key
// The cost of allocator work (everything in mm_work except what the lock model charges itself).
double work_ns(const cost_rates& r, const mm::mm_work& w);
// Modelled deferred-init time of one node: pages x max(t1 / threads, floor) (cost-model-sources §5a).
double deferred_init_ms(const cost_rates& r, unsigned long pages, int threads);
// The per-page rate of that model: max(t1 / threads, floor) ns (threads < 1 count as one).
double deferred_init_ns_per_page(const cost_rates& r, int threads);

// The cost of one lock hand-over from the previous holder to the acquiring CPU. `holder_on_home` /
// `acquirer_on_home`: the CPU sits on the socket of the lock word's home node (the zone's node).
double handover_ns(const cost_rates& r, bool smt_sibling, bool same_socket, bool holder_on_home, bool acquirer_on_home);

// Each rate of compile_rates with the formula that produced it, for "model assumptions" displays.
struct derived_rate {
    std::string name; // the cost_rates field, e.g. "handover_socket_ns"
    double value = 0;
    std::string formula; // e.g. "lock_ns.handover_factor x c2c_ns.same_socket_other_ccx = 1.5 x 125"
};
std::vector<derived_rate> explain_rates(const cost_model& m);

// Defaults for the preset's machine class (chosen from the preset, else a generic desktop class), with the
// preset's cost_model overrides applied.
cost_model cost_model_for(const mm::machine_spec& spec);

// The machine classes (cost-model-sources.md 5b-5h, plus "generic_desktop").
std::vector<std::string> cost_class_names();
// A class's defaults without overrides; throws std::out_of_range for an unknown class.
cost_model class_defaults(const std::string& machine_class);
// The class cost_model_for picks for `spec`, and why (one line).
std::string infer_cost_class(const mm::machine_spec& spec, std::string* reason = nullptr);
// Whether a preset's cost_model may set `key`: some machine class defines it or some rate reads it. The preset
// loader refuses any other key (a typo would otherwise change nothing, silently).
bool is_cost_model_key(const std::string& key);

} // namespace pcplab::sim
