#include "preset_json.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace pcplab::sim::detail
{

namespace
{

using json = nlohmann::json;

std::size_t edit_distance(const std::string& a, const std::string& b)
{
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::string number_text(double d)
{
    std::ostringstream s;
    s << d;
    return s.str();
}

std::string value_text(const json& v)
{
    std::string s = v.dump();
    return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

} // namespace

object_reader::object_reader(const json& j, std::string path, std::vector<std::string> known)
    : m_j(j)
    , m_path(std::move(path))
{
    if (!j.is_object()) throw field_error{m_path, std::string("must be an object, not ") + j.type_name()};
    if (known.empty()) return;
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& key = it.key();
        if (std::find(known.begin(), known.end(), key) != known.end()) continue;
        std::string best;
        std::size_t best_d = 3; // suggest only close misspellings
        for (const auto& k : known)
            if (auto d = edit_distance(key, k); d < best_d) {
                best_d = d;
                best = k;
            }
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
        throw field_error{this->path(key),
            "unknown field" + (best.empty() ? "" : " (did you mean '" + best + "'?)") + "; allowed here: " + list};
    }
}

const json* object_reader::get(const std::string& key) const
{
    auto it = m_j.find(key);
    return it == m_j.end() ? nullptr : &*it;
}

const json& object_reader::require(const std::string& key) const
{
    if (const json* v = get(key)) return *v;
    throw field_error{path(key), "missing (this field is required)"};
}

long get_int(const json& v, const std::string& path, long lo, long hi)
{
    const std::string range = "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
    if (!v.is_number_integer())
        throw field_error{path, "must be " + range + ", not " + (v.is_number() ? value_text(v) : v.type_name())};
    // Compare as floating point first: an unsigned beyond long's range must not wrap into range.
    double d = v.get<double>();
    if (d < static_cast<double>(lo) || d > static_cast<double>(hi))
        throw field_error{path, "must be " + range + ", not " + value_text(v)};
    return v.get<long>();
}

double get_number(const json& v, const std::string& path, double lo, double hi)
{
    const std::string range = "a number from " + number_text(lo) + " to " + number_text(hi);
    if (!v.is_number()) throw field_error{path, "must be " + range + ", not " + v.type_name()};
    double d = v.get<double>();
    if (!std::isfinite(d) || d < lo || d > hi) throw field_error{path, "must be " + range + ", not " + value_text(v)};
    return d;
}

bool get_bool(const json& v, const std::string& path)
{
    if (!v.is_boolean()) throw field_error{path, std::string("must be true or false, not ") + v.type_name()};
    return v.get<bool>();
}

std::string get_string(const json& v, const std::string& path)
{
    if (!v.is_string()) throw field_error{path, std::string("must be a string, not ") + v.type_name()};
    return v.get<std::string>();
}

json::parser_callback_t duplicate_key_finder::callback()
{
    return [this](int /*depth*/, json::parse_event_t ev, json& parsed) {
        using E = json::parse_event_t;
        // Any value that starts inside an array is that array's next element.
        auto next_element = [this] {
            if (!m_stack.empty() && !m_stack.back().is_object) ++m_stack.back().index;
        };
        switch (ev) {
        case E::object_start:
        case E::array_start:
            next_element();
            m_stack.push_back(level{ev == E::object_start, {}, -1});
            break;
        case E::key: {
            auto& keys = m_stack.back().keys;
            const auto& k = parsed.get_ref<const std::string&>();
            if (m_dup.empty() && std::find(keys.begin(), keys.end(), k) != keys.end()) {
                std::string base = current_path();
                m_dup = base.empty() ? k : base + "." + k;
            }
            keys.push_back(k);
            break;
        }
        case E::value:
            next_element();
            break;
        case E::object_end:
        case E::array_end:
            m_stack.pop_back();
            break;
        }
        return true;
    };
}

// The path of the container on top of the stack ("nodes[1]"), from the keys and indices below it.
std::string duplicate_key_finder::current_path() const
{
    std::string p;
    for (std::size_t i = 0; i + 1 < m_stack.size(); ++i) {
        const level& l = m_stack[i];
        if (l.is_object)
            p += (p.empty() ? "" : ".") + (l.keys.empty() ? std::string("?") : l.keys.back());
        else
            p += "[" + std::to_string(l.index) + "]";
    }
    return p;
}

int line_of_byte(const std::string& text, std::size_t byte)
{
    std::size_t upto = std::min(byte > 0 ? byte - 1 : 0, text.size());
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(upto), '\n'));
}

std::string parse_error_message(const std::string& what)
{
    auto col = what.find("column ");
    auto colon = what.find(": ", col == std::string::npos ? 0 : col);
    return colon == std::string::npos ? what : what.substr(colon + 2);
}

} // namespace pcplab::sim::detail
