// Tokens of the condition language: numbers (with an optional ns/us/ms/s unit, read as nanoseconds),
// quoted strings, dotted names, operators and punctuation.
#pragma once

#include "base/error.hpp"
#include "lessons/expr.hpp"

#include <string>
#include <variant>
#include <vector>

namespace pcplab::lessons
{

enum class tok { number, string, name, op, lparen, rparen, lbracket, rbracket, comma, end };

struct token {
    tok kind = tok::end;
    std::string text; // the name, the operator, or the string's contents
    double number = 0;
    int column = 0; // 1-based
};

// The tokens of `text` (ending with tok::end), or the first lexical error.
result<std::vector<token>> tokenize(const std::string& text);

} // namespace pcplab::lessons
