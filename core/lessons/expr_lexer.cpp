// The condition language's tokenizer.
#include "lessons/expr_lexer.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace pcplab::lessons
{

namespace
{

bool name_start(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool name_char(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// "ns" 1, "us" 1e3, "ms" 1e6, "s" 1e9; 0 for anything else.
double unit_scale(const std::string& u)
{
    if (u == "ns") return 1;
    if (u == "us") return 1e3;
    if (u == "ms") return 1e6;
    if (u == "s") return 1e9;
    return 0;
}

} // namespace

result<std::vector<token>> tokenize(const std::string& text)
{
    std::vector<token> out;
    std::size_t i = 0;
    const std::size_t n = text.size();
    auto col = [](std::size_t at) { return static_cast<int>(at) + 1; };
    while (i < n) {
        const char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        const std::size_t start = i;
        token t;
        t.column = col(start);
        if (std::isdigit(static_cast<unsigned char>(c))
            || (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
            const char* begin = text.c_str() + i;
            char* end = nullptr;
            t.kind = tok::number;
            t.number = std::strtod(begin, &end);
            i += static_cast<std::size_t>(end - begin);
            // A unit glued to the number: 5ms, 1.5s.
            std::size_t u = i;
            while (u < n && name_char(text[u])) ++u;
            if (u > i) {
                const std::string unit = text.substr(i, u - i);
                const double scale = unit_scale(unit);
                if (scale == 0)
                    return pcplab::error("'" + unit + "' after a number is not a unit (ns, us, ms or s)")
                        .at_column(col(i));
                t.number *= scale;
                i = u;
            }
            t.text = text.substr(start, i - start);
            if (!std::isfinite(t.number))
                return pcplab::error("'" + t.text + "' is too large a number").at_column(t.column);
        } else if (c == '"' || c == '\'') {
            std::size_t close = text.find(c, i + 1);
            if (close == std::string::npos) return pcplab::error("this string is never closed").at_column(t.column);
            t.kind = tok::string;
            t.text = text.substr(i + 1, close - i - 1);
            i = close + 1;
        } else if (name_start(c)) {
            // A dotted name: lock.hold_max_ns, caller.free_pcppages_bulk.holds.
            while (i < n && (name_char(text[i]) || (text[i] == '.' && i + 1 < n && name_start(text[i + 1])))) ++i;
            t.kind = tok::name;
            t.text = text.substr(start, i - start);
        } else {
            static const char* two[] = {"==", "!=", "<=", ">="};
            bool matched = false;
            for (const char* op : two)
                if (text.compare(i, 2, op) == 0) {
                    t.kind = tok::op;
                    t.text = op;
                    i += 2;
                    matched = true;
                    break;
                }
            if (!matched) {
                switch (c) {
                case '(':
                    t.kind = tok::lparen;
                    break;
                case ')':
                    t.kind = tok::rparen;
                    break;
                case '[':
                    t.kind = tok::lbracket;
                    break;
                case ']':
                    t.kind = tok::rbracket;
                    break;
                case ',':
                    t.kind = tok::comma;
                    break;
                case '<':
                case '>':
                case '+':
                case '-':
                case '*':
                case '/':
                case '%':
                    t.kind = tok::op;
                    break;
                case '=':
                    return pcplab::error("'=' alone is not an operator: write == to compare").at_column(t.column);
                case '&':
                case '|':
                case '!':
                    return pcplab::error(std::string("'") + c + "' is not an operator: write and, or, not")
                        .at_column(t.column);
                default:
                    return pcplab::error(std::string("unexpected character '") + c + "'").at_column(t.column);
                }
                t.text = std::string(1, c);
                ++i;
            }
        }
        out.push_back(std::move(t));
    }
    token end;
    end.kind = tok::end;
    end.column = col(n);
    out.push_back(end);
    return out;
}

} // namespace pcplab::lessons
