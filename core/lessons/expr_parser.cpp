// The condition language's parser: recursive descent over the tokens, resolving every name and checking
// every type as it goes, so that a lesson with a misspelt field fails to load with the column of the name.
//
//   expr    := or
//   or      := and ("or" and)*
//   and     := not ("and" not)*
//   not     := "not" not | compare
//   compare := sum (("==" | "!=" | "<" | "<=" | ">" | ">=") sum)?
//   sum     := product (("+" | "-") product)*
//   product := unary (("*" | "/" | "%") unary)*
//   unary   := "-" unary | primary
//   primary := NUMBER | STRING | "true" | "false" | "(" expr ")" | NAME ("[" expr "]")? | call
//   call    := AGG "(" COLLECTION ("where" expr)? ("," expr)? ")" | FUNCTION "(" expr ("," expr)* ")"
#include "lessons/expr.hpp"

#include "lessons/expr_ast.hpp"
#include "lessons/expr_lexer.hpp"

#include <algorithm>
#include <optional>

namespace pcplab::lessons
{

namespace
{

struct parse_failure {
    pcplab::error error;
};

// Deeper nesting than any lesson needs; beyond it the recursive descent would exhaust the stack. The tree the
// parser builds has the same bound on its height: evaluating (and freeing) it recurses once per level, and a
// chain of operators (1 + 1 + ... + 1) is a level per operator although the parser reads it in a loop.
constexpr int k_max_depth = 100;

const char* const k_aggregates[] = {"count", "all", "any", "sum", "min", "max", "mean"};
const char* const k_functions[] = {"abs", "round", "pct", "min", "max", "ms", "us", "switch_on", "from"};

std::optional<agg_kind> aggregate_from_name(const std::string& n)
{
    static const agg_kind kinds[]
        = {agg_kind::count, agg_kind::all, agg_kind::any, agg_kind::sum, agg_kind::min, agg_kind::max, agg_kind::mean};
    for (std::size_t i = 0; i < std::size(k_aggregates); ++i)
        if (n == k_aggregates[i]) return kinds[i];
    return std::nullopt;
}

bool is_function(const std::string& n)
{
    for (const char* f : k_functions)
        if (n == f) return true;
    return false;
}

class parser
{
public:
    explicit parser(std::vector<token> toks)
        : m_toks(std::move(toks))
    {
    }

    node_ptr parse_all()
    {
        node_ptr n = parse_or();
        if (peek().kind != tok::end) fail(peek(), "unexpected '" + peek().text + "' after a complete expression");
        return n;
    }

private:
    std::vector<token> m_toks;
    std::size_t m_pos = 0;
    scope m_scope = scope::global; // the record scope inside an aggregate
    bool m_in_from = false;
    int m_depth = 0;

    // Counts one level of nesting (parentheses, arguments, indices, prefix operators) for its lifetime.
    struct nesting {
        parser& p;
        nesting(parser& owner, const token& at)
            : p(owner)
        {
            if (++p.m_depth > k_max_depth)
                fail(at, "the expression nests more than " + std::to_string(k_max_depth) + " levels deep");
        }
        ~nesting() { --p.m_depth; }
    };

    const token& peek(std::size_t ahead = 0) const { return m_toks[std::min(m_pos + ahead, m_toks.size() - 1)]; }
    const token& next() { return m_toks[std::min(m_pos++, m_toks.size() - 1)]; }
    [[noreturn]] static void fail(const token& t, const std::string& message)
    {
        throw parse_failure{pcplab::error(message).at_column(t.column)};
    }
    [[noreturn]] static void fail_at(int column, const std::string& message)
    {
        throw parse_failure{pcplab::error(message).at_column(column)};
    }

    bool is_word(const char* w) const { return peek().kind == tok::name && peek().text == w; }
    bool is_op(const char* o) const { return peek().kind == tok::op && peek().text == o; }
    void expect(tok k, const char* what)
    {
        if (peek().kind != k) {
            const token& t = peek();
            fail(
                t, std::string("expected ") + what + (t.kind == tok::end ? " at the end" : ", found '" + t.text + "'"));
        }
        next();
    }

    static void want_type(const node_ptr& n, vtype t, const std::string& where)
    {
        if (n->type != t)
            fail_at(n->column, where + " needs a " + vtype_name(t) + ", but this is a " + vtype_name(n->type));
    }

