// struct page, reduced to what the page allocator needs: 8 bytes per 4 KiB frame.
#pragma once

#include "mm_types.hpp"

#include <array>
#include <bit>

namespace pcplab::mm
{

// Where a frame is. The kernel encodes this in page flags / page_type (PageBuddy) and
// refcounts; one byte is enough here and makes verify() a linear walk.
enum class page_state : std::uint8_t {
    uninit = 0, // never written: a hole, a frame deferred init has not reached, or one inside a block it freed
    reserved, // memblock-reserved, never freed to the buddy allocator
    buddy, // head of a free block on zone->free_area[order] (PageBuddy)
    pcp, // head of a block on a per-cpu list (order in `order`)
    allocated, // head of an allocated block
    tail, // inside a block whose head is another frame (merges turn the absorbed buddy into one)
};

// A list link inside a frame: the linked frame's offset from its list's base pfn (page_list::base, the zone's
// first frame), 28 bits. LINK_NONE ends the list. A zone may span at most LINK_NONE frames (1 TiB less 4 KiB),
// which the machine checks when it builds its zones.
using page_link = std::uint32_t;
inline constexpr unsigned PAGE_LINK_BITS = 28;
inline constexpr page_link LINK_NONE = (page_link{1} << PAGE_LINK_BITS) - 1;

namespace detail
{
// The frame's state, order and migratetype share one byte. Only a head of a block (buddy, pcp, allocated)
// carries an order and a migratetype: its top two bits say which head (1-3) and the low six hold
// order * MIGRATE_TYPES + migratetype (55 values). The states without them (uninit, reserved, tail) are 0-2.
// So changing one head state into another, the common step, is a store of two bits, and only reads decode.
inline constexpr unsigned HEAD_KIND_SHIFT = 6;
inline constexpr std::uint8_t HEAD_PAYLOAD_MASK = (1U << HEAD_KIND_SHIFT) - 1;
static_assert(NR_PAGE_ORDERS * MIGRATE_TYPES <= HEAD_PAYLOAD_MASK + 1U, "order and migratetype must fit six bits");
constexpr bool is_head_state(page_state s)
{
    return s == page_state::buddy || s == page_state::pcp || s == page_state::allocated;
}
constexpr std::uint8_t head_kind(page_state s)
{
    return static_cast<std::uint8_t>(static_cast<unsigned>(s) - static_cast<unsigned>(page_state::buddy) + 1);
}
constexpr std::uint8_t encode_page_code(page_state s, unsigned order, unsigned mt)
{
    switch (s) {
    case page_state::uninit:
        return 0;
    case page_state::reserved:
        return 1;
    case page_state::tail:
        return 2;
    default:
        break;
    }
    return static_cast<std::uint8_t>((head_kind(s) << HEAD_KIND_SHIFT) | (order * MIGRATE_TYPES + mt));
}
struct page_code_fields {
    page_state state = page_state::uninit;
    std::uint8_t order = 0;
    std::uint8_t mt = 0;
};
// Decoding is a table lookup: the table is 768 bytes and stays cached.
constexpr std::array<page_code_fields, 256> make_page_code_table()
{
    std::array<page_code_fields, 256> t{};
    t[1].state = page_state::reserved;
    t[2].state = page_state::tail;
    for (page_state s : {page_state::buddy, page_state::pcp, page_state::allocated})
        for (unsigned o = 0; o < NR_PAGE_ORDERS; ++o)
            for (unsigned mt = 0; mt < MIGRATE_TYPES; ++mt)
                t[encode_page_code(s, o, mt)] = {s, static_cast<std::uint8_t>(o), static_cast<std::uint8_t>(mt)};
    return t;
}
inline constexpr std::array<page_code_fields, 256> page_code_table = make_page_code_table();
} // namespace detail

// The memmap entry: two list links of 28 bits and the state code in the top byte. The node and zone the
// kernel keeps in page->flags are not stored: machine::page_zone finds them from the pfn, as SPARSEMEM does
// from the section when the node does not fit in page->flags.
class page
{
public:
    page_state state() const { return fields().state; }
    // The order of the block this frame heads (0 for a frame that heads none).
    unsigned order() const { return fields().order; }
    // The migratetype cached in the head of a block: the free list a buddy block is on, the one a PCP page
    // entered its list with (page->index in v5.x), the one an allocated block was taken for.
    int migratetype() const { return fields().mt; }

