// What the condition language can read: the snapshot's own fields (global scope) and the records of its
// collections (zones, pagesets, cpus, events, nodes), each field with its type and a one-line meaning.
// The tables are the single source for name resolution, for "known fields" in error messages and for the
// field list in lessons/README.md (test: every field named there exists here).
#pragma once

#include "lessons/expr.hpp"
#include "lessons/expr_value.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pcplab::lessons
{

enum class scope { global, zones, pagesets, cpus, events, nodes };
inline constexpr scope k_collections[] = {scope::zones, scope::pagesets, scope::cpus, scope::events, scope::nodes};
const char* scope_name(scope s); // "zones", ...; "snapshot" for global
std::optional<scope> collection_from_name(std::string_view name);

// Reads one field of record `index` of the field's scope (index unused for global fields). `arg` is the
// value inside [ ] for indexed fields (nr_free[order]); 0 otherwise. Throws eval_failure when the value
// does not exist (an index out of range).
using field_getter = std::function<value(const eval_context& ctx, std::size_t index, long arg)>;

struct field_def {
    std::string name; // dotted: "lock.hold_max_ns", "caller.free_pcppages_bulk.holds"
    vtype type = vtype::number;
    bool indexed = false; // takes [N]
    std::string what; // one line, for the README and error messages
    field_getter get;
};

const std::vector<field_def>& fields_of(scope s);
const field_def* find_field(scope s, std::string_view name);
// Number of records of a collection in this context (events: the step's events).
std::size_t collection_size(const eval_context& ctx, scope s);

// Raised while evaluating; turned into the "why it has no value" string of compiled_expr::evaluate.
struct eval_failure {
    std::string message;
};

} // namespace pcplab::lessons
