// Compact little-endian bytes for the recording's snapshot blobs: unsigned LEB128 varints (most counters are
// small), zig-zag for signed values, doubles as their 8 raw bytes (so a replay gets the exact same value),
// length-prefixed strings. The reader checks every length against what is left, so a damaged blob ends in
// a codec_error, never in a read past the end or a huge allocation.
#pragma once

#include "base/error.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pcplab::session
{

// A damaged blob.
class codec_error : public failure
{
public:
    using failure::failure;
};

class byte_writer
{
public:
    void u(std::uint64_t v)
    {
        while (v >= 0x80) {
            m_out.push_back(static_cast<char>((v & 0x7f) | 0x80));
            v >>= 7;
        }
        m_out.push_back(static_cast<char>(v));
    }
    void i(std::int64_t v) { u((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63)); }
    void f(double v)
    {
        char b[8];
        std::memcpy(b, &v, 8);
        m_out.append(b, 8);
    }
    void b(bool v) { m_out.push_back(v ? 1 : 0); }
    void s(std::string_view v)
    {
        u(v.size());
        m_out.append(v.data(), v.size());
    }
    const std::string& bytes() const { return m_out; }
    std::string take() { return std::move(m_out); }

private:
    std::string m_out;
};

class byte_reader
{
public:
    explicit byte_reader(std::string_view in)
        : m_in(in)
    {
    }
    std::uint64_t u()
    {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_pos >= m_in.size()) throw codec_error("truncated (a number runs past the end)");
            auto byte = static_cast<unsigned char>(m_in[m_pos++]);
            v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
            if (!(byte & 0x80)) return v;
        }
        throw codec_error("corrupt (a number longer than 64 bits)");
    }
    std::int64_t i()
    {
        std::uint64_t z = u();
        return static_cast<std::int64_t>((z >> 1) ^ (~(z & 1) + 1));
    }
    double f()
    {
        need(8);
        double v;
        std::memcpy(&v, m_in.data() + m_pos, 8);
        m_pos += 8;
        return v;
    }
    bool b()
    {
        need(1);
        auto c = static_cast<unsigned char>(m_in[m_pos++]);
        if (c > 1) throw codec_error("corrupt (a flag that is neither 0 nor 1)");
        return c == 1;
    }
    std::string s()
    {
        std::uint64_t n = u();
        need(n);
        std::string v(m_in.substr(m_pos, n));
        m_pos += n;
        return v;
    }
    // A count of entries of at least `min_bytes` each: refused when the rest of the blob cannot hold them.
    std::size_t count(std::size_t min_bytes = 1)
    {
        std::uint64_t n = u();
        if (n > (m_in.size() - m_pos) / (min_bytes ? min_bytes : 1))
            throw codec_error("corrupt (a list longer than the data left)");
        return static_cast<std::size_t>(n);
    }
    // A varint that must fit the integer type T.
    template <typename T> T u_as()
    {
        std::uint64_t v = u();
        if (v > static_cast<std::uint64_t>(std::numeric_limits<T>::max()))
            throw codec_error("corrupt (a value out of range)");
        return static_cast<T>(v);
    }
    template <typename T> T i_as()
    {
        std::int64_t v = i();
        if (v < static_cast<std::int64_t>(std::numeric_limits<T>::min())
            || v > static_cast<std::int64_t>(std::numeric_limits<T>::max()))
            throw codec_error("corrupt (a value out of range)");
        return static_cast<T>(v);
    }
    bool at_end() const { return m_pos == m_in.size(); }
    std::size_t left() const { return m_in.size() - m_pos; }

private:
    void need(std::uint64_t n) const
    {
        if (n > m_in.size() - m_pos) throw codec_error("truncated (a field runs past the end)");
    }
    std::string_view m_in;
    std::size_t m_pos = 0;
};

} // namespace pcplab::session
