// The compiled form of a condition-language expression (internal to core/lessons): a typed tree whose
// names are already resolved to field getters.
#pragma once

#include "lessons/expr_fields.hpp"

#include "mm/patch_switches.hpp"

#include <memory>
#include <string>
#include <vector>

namespace pcplab::lessons
{

enum class node_kind {
    literal,
    negate,
    logical_not,
    arith, // + - * / %
    compare, // == != < <= > >=
    logical, // and, or
    field, // a field of the snapshot or of the current record; args[0] = the index of an indexed field
    aggregate, // count/all/any/sum/min/max/mean over a collection
    function, // abs, round, pct, min, max, ms, us
    switch_on, // switch_on("NAME")
    from, // from("NAME", expr): expr on a kept state
};

enum class agg_kind { count, all, any, sum, min, max, mean };

struct expr_node {
    node_kind kind = node_kind::literal;
    vtype type = vtype::number;
    int column = 0; // where it starts in the text (1-based)
    int height = 1; // levels of nodes from here down (1 for a leaf): what evaluating it recurses through
    std::string op; // the operator or function name, as written
    value literal;
    std::vector<std::shared_ptr<const expr_node>> args;

    const field_def* field = nullptr; // node_kind::field
    scope field_scope = scope::global; // global, or the record scope it reads
    agg_kind agg = agg_kind::count; // node_kind::aggregate
    scope collection = scope::zones;
    std::shared_ptr<const expr_node> filter; // `where` (may be null)
    std::shared_ptr<const expr_node> body; // the per-record expression (null for count / any without one)
    std::string name; // switch_on's switch / from's kept state
    mm::patch sw = mm::patch::pcp_update_after_deferred_init;
};

using node_ptr = std::shared_ptr<const expr_node>;

} // namespace pcplab::lessons
