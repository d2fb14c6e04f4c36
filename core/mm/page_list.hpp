// A doubly linked list of pages threaded through the memmap: the list_head of free_area and per_cpu_pages.
#pragma once

#include "page.hpp"

#include <cstddef>
#include <stdexcept>

namespace pcplab::mm
{

// The list's ends are pfns; the links inside the frames are offsets from `base`, the first frame of the zone
// whose pages the list holds (the machine sets it). A list built on the stack takes its source list's base.
struct page_list {
    pfn_t first = NO_PFN;
    pfn_t last = NO_PFN;
    pfn_t base = 0;
    bool empty() const { return first == NO_PFN; }
    // An empty list for the same zone's pages as `other`.
    static page_list like(const page_list& other) { return page_list{NO_PFN, NO_PFN, other.base}; }
};

// All list operations need the memmap (an array indexed by pfn).
class list_ops
{
public:
    explicit list_ops(page* memmap)
        : m_map(memmap)
    {
    }

    // list_add: insert at the head
    void add(page_list& l, pfn_t pfn) const
    {
        page& p = m_map[pfn];
        p.set_prev_link(LINK_NONE);
        p.set_next_link(l.first == NO_PFN ? LINK_NONE : link(l, l.first));
        if (l.first != NO_PFN)
            m_map[l.first].set_prev_link(link(l, pfn));
        else
            l.last = pfn;
        l.first = pfn;
    }
    // list_add_tail
    void add_tail(page_list& l, pfn_t pfn) const
    {
        page& p = m_map[pfn];
        p.set_next_link(LINK_NONE);
        p.set_prev_link(l.last == NO_PFN ? LINK_NONE : link(l, l.last));
        if (l.last != NO_PFN)
            m_map[l.last].set_next_link(link(l, pfn));
        else
            l.first = pfn;
        l.last = pfn;
    }
    // list_del: the neighbours' links are offsets from the same base, so they are copied as they are.
    void del(page_list& l, pfn_t pfn) const
    {
        page& p = m_map[pfn];
        const page_link prev = p.prev_link(), next = p.next_link();
        if (prev != LINK_NONE) {
            page& b = m_map[l.base + prev];
            b.set_next_link(next);
            if (next == LINK_NONE) prefetch_link(l, b.prev_link()); // taking the tail (free_pcppages_bulk)
        } else {
            l.first = to_pfn(l, next);
        }
        if (next != LINK_NONE) {
            page& n = m_map[l.base + next];
            n.set_prev_link(prev);
            if (prev == LINK_NONE) prefetch_link(l, n.next_link()); // taking the head, the common case
        } else {
            l.last = to_pfn(l, prev);
        }
        p.set_next_link(LINK_NONE);
        p.set_prev_link(LINK_NONE);
    }
    // Start reading the frame list_add would write (the list's head), for callers that add to several lists.
    void prefetch_head(const page_list& l) const
    {
        if (l.first != NO_PFN) __builtin_prefetch(&m_map[l.first], 1);
    }
    // list_splice: move all of `from` in front of `to` (head) and leave `from` empty
    void splice_head(page_list& from, page_list& to) const
    {
        if (from.empty()) return;
        same_base(from, to);
        if (!to.empty()) {
            m_map[from.last].set_next_link(link(to, to.first));
            m_map[to.first].set_prev_link(link(to, from.last));
            to.first = from.first;
        } else {
            to.first = from.first;
            to.last = from.last;
        }
        from.first = from.last = NO_PFN;
    }
    // list_splice_tail: move all of `from` behind `to`'s last entry
    void splice_tail(page_list& from, page_list& to) const
    {
        if (from.empty()) return;
        same_base(from, to);
        if (!to.empty()) {
            m_map[to.last].set_next_link(link(to, from.first));
            m_map[from.first].set_prev_link(link(to, to.last));
            to.last = from.last;
        } else {
            to.first = from.first;
            to.last = from.last;
        }
        from.first = from.last = NO_PFN;
    }
    // The entry after `pfn` on list `l` (NO_PFN at the end).
    pfn_t next(const page_list& l, pfn_t pfn) const { return to_pfn(l, m_map[pfn].next_link()); }
    pfn_t prev(const page_list& l, pfn_t pfn) const { return to_pfn(l, m_map[pfn].prev_link()); }
    std::size_t length(const page_list& l) const
    {
        std::size_t n = 0;
        for (pfn_t p = l.first; p != NO_PFN; p = next(l, p)) ++n;
        return n;
    }

private:
    // Taking an end of a list writes a link of the frame after the new end next time. A link shares its word
    // with the frame's state, so that write must first read the line: start the read now, while the new
    // end's line is at hand.
    void prefetch_link(const page_list& l, page_link v) const
    {
        if (v != LINK_NONE) __builtin_prefetch(&m_map[l.base + v], 1);
    }
    // A frame outside the 28 bits above the list's base belongs to another zone's list: a bug, never data.
    static page_link link(const page_list& l, pfn_t pfn)
    {
        const pfn_t off = pfn - l.base;
        if (off >= LINK_NONE) [[unlikely]]
            throw std::logic_error("page_list: frame outside the 1 TiB above its list's base");
        return off;
    }
    static pfn_t to_pfn(const page_list& l, page_link v) { return v == LINK_NONE ? NO_PFN : l.base + v; }
    static void same_base(const page_list& a, const page_list& b)
    {
        if (a.base != b.base) [[unlikely]]
            throw std::logic_error("page_list: splice between lists of different zones");
    }

    page* m_map;
};

} // namespace pcplab::mm
