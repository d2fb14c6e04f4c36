// {{ expr }} placeholders in lesson text.
#include "lessons/text_template.hpp"

namespace pcplab::lessons
{

status text_template::append_line(const std::string& line)
{
    std::vector<piece> added;
    if (!m_pieces.empty()) added.push_back({"\n", std::nullopt});
    std::size_t at = 0;
    while (at < line.size()) {
        const std::size_t open = line.find("{{", at);
        const std::size_t stray = line.find("}}", at);
        if (stray != std::string::npos && (open == std::string::npos || stray < open))
            return pcplab::error("'}}' without an opening '{{'").at_column(static_cast<int>(stray) + 1);
        if (open == std::string::npos) {
            added.push_back({line.substr(at), std::nullopt});
            break;
        }
        if (open > at) added.push_back({line.substr(at, open - at), std::nullopt});
        const std::size_t close = line.find("}}", open + 2);
        if (close == std::string::npos)
            return pcplab::error("'{{' is never closed with '}}' on this line").at_column(static_cast<int>(open) + 1);
        const std::string src = line.substr(open + 2, close - open - 2);
        auto compiled = compile_expr(src);
        if (auto* err = std::get_if<pcplab::error>(&compiled))
            return pcplab::error(err->message).at_column(static_cast<int>(open) + 2 + err->column);
        added.push_back({src, std::get<compiled_expr>(std::move(compiled))});
        at = close + 2;
    }
    m_pieces.insert(m_pieces.end(), added.begin(), added.end());
    return {};
}

bool text_template::has_placeholders() const
{
    for (const auto& p : m_pieces)
        if (p.expr) return true;
    return false;
}

std::string text_template::source() const
{
    std::string s;
    for (const auto& p : m_pieces) s += p.expr ? "{{" + p.text + "}}" : p.text;
    return s;
}

std::string text_template::render(const eval_context& ctx) const
{
    std::string s;
    for (const auto& p : m_pieces) {
        if (!p.expr) {
            s += p.text;
            continue;
        }
        auto v = p.expr->evaluate(ctx);
        if (auto* err = std::get_if<pcplab::error>(&v)) {
            s += "[?: " + err->message + "]";
            continue;
        }
        const auto& val = std::get<value>(v);
        s += val.type == vtype::string ? val.text : format_value(val);
    }
    return s;
}

std::vector<const compiled_expr*> text_template::placeholders() const
{
    std::vector<const compiled_expr*> out;
    for (const auto& p : m_pieces)
        if (p.expr) out.push_back(&*p.expr);
    return out;
}

} // namespace pcplab::lessons
