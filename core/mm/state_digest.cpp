#include "state_digest.hpp"

namespace pcplab::mm
{

namespace
{
struct fnv {
    std::uint64_t h = 1469598103934665603ULL;
    void add(std::uint64_t v)
    {
        for (int i = 0; i < 8; ++i) {
            h ^= (v >> (i * 8)) & 0xff;
            h *= 1099511628211ULL;
        }
    }
};
} // namespace

std::uint64_t state_digest(const machine& m)
{
    fnv f;
    const list_ops lo = m.lists();
    for (const auto& n : m.nodes)
        for (const auto& zp : n->node_zones) {
            const zone& z = *zp;
            f.add(z.managed());
            f.add(static_cast<std::uint64_t>(z.nr_free_pages));
            for (auto w : z._watermark) f.add(w);
            for (const auto& fa : z.free_area_) {
                f.add(fa.nr_free);
                for (const auto& l : fa.free_list)
                    for (pfn_t p = l.first; p != NO_PFN; p = lo.next(l, p)) f.add(p);
            }
            for (const auto& pcp : z.per_cpu_pageset) {
                f.add(static_cast<std::uint64_t>(pcp.count));
                f.add(static_cast<std::uint64_t>(pcp.high));
                f.add(static_cast<std::uint64_t>(pcp.batch));
                f.add(static_cast<std::uint64_t>(pcp.high_min));
                f.add(static_cast<std::uint64_t>(pcp.high_max));
                for (const auto& l : pcp.lists)
                    for (pfn_t p = l.first; p != NO_PFN; p = lo.next(l, p)) f.add(p);
            }
        }
    return f.h;
}

} // namespace pcplab::mm
