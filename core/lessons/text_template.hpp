// Lesson text with live values: "the Normal zones got batch {{ min(pagesets where zone == "Normal", batch) }}".
// Each {{ expr }} is compiled when the lesson loads and filled in from the state the step ended in.
#pragma once

#include "base/error.hpp"
#include "lessons/expr.hpp"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace pcplab::lessons
{

class text_template
{
public:
    // Appends one line of source text (placeholders cannot span lines). On error: the column within
    // `line` and the message; the template is unchanged.
    status append_line(const std::string& line);
    bool empty() const { return m_pieces.empty(); }
    bool has_placeholders() const;
    // The text as written, placeholders included.
    std::string source() const;
    // The text with every placeholder replaced by its value; one that has none shows "[?: why]".
    std::string render(const eval_context& ctx) const;
    // The compiled placeholders (for checks that every one evaluates).
    std::vector<const compiled_expr*> placeholders() const;

private:
    struct piece {
        std::string text; // literal text, or the placeholder's source
        std::optional<compiled_expr> expr;
    };
    std::vector<piece> m_pieces;
};

} // namespace pcplab::lessons