    // Sets n's height from its children, refusing a tree deeper than k_max_depth as soon as it grows so deep
    // (so a long chain fails before it is built any further).
    static void set_height(expr_node& n)
    {
        int below = 0;
        for (const auto& a : n.args) below = std::max(below, a->height);
        if (n.filter) below = std::max(below, n.filter->height);
        if (n.body) below = std::max(below, n.body->height);
        n.height = below + 1;
        if (n.height > k_max_depth)
            fail_at(n.column,
                "the expression is more than " + std::to_string(k_max_depth)
                    + " operations deep (a chain such as a + b + c counts one level per operator)");
    }

    static std::shared_ptr<expr_node> make(node_kind k, vtype t, int column, std::string op = {})
    {
        auto n = std::make_shared<expr_node>();
        n->kind = k;
        n->type = t;
        n->column = column;
        n->op = std::move(op);
        return n;
    }

    node_ptr parse_logical(const char* word, node_ptr (parser::*sub)())
    {
        node_ptr left = (this->*sub)();
        while (is_word(word)) {
            const token& t = next();
            node_ptr right = (this->*sub)();
            want_type(left, vtype::boolean, std::string("'") + word + "'");
            want_type(right, vtype::boolean, std::string("'") + word + "'");
            auto n = make(node_kind::logical, vtype::boolean, left->column, t.text);
            n->args = {left, right};
            set_height(*n);
            left = n;
        }
        return left;
    }
    node_ptr parse_or()
    {
        nesting guard(*this, peek());
        return parse_logical("or", &parser::parse_and);
    }
    node_ptr parse_and() { return parse_logical("and", &parser::parse_not); }

    node_ptr parse_not()
    {
        if (is_word("not")) {
            const token& t = next();
            nesting guard(*this, t);
            node_ptr inner = parse_not();
            want_type(inner, vtype::boolean, "'not'");
            auto n = make(node_kind::logical_not, vtype::boolean, t.column, "not");
            n->args = {inner};
            set_height(*n);
            return n;
        }
        return parse_compare();
    }

    node_ptr parse_compare()
    {
        node_ptr left = parse_sum();
        static const char* ops[] = {"==", "!=", "<", "<=", ">", ">="};
        for (const char* op : ops)
            if (is_op(op)) {
                const token& t = next();
                node_ptr right = parse_sum();
                const bool ordering = t.text != "==" && t.text != "!=";
                if (left->type != right->type)
                    fail(t,
                        "'" + t.text + "' compares a " + vtype_name(left->type) + " with a " + vtype_name(right->type));
                if (ordering && left->type != vtype::number)
                    fail(t, "'" + t.text + "' orders numbers only, not " + vtype_name(left->type) + "s");
                auto n = make(node_kind::compare, vtype::boolean, left->column, t.text);
                n->args = {left, right};
                set_height(*n);
                if (is_op("==") || is_op("!=") || is_op("<") || is_op("<=") || is_op(">") || is_op(">="))
                    fail(peek(), "comparisons do not chain: write a < b and b < c");
                return n;
            }
        return left;
    }

    node_ptr parse_arith(const std::vector<const char*>& ops, node_ptr (parser::*sub)())
    {
        node_ptr left = (this->*sub)();
        for (;;) {
            const char* found = nullptr;
            for (const char* op : ops)
                if (is_op(op)) found = op;
            if (!found) return left;
            const token& t = next();
            node_ptr right = (this->*sub)();
            want_type(left, vtype::number, "'" + t.text + "'");
            want_type(right, vtype::number, "'" + t.text + "'");
            auto n = make(node_kind::arith, vtype::number, left->column, t.text);
            n->args = {left, right};
            set_height(*n);
            left = n;
        }
    }
    node_ptr parse_sum() { return parse_arith({"+", "-"}, &parser::parse_product); }
    node_ptr parse_product() { return parse_arith({"*", "/", "%"}, &parser::parse_unary); }

    node_ptr parse_unary()
    {
        if (is_op("-")) {
            const token& t = next();
            nesting guard(*this, t);
            node_ptr inner = parse_unary();
            want_type(inner, vtype::number, "'-'");
            auto n = make(node_kind::negate, vtype::number, t.column, "-");
            n->args = {inner};
            set_height(*n);
            return n;
        }
        return parse_primary();
    }

