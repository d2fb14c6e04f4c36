#include "session/hold_chunk.hpp"

#include "session/byte_codec.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>

namespace pcplab::session
{

namespace
{

// A strict reader of the one shape the writer produces; spaces are allowed wherever JSON allows them, so a
// chunk rewritten by sqlite3's json() still reads.
class chunk_parser
{
public:
    explicit chunk_parser(std::string_view text)
        : m_p(text.data())
        , m_end(text.data() + text.size())
    {
    }

    bool at(char c)
    {
        skip_space();
        return m_p < m_end && *m_p == c;
    }
    void expect(char c, const char* what)
    {
        if (!at(c))
            throw codec_error(std::string("its lock holds are not a JSON array of holds (expected ") + what + ")");
        ++m_p;
    }
    long long integer(long long lo, long long hi, const char* field)
    {
        skip_space();
        long long v = 0;
        const auto r = std::from_chars(m_p, m_end, v);
        if (r.ec != std::errc()) throw codec_error(std::string("a lock hold's ") + field + " is not an integer");
        if (v < lo || v > hi)
            throw codec_error(std::string("a lock hold's ") + field + " is out of range (" + std::to_string(v) + ")");
        m_p = r.ptr;
        return v;
    }
    bool done()
    {
        skip_space();
        return m_p == m_end;
    }

private:
    void skip_space()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\t' || *m_p == '\r')) ++m_p;
    }
    const char* m_p;
    const char* m_end;
};

sim::lock_hold_record parse_hold(chunk_parser& in, sim::vtime_ns base)
{
    constexpr long long u32 = 0xffffffffLL;
    constexpr auto callers = static_cast<long long>(mm::lock_caller::nr_callers);
    sim::lock_hold_record h;
    in.expect('[', "'[' opening a hold");
    const auto b = static_cast<long long>(base);
    h.start = static_cast<sim::vtime_ns>(b + in.integer(-b, INT64_MAX - b, "start"));
    in.expect(',', "','");
    h.hold_ns = static_cast<std::uint32_t>(in.integer(0, u32, "hold_ns"));
    in.expect(',', "','");
    h.wait_ns = static_cast<std::uint32_t>(in.integer(0, u32, "wait_ns"));
    in.expect(',', "','");
    h.cpu = static_cast<std::uint16_t>(in.integer(0, UINT16_MAX, "cpu"));
    in.expect(',', "','");
    h.node = static_cast<std::uint8_t>(in.integer(0, UINT8_MAX, "node"));
    in.expect(',', "','");
    h.zone = static_cast<std::uint8_t>(in.integer(0, UINT8_MAX, "zone"));
    in.expect(',', "','");
    h.kind = static_cast<mm::lock_kind>(in.integer(0, 1, "kind"));
    in.expect(',', "','");
    h.caller = static_cast<mm::lock_caller>(in.integer(0, callers - 1, "caller"));
    in.expect(',', "','");
    h.pages = static_cast<std::uint32_t>(in.integer(0, u32, "pages"));
    in.expect(',', "','");
    h.owner = static_cast<std::int16_t>(in.integer(-1, INT16_MAX, "owner"));
    in.expect(']', "']' closing a hold of ten values");
    return h;
}

} // namespace

void hold_chunk_builder::clear()
{
    m_len = 1;
    m_count = 0;
    m_base = 0;
}

void hold_chunk_builder::add(const sim::lock_hold_record& h)
{
    // Ten values of at most 20 characters each, their commas and brackets, and the closing ']' of text().
    constexpr std::size_t most = 10 * 20 + 9 + 3 + 1;
    if (m_len + most > m_buf.size()) m_buf.resize(std::max(2 * m_buf.size(), m_len + most));
    char* p = m_buf.data() + m_len;
    char* const end = m_buf.data() + m_buf.size();
    if (m_count)
        *p++ = ',';
    else
        m_base = h.start;
    *p++ = '[';
    const long long values[] = {static_cast<long long>(h.start) - static_cast<long long>(m_base), h.hold_ns, h.wait_ns,
        h.cpu, h.node, h.zone, static_cast<long long>(h.kind), static_cast<long long>(h.caller), h.pages, h.owner};
    for (std::size_t i = 0; i < std::size(values); ++i) {
        if (i) *p++ = ',';
        p = std::to_chars(p, end, values[i]).ptr;
    }
    *p++ = ']';
    m_len = static_cast<std::size_t>(p - m_buf.data());
    ++m_count;
}

std::string_view hold_chunk_builder::text()
{
    m_buf[m_len] = ']'; // add() left room for it
    return std::string_view(m_buf.data(), m_len + 1);
}

std::vector<sim::lock_hold_record> decode_hold_chunk(std::string_view text, sim::vtime_ns base_ns)
{
    // The base comes from another column: a damaged one must not overflow the range checks below.
    if (static_cast<long long>(base_ns) < 0) throw codec_error("its lock holds' base_ns is negative");
    chunk_parser in(text);
    std::vector<sim::lock_hold_record> holds;
    in.expect('[', "'[' opening the array");
    if (!in.at(']')) {
        holds.push_back(parse_hold(in, base_ns));
        while (in.at(',')) {
            in.expect(',', "','");
            holds.push_back(parse_hold(in, base_ns));
        }
    }
    in.expect(']', "']' closing the array");
    if (!in.done()) throw codec_error("its lock holds have text after the array");
    return holds;
}

} // namespace pcplab::session
