// A doubly linked list of pages threaded through the memmap: the list_head of free_area and per_cpu_pages.
#pragma once

#include "page.hpp"

#include <cassert>
#include <cstddef>

namespace pcplab::mm
{

struct page_list {
    pfn_t first = NO_PFN;
    pfn_t last = NO_PFN;
    bool empty() const { return first == NO_PFN; }
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
        p.prev = NO_PFN;
        p.next = l.first;
        if (l.first != NO_PFN)
            m_map[l.first].prev = pfn;
        else
            l.last = pfn;
        l.first = pfn;
    }
    // list_add_tail
    void add_tail(page_list& l, pfn_t pfn) const
    {
        page& p = m_map[pfn];
        p.next = NO_PFN;
        p.prev = l.last;
        if (l.last != NO_PFN)
            m_map[l.last].next = pfn;
        else
            l.first = pfn;
        l.last = pfn;
    }
    // list_del
    void del(page_list& l, pfn_t pfn) const
    {
        page& p = m_map[pfn];
        if (p.prev != NO_PFN)
            m_map[p.prev].next = p.next;
        else
            l.first = p.next;
        if (p.next != NO_PFN)
            m_map[p.next].prev = p.prev;
        else
            l.last = p.prev;
        p.next = p.prev = NO_PFN;
    }
    // list_splice: move all of `from` in front of `to` (head) and leave `from` empty
    void splice_head(page_list& from, page_list& to) const
    {
        if (from.empty()) return;
        if (!to.empty()) {
            m_map[from.last].next = to.first;
            m_map[to.first].prev = from.last;
            to.first = from.first;
        } else {
            to = from;
        }
        from = {};
    }
    // list_splice_tail: move all of `from` behind `to`'s last entry
    void splice_tail(page_list& from, page_list& to) const
    {
        if (from.empty()) return;
        if (!to.empty()) {
            m_map[to.last].next = from.first;
            m_map[from.first].prev = to.last;
            to.last = from.last;
        } else {
            to = from;
        }
        from = {};
    }
    pfn_t next(pfn_t pfn) const { return m_map[pfn].next; }
    std::size_t length(const page_list& l) const
    {
        std::size_t n = 0;
        for (pfn_t p = l.first; p != NO_PFN; p = m_map[p].next) ++n;
        return n;
    }

private:
    page* m_map;
};

} // namespace pcplab::mm
