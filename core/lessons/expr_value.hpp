// The values of the condition language: numbers, strings and truth values, and how they print.
#pragma once

#include <optional>
#include <string>

namespace pcplab::lessons
{

enum class vtype { number, string, boolean };
const char* vtype_name(vtype t);

struct value {
    vtype type = vtype::number;
    double number = 0;
    bool boolean = false;
    std::string text;

    static value of(double v) { return {vtype::number, v, false, {}}; }
    static value of_bool(bool v) { return {vtype::boolean, 0, v, {}}; }
    static value of_text(std::string v) { return {vtype::string, 0, false, std::move(v)}; }
};

// "7", "0.451", "140030000", "true", "Normal": whole numbers without a decimal point, others to about
// three significant digits (enough to read beside a paper's number).
std::string format_value(const value& v);
std::string format_number(double v);

} // namespace pcplab::lessons