    node_ptr parse_primary()
    {
        const token& t = peek();
        switch (t.kind) {
        case tok::number: {
            next();
            auto n = make(node_kind::literal, vtype::number, t.column);
            n->literal = value::of(t.number);
            return n;
        }
        case tok::string: {
            next();
            auto n = make(node_kind::literal, vtype::string, t.column);
            n->literal = value::of_text(t.text);
            return n;
        }
        case tok::lparen: {
            next();
            node_ptr inner = parse_or();
            expect(tok::rparen, "')'");
            return inner;
        }
        case tok::name:
            return parse_name();
        case tok::end:
            fail(t, "the expression ends too early");
        default:
            fail(t, "unexpected '" + t.text + "'");
        }
    }

    node_ptr parse_name()
    {
        const token t = next();
        if (t.text == "true" || t.text == "false") {
            auto n = make(node_kind::literal, vtype::boolean, t.column);
            n->literal = value::of_bool(t.text == "true");
            return n;
        }
        if (peek().kind == tok::lparen) return parse_call(t);
        if (t.text == "where" || t.text == "and" || t.text == "or" || t.text == "not")
            fail(t, "'" + t.text + "' cannot start a value");
        if (collection_from_name(t.text))
            fail(t,
                "'" + t.text + "' is a collection: use it inside count(), all(), any(), sum(), min(), max(), mean()");
        return parse_field(t);
    }

    node_ptr parse_field(const token& t)
    {
        const field_def* f = nullptr;
        scope where = m_scope;
        if (m_scope != scope::global) f = find_field(m_scope, t.text);
        if (!f) {
            where = scope::global;
            f = find_field(scope::global, t.text);
        }
        if (!f) fail(t, unknown_name_message(t.text));
        auto n = make(node_kind::field, f->type, t.column, t.text);
        n->field = f;
        n->field_scope = where;
        if (f->indexed) {
            if (peek().kind != tok::lbracket) fail(t, "'" + t.text + "' needs an index: " + t.text + "[N]");
            next();
            node_ptr index = parse_or();
            want_type(index, vtype::number, "an index");
            expect(tok::rbracket, "']'");
            n->args = {index};
            set_height(*n);
        } else if (peek().kind == tok::lbracket) {
            fail(peek(), "'" + t.text + "' takes no index");
        }
        return n;
    }

    std::string unknown_name_message(const std::string& name) const
    {
        std::string m = "unknown name '" + name + "'";
        if (m_scope != scope::global) {
            std::string known;
            for (const auto& f : fields_of(m_scope))
                if (f.name.rfind("caller.", 0) != 0) known += (known.empty() ? "" : ", ") + f.name;
            m += " (fields of " + std::string(scope_name(m_scope)) + ": " + known + ", and the snapshot's fields)";
        } else {
            m += " (a snapshot field such as sys_ns or totals.allocs, or a collection inside count(), all(), ...)";
        }
        return m;
    }

    node_ptr parse_call(const token& name)
    {
        next(); // (
        auto agg = aggregate_from_name(name.text);
        const bool collection_next = peek().kind == tok::name && collection_from_name(peek().text);
        // min/max are aggregates over a collection, and plain functions over values.
        if (agg && (collection_next || (*agg != agg_kind::min && *agg != agg_kind::max)))
            return parse_aggregate(name, *agg);
        if (!is_function(name.text))
            fail(name,
                "unknown function '" + name.text
                    + "' (aggregates: count, all, any, sum, min, max, mean; "
                      "functions: abs, round, pct, min, max, ms, us, switch_on, from)");
        if (name.text == "switch_on") return parse_switch_on(name);
        if (name.text == "from") return parse_from(name);
        std::vector<node_ptr> args;
        if (peek().kind != tok::rparen) {
            args.push_back(parse_or());
            while (peek().kind == tok::comma) {
                next();
                args.push_back(parse_or());
            }
        }
        expect(tok::rparen, "')'");
        for (const auto& a : args) want_type(a, vtype::number, name.text + "()");
        auto arity = [&](std::size_t lo, std::size_t hi) {
            if (args.size() < lo || args.size() > hi)
                fail(name,
                    name.text + "() takes " + std::to_string(lo)
                        + (hi == lo      ? ""
                                : hi > 9 ? " or more"
                                         : " or " + std::to_string(hi))
                        + " argument" + (hi > 1 ? "s" : "") + ", not " + std::to_string(args.size()));
        };
        if (name.text == "abs" || name.text == "ms" || name.text == "us")
            arity(1, 1);
        else if (name.text == "round")
            arity(1, 2);
        else if (name.text == "pct")
            arity(2, 2);
        else
            arity(1, 99); // scalar min / max
        auto n = make(node_kind::function, vtype::number, name.column, name.text);
        n->args = std::move(args);
        set_height(*n);
        return n;
    }

