// Strict JSON reading for presets (internal to core/sim/preset.cpp; not a public header): typed fields
// with ranges, unknown and duplicate keys refused, errors carrying the JSON path of the field.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace pcplab::sim::detail
{

// Thrown while reading; turned into a pcplab::error at the boundary.
struct field_error {
    std::string field;
    std::string message;
};

// An object whose allowed keys are known up front: a key outside them is an error at construction
// (with a "did you mean" hint), so a typo is reported before a "missing field" it may have caused.
class object_reader
{
public:
    // Empty `known`: any key is allowed (maps such as "patches" and "cost_model").
    object_reader(const nlohmann::json& j, std::string path, std::vector<std::string> known);
    const nlohmann::json* get(const std::string& key) const; // nullptr when absent
    const nlohmann::json& require(const std::string& key) const;
    std::string path(const std::string& key) const { return m_path.empty() ? key : m_path + "." + key; }

private:
    const nlohmann::json& m_j;
    std::string m_path;
};

long get_int(const nlohmann::json& v, const std::string& path, long lo, long hi);
double get_number(const nlohmann::json& v, const std::string& path, double lo, double hi);
bool get_bool(const nlohmann::json& v, const std::string& path);
std::string get_string(const nlohmann::json& v, const std::string& path);

// nlohmann keeps the last of two equal keys silently; this parser callback notes the first duplicate.
class duplicate_key_finder
{
public:
    nlohmann::json::parser_callback_t callback();
    bool found() const { return !m_dup.empty(); }
    const std::string& path() const { return m_dup; }

private:
    struct level {
        bool is_object = false;
        std::vector<std::string> keys;
        long index = -1; // arrays: the element being read
    };
    std::string current_path() const;
    std::vector<level> m_stack;
    std::string m_dup;
};

// The 1-based line of the byte nlohmann reports (its `byte` counts from 1 and points at the offending
// character, or one past the end).
int line_of_byte(const std::string& text, std::size_t byte);
// nlohmann's what() without the "[json.exception...] parse error at line L, column C: " prefix.
std::string parse_error_message(const std::string& what);

} // namespace pcplab::sim::detail