    // A frame a block's head stands for: marked `tail` (by a merge, or by an early-boot free over frames
    // memmap_init had written) or never written. Deferred init writes only the head of a block it frees whole:
    // the frames inside stand for nothing until a split makes some of them heads, so they keep the memmap's
    // zero (`uninit`). Only meaningful for a frame that lies inside a block.
    bool inside_block() const
    {
        const page_state s = state();
        return s == page_state::tail || s == page_state::uninit;
    }

    // Set the state. A head keeps the order and migratetype it had (0 where it headed nothing); the other
    // states carry neither.
    void set_state(page_state s)
    {
        if (!detail::is_head_state(s)) {
            set_code(detail::encode_page_code(s, 0, 0));
            return;
        }
        const std::uint8_t c = code();
        const std::uint8_t payload = c >> detail::HEAD_KIND_SHIFT ? c & detail::HEAD_PAYLOAD_MASK : 0;
        set_code(static_cast<std::uint8_t>((detail::head_kind(s) << detail::HEAD_KIND_SHIFT) | payload));
    }
    void set_order(unsigned order)
    {
        if (detail::is_head_state(state()))
            set_code(detail::encode_page_code(state(), order, static_cast<unsigned>(migratetype())));
    }
    void set_migratetype(int mt)
    {
        if (detail::is_head_state(state()))
            set_code(detail::encode_page_code(state(), order(), static_cast<unsigned>(mt)));
    }
    // All three at once: what most callers mean.
    void set(page_state s, unsigned order, int mt)
    {
        set_code(detail::encode_page_code(s, order, static_cast<unsigned>(mt)));
    }

    page_link next_link() const { return static_cast<page_link>(m_bits & LINK_NONE); }
    page_link prev_link() const { return static_cast<page_link>((m_bits >> PAGE_LINK_BITS) & LINK_NONE); }
    void set_next_link(page_link l) { m_bits = (m_bits & ~std::uint64_t{LINK_NONE}) | l; }
    void set_prev_link(page_link l)
    {
        m_bits = (m_bits & ~(std::uint64_t{LINK_NONE} << PAGE_LINK_BITS)) | (std::uint64_t{l} << PAGE_LINK_BITS);
    }

    // __init_single_page's write: unlinked, in state `s` (reserved at boot), all in one store.
    void init(page_state s)
    {
        m_bits = (std::uint64_t{detail::encode_page_code(s, 0, 0)} << CODE_SHIFT)
            | (std::uint64_t{LINK_NONE} << PAGE_LINK_BITS) | LINK_NONE;
    }

private:
    static constexpr unsigned CODE_SHIFT = 2 * PAGE_LINK_BITS;
    std::uint8_t code() const { return static_cast<std::uint8_t>(m_bits >> CODE_SHIFT); }
    const detail::page_code_fields& fields() const { return detail::page_code_table[code()]; }
    // The code is the word's top byte: a byte store, which need not wait for the line to be read.
    void set_code(std::uint8_t code)
    {
        static_assert(std::endian::native == std::endian::little, "the state code is the frame's last byte");
        reinterpret_cast<unsigned char*>(&m_bits)[CODE_SHIFT / 8] = code;
    }

    std::uint64_t m_bits = 0;
};
static_assert(sizeof(page) == 8, "memmap entry must stay 8 bytes");

inline constexpr unsigned MAX_NUMNODES = 32;
// node << 3 | zone_type: the zone identity page->flags holds (page_zone_id), kept per pageblock by the machine.
inline std::uint8_t make_zone_nid(int nid, unsigned zt)
{
    return static_cast<std::uint8_t>((nid << 3) | zt);
}

} // namespace pcplab::mm