    node_ptr parse_aggregate(const token& name, agg_kind agg)
    {
        if (m_scope != scope::global) fail(name, name.text + "() cannot be used inside another count(), all(), ...");
        const token& coll = peek();
        if (coll.kind != tok::name || !collection_from_name(coll.text))
            fail(coll, name.text + "() needs a collection first: zones, pagesets, cpus, events or nodes");
        next();
        auto n = make(node_kind::aggregate, vtype::number, name.column, name.text);
        n->agg = agg;
        n->collection = *collection_from_name(coll.text);
        m_scope = n->collection;
        if (is_word("where")) {
            next();
            n->filter = parse_or();
            want_type(n->filter, vtype::boolean, "'where'");
        }
        if (peek().kind == tok::comma) {
            next();
            n->body = parse_or();
        }
        m_scope = scope::global;
        expect(tok::rparen, "')'");
        set_height(*n);
        switch (agg) {
        case agg_kind::count:
            if (n->body) fail_at(n->body->column, "count() takes a collection and a 'where' filter, nothing more");
            break;
        case agg_kind::all:
            if (!n->body)
                fail(name, "all() needs a condition after the collection: all(" + coll.text + " where ..., CONDITION)");
            [[fallthrough]];
        case agg_kind::any:
            if (n->body) want_type(n->body, vtype::boolean, name.text + "()");
            n->type = vtype::boolean;
            break;
        default:
            if (!n->body)
                fail(name,
                    name.text + "() needs a value after the collection: " + name.text + "(" + coll.text + ", FIELD)");
            want_type(n->body, vtype::number, name.text + "()");
        }
        return n;
    }

    node_ptr parse_switch_on(const token& name)
    {
        const token& arg = peek();
        if (arg.kind != tok::string) fail(arg, "switch_on() takes a switch name in quotes");
        next();
        auto p = mm::patch_from_name(arg.text);
        if (!p) fail(arg, "unknown switch '" + arg.text + "' (" + mm::patch_names_list() + ")");
        expect(tok::rparen, "')'");
        auto n = make(node_kind::switch_on, vtype::boolean, name.column, name.text);
        n->sw = *p;
        n->name = arg.text;
        return n;
    }

    node_ptr parse_from(const token& name)
    {
        if (m_scope != scope::global) fail(name, "from() cannot be used inside count(), all(), ...");
        if (m_in_from) fail(name, "from() cannot be nested");
        const token& arg = peek();
        if (arg.kind != tok::string)
            fail(arg, "from() takes the name of a kept state in quotes: from(\"off\", sys_ns)");
        next();
        expect(tok::comma, "',' and an expression");
        m_in_from = true;
        node_ptr inner = parse_or();
        m_in_from = false;
        expect(tok::rparen, "')'");
        auto n = make(node_kind::from, inner->type, name.column, name.text);
        n->name = arg.text;
        n->args = {inner};
        set_height(*n);
        return n;
    }
};

} // namespace

const char* vtype_name(vtype t)
{
    switch (t) {
    case vtype::number:
        return "number";
    case vtype::string:
        return "string";
    case vtype::boolean:
        return "truth value";
    }
    return "?";
}

compiled_expr::compiled_expr(std::shared_ptr<const expr_node> root, std::string text)
    : m_root(std::move(root))
    , m_text(std::move(text))
{
}

vtype compiled_expr::type() const
{
    return m_root ? m_root->type : vtype::number;
}

compile_result compile_expr(const std::string& text, std::optional<vtype> want)
{
    auto toks = tokenize(text);
    if (auto* err = std::get_if<pcplab::error>(&toks)) return *err;
    try {
        parser p(std::get<std::vector<token>>(std::move(toks)));
        node_ptr root = p.parse_all();
        if (want && root->type != *want)
            return pcplab::error(std::string("this is a ") + vtype_name(root->type) + ", but a " + vtype_name(*want)
                + " is needed here" + (*want == vtype::boolean ? " (a condition such as batch == 7)" : ""))
                .at_column(root->column);
        return compiled_expr(std::move(root), text);
    } catch (const parse_failure& f) {
        return f.error;
    }
}

} // namespace pcplab::lessons
