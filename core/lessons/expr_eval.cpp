// Evaluating a compiled expression on a snapshot, and explaining the result for a check report.
#include "lessons/expr.hpp"

#include "lessons/expr_ast.hpp"

#include "sim/snapshot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pcplab::lessons
{

namespace
{

struct frame {
    const eval_context* ctx;
    std::size_t record = 0; // inside an aggregate: the record being looked at
};

value eval(const expr_node& n, const frame& f);

double eval_number(const expr_node& n, const frame& f)
{
    return eval(n, f).number;
}

bool eval_bool(const expr_node& n, const frame& f)
{
    return eval(n, f).boolean;
}

bool equal(const value& a, const value& b)
{
    switch (a.type) {
    case vtype::number:
        return a.number == b.number;
    case vtype::string:
        return a.text == b.text;
    case vtype::boolean:
        return a.boolean == b.boolean;
    }
    return false;
}

bool compare(const std::string& op, const value& a, const value& b)
{
    if (op == "==") return equal(a, b);
    if (op == "!=") return !equal(a, b);
    if (op == "<") return a.number < b.number;
    if (op == "<=") return a.number <= b.number;
    if (op == ">") return a.number > b.number;
    return a.number >= b.number;
}

double arith(const std::string& op, double a, double b)
{
    if (op == "+") return a + b;
    if (op == "-") return a - b;
    if (op == "*") return a * b;
    if (b == 0) throw eval_failure{"division by zero"};
    if (op == "/") return a / b;
    return std::fmod(a, b);
}

const eval_context& kept_context(const expr_node& n, const frame& f, eval_context& storage)
{
    if (const auto* kept = f.ctx->kept) {
        auto it = kept->find(n.name);
        if (it != kept->end() && it->second.snap) {
            storage.snap = it->second.snap.get();
            storage.events = &it->second.events;
            storage.kept = kept;
            return storage;
        }
    }
    throw eval_failure{"no state kept as \"" + n.name + "\" (an earlier step needs `keep: " + n.name + "`)"};
}

// Counts the records of an aggregate that pass its filter and, for all/any, its body.
struct tally {
    std::size_t considered = 0; // records that passed the filter
    std::size_t matched = 0; // of those, the body held (all/any)
};

value eval_aggregate(const expr_node& n, const frame& outer, tally* out = nullptr)
{
    const std::size_t size = collection_size(*outer.ctx, n.collection);
    tally t;
    double acc = 0;
    bool have = false;
    for (std::size_t i = 0; i < size; ++i) {
        frame f{outer.ctx, i};
        if (n.filter && !eval_bool(*n.filter, f)) continue;
        ++t.considered;
        switch (n.agg) {
        case agg_kind::count:
            break;
        case agg_kind::all:
        case agg_kind::any:
            if (!n.body || eval_bool(*n.body, f)) ++t.matched;
            break;
        case agg_kind::sum:
        case agg_kind::mean:
            acc += eval_number(*n.body, f);
            break;
        case agg_kind::min:
        case agg_kind::max: {
            double v = eval_number(*n.body, f);
            acc = !have ? v : (n.agg == agg_kind::min ? std::min(acc, v) : std::max(acc, v));
            have = true;
            break;
        }
        }
    }
    if (out) *out = t;
    const bool empty = t.considered == 0;
    switch (n.agg) {
    case agg_kind::count:
        return value::of(static_cast<double>(t.considered));
    case agg_kind::all:
        return value::of_bool(t.matched == t.considered);
    case agg_kind::any:
        return value::of_bool(t.matched > 0);
    case agg_kind::sum:
        return value::of(acc);
    default:
        if (empty)
            throw eval_failure{n.op + "() over no " + std::string(scope_name(n.collection))
                + (n.filter ? " (none passes the 'where' filter)" : "")};
        return value::of(n.agg == agg_kind::mean ? acc / static_cast<double>(t.considered) : acc);
    }
}

value eval_function(const expr_node& n, const frame& f)
{
    std::vector<double> a;
    for (const auto& arg : n.args) a.push_back(eval_number(*arg, f));
    if (n.op == "abs") return value::of(std::fabs(a[0]));
    if (n.op == "ms") return value::of(a[0] / 1e6);
    if (n.op == "us") return value::of(a[0] / 1e3);
    if (n.op == "round") {
        // Decimal places: a whole number that a double's 15-17 significant digits can use.
        const double digits = a.size() > 1 ? a[1] : 0;
        if (digits != std::floor(digits) || std::fabs(digits) > 15)
            throw eval_failure{
                "round(): the decimal places must be a whole number from -15 to 15, not " + format_number(digits)};
        const double scale = std::pow(10.0, digits);
        return value::of(std::round(a[0] * scale) / scale);
    }
    if (n.op == "pct") {
        if (a[0] == 0) throw eval_failure{"pct(): the old value is 0"};
        return value::of((a[1] - a[0]) / a[0] * 100.0);
    }
    if (n.op == "min") return value::of(*std::min_element(a.begin(), a.end()));
    return value::of(*std::max_element(a.begin(), a.end()));
}

// A number the language cannot go on with (NaN or infinite: 1e308 * 10, round(x, 1e9)) is an evaluation
// error, so that no comparison passes or fails on it silently (NaN != x holds for every x).
value finite(const expr_node& n, value v)
{
    if (v.type != vtype::number || std::isfinite(v.number)) return v;
    const std::string what
        = n.kind == node_kind::function || n.kind == node_kind::aggregate ? n.op + "()" : "'" + n.op + "'";
    throw eval_failure{what + " gives " + format_number(v.number) + ", not a finite number"};
}

value eval_node(const expr_node& n, const frame& f);

value eval(const expr_node& n, const frame& f)
{
    return finite(n, eval_node(n, f));
}

value eval_node(const expr_node& n, const frame& f)
{
    switch (n.kind) {
    case node_kind::literal:
        return n.literal;
    case node_kind::negate:
        return value::of(-eval_number(*n.args[0], f));
    case node_kind::logical_not:
        return value::of_bool(!eval_bool(*n.args[0], f));
    case node_kind::arith:
        return value::of(arith(n.op, eval_number(*n.args[0], f), eval_number(*n.args[1], f)));
    case node_kind::compare:
        return value::of_bool(compare(n.op, eval(*n.args[0], f), eval(*n.args[1], f)));
    case node_kind::logical:
        if (n.op == "and") return value::of_bool(eval_bool(*n.args[0], f) && eval_bool(*n.args[1], f));
        return value::of_bool(eval_bool(*n.args[0], f) || eval_bool(*n.args[1], f));
    case node_kind::field: {
        long index = 0;
        if (!n.args.empty()) {
            double d = eval_number(*n.args[0], f);
            if (d != std::floor(d)) throw eval_failure{n.op + "[" + format_number(d) + "]: the index must be whole"};
            index = static_cast<long>(d);
        }
        return n.field->get(*f.ctx, n.field_scope == scope::global ? 0 : f.record, index);
    }
    case node_kind::aggregate:
        return eval_aggregate(n, f);
    case node_kind::function:
        return eval_function(n, f);
    case node_kind::switch_on:
        return value::of_bool(f.ctx->snap->patches[n.sw]);
    case node_kind::from: {
        eval_context storage;
        const eval_context& kept = kept_context(n, f, storage);
        return eval(*n.args[0], frame{&kept, 0});
    }
    }
    return {};
}

// What a node was made of, for a report. Compares show both sides; all/any show how many records held.
std::string explain_node(const expr_node& n, const frame& f)
{
    switch (n.kind) {
    case node_kind::compare:
        return format_value(eval(*n.args[0], f)) + " " + n.op + " " + format_value(eval(*n.args[1], f));
    case node_kind::logical:
        return explain_node(*n.args[0], f) + "; " + explain_node(*n.args[1], f);
    case node_kind::logical_not:
        return "not (" + explain_node(*n.args[0], f) + ")";
    case node_kind::aggregate: {
        tally t;
        value v = eval_aggregate(n, f, &t);
        const std::string what = scope_name(n.collection);
        if (n.agg == agg_kind::all || n.agg == agg_kind::any)
            return n.op + ": " + std::to_string(t.matched) + " of " + std::to_string(t.considered) + " " + what;
        return n.op + " over " + std::to_string(t.considered) + " " + what + " = " + format_value(v);
    }
    default:
        return format_value(eval(n, f));
    }
}

} // namespace

pcplab::result<value> compiled_expr::evaluate(const eval_context& ctx) const
{
    if (!m_root) return pcplab::error("no expression");
    if (!ctx.snap) return pcplab::error("no snapshot yet");
    try {
        return eval(*m_root, frame{&ctx, 0});
    } catch (const eval_failure& e) {
        return pcplab::error(e.message);
    }
}

compiled_expr::explained compiled_expr::explain(const eval_context& ctx) const
{
    explained out;
    out.result = evaluate(ctx);
    if (out.result.ok()) {
        try {
            out.detail = explain_node(*m_root, frame{&ctx, 0});
        } catch (const eval_failure& e) {
            out.detail = e.message;
        }
    } else {
        out.detail = out.result.error().message;
    }
    return out;
}

std::vector<std::string> compiled_expr::kept_names() const
{
    std::vector<std::string> out;
    std::vector<const expr_node*> todo;
    if (m_root) todo.push_back(m_root.get());
    while (!todo.empty()) {
        const expr_node* n = todo.back();
        todo.pop_back();
        if (n->kind == node_kind::from) out.push_back(n->name);
        for (const auto& a : n->args) todo.push_back(a.get());
        if (n->filter) todo.push_back(n->filter.get());
        if (n->body) todo.push_back(n->body.get());
    }
    return out;
}

std::string format_number(double v)
{
    if (!std::isfinite(v)) return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
    char buf[64];
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else if (std::fabs(v) >= 100)
        std::snprintf(buf, sizeof buf, "%.1f", v);
    else
        std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

std::string format_value(const value& v)
{
    switch (v.type) {
    case vtype::number:
        return format_number(v.number);
    case vtype::boolean:
        return v.boolean ? "true" : "false";
    case vtype::string:
        return "\"" + v.text + "\"";
    }
    return "";
}

} // namespace pcplab::lessons
