#include "zoneinfo_captures.hpp"

#include "io/text_file.hpp"

#include <charconv>
#include <string_view>

namespace pcplab::procfs
{

namespace
{

// "time: 1796402693" (mmtests' monitor framing), or nullopt for any other line.
std::optional<long long> time_line(std::string_view line)
{
    if (line.rfind("time:", 0) != 0) return std::nullopt;
    line.remove_prefix(5);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
    long long v = 0;
    auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), v);
    if (ec != std::errc() || end != line.data() + line.size() || line.empty()) return std::nullopt;
    return v;
}

} // namespace

zoneinfo_captures_result parse_zoneinfo_captures(const std::string& text, const std::string& file)
{
    std::string_view all(text);
    if (all.rfind("\xEF\xBB\xBF", 0) == 0) all.remove_prefix(3); // a UTF-8 byte-order mark

    // The pieces between time: lines; the text before the first one is a capture only when it is not blank.
    struct piece {
        std::optional<long long> time;
        int first_line;
        std::size_t begin, end;
    };
    std::vector<piece> pieces{{std::nullopt, 1, 0, 0}};
    int line_no = 0;
    for (std::size_t pos = 0; pos < all.size();) {
        std::size_t eol = all.find('\n', pos);
        if (eol == std::string_view::npos) eol = all.size();
        ++line_no;
        if (auto t = time_line(all.substr(pos, eol - pos))) {
            pieces.back().end = pos;
            pieces.push_back({t, line_no + 1, eol + 1 < all.size() ? eol + 1 : all.size(), all.size()});
        }
        pos = eol + 1;
    }
    pieces.back().end = all.size();

    std::vector<zoneinfo_capture> out;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        const piece& p = pieces[i];
        const std::string_view body = all.substr(p.begin, p.end - p.begin);
        if (i == 0 && pieces.size() > 1 && body.find_first_not_of(" \t\r\n") == std::string_view::npos) continue;
        auto r = parse_zoneinfo(std::string(body), file);
        if (auto* err = std::get_if<pcplab::error>(&r)) {
            if (err->line > 0) err->line += p.first_line - 1;
            return *err;
        }
        out.push_back({p.time, p.first_line, std::get<zoneinfo_doc>(std::move(r))});
    }
    return out;
}

zoneinfo_captures_result load_zoneinfo_captures(const std::string& path)
{
    // As load_zoneinfo_file: a machine with thousands of CPUs prints a few MiB; far more is not a capture.
    constexpr std::size_t max_bytes = 256u << 20;
    auto text = io::read_text_file(path, max_bytes);
    if (auto* err = std::get_if<pcplab::error>(&text)) return pcplab::error::in(path, err->message);
    return parse_zoneinfo_captures(std::get<std::string>(text), path);
}

} // namespace pcplab::procfs
