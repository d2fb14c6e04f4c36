// The lessons' condition language: small expressions over a sim::snapshot ("every Normal-zone pageset has
// batch 7" is `all(pagesets where zone == "Normal", batch == 7)`). Compiled once when a lesson is loaded, so
// a misspelt field or a type mismatch is reported with its column before anything runs; evaluated on every
// snapshot a check sees (the GUI panel evaluates live, the headless runner once per step).
// The grammar and every field are documented in lessons/README.md.
#pragma once

#include "base/error.hpp"
#include "lessons/expr_value.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace pcplab::sim
{
struct snapshot;
struct sim_event;
} // namespace pcplab::sim

namespace pcplab::lessons
{

// A state kept by an earlier step (`keep: NAME`), for from("NAME", ...).
struct kept_state {
    std::shared_ptr<const sim::snapshot> snap;
    std::vector<sim::sim_event> events; // the events of that step
};

// What an expression reads: the current snapshot, the events of the current step (the snapshot's own
// events cover only the interval since the previous one), and the states kept by earlier steps.
struct eval_context {
    const sim::snapshot* snap = nullptr; // required
    const std::vector<sim::sim_event>* events = nullptr; // null: snap->events
    const std::map<std::string, kept_state>* kept = nullptr;
};

struct expr_node; // expr_ast.hpp

// A parse or type error is a pcplab::error with the column (1-based) of the offending token.

class compiled_expr
{
public:
    compiled_expr() = default;
    compiled_expr(std::shared_ptr<const expr_node> root, std::string text);

    const std::string& text() const { return m_text; }
    vtype type() const;
    bool valid() const { return m_root != nullptr; }

    // The value, or the reason it has none (no such kept state, min over nothing, division by zero ...).
    pcplab::result<value> evaluate(const eval_context& ctx) const;
    // The value plus what it was made of, for a report: "7 == 7", "all: 512 of 512 pagesets".
    struct explained {
        pcplab::result<value> result;
        std::string detail;
    };
    explained explain(const eval_context& ctx) const;
    // The kept states it reads with from("NAME", ...), so a loader can check an earlier step keeps them.
    std::vector<std::string> kept_names() const;

private:
    std::shared_ptr<const expr_node> m_root;
    std::string m_text;
};

using compile_result = result<compiled_expr>;

// Compiles `text`; `want` is the type the caller needs (nullopt: any). Unknown names, wrong argument
// counts and type mismatches are errors here, not at evaluation.
compile_result compile_expr(const std::string& text, std::optional<vtype> want = std::nullopt);

} // namespace pcplab::lessons
