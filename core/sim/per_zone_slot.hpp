// One value per zone slot of a machine: every (node, zone type), populated or not, node by node. The engine
// keeps its zone->lock and reclaim state this way, so that a zone finds its own without a search.
#pragma once

#include "mm/zone.hpp"

#include <cassert>
#include <cstddef>
#include <vector>

namespace pcplab::sim
{

template <typename T> class per_zone_slot
{
public:
    void assign(std::size_t nr_nodes, const T& value) { m_values.assign(nr_nodes * mm::MAX_NR_ZONES, value); }
    void clear() { m_values.clear(); }

    T& operator()(int node, int zone) { return m_values[slot(node, zone)]; }
    const T& operator()(int node, int zone) const { return m_values[slot(node, zone)]; }
    T& operator[](const mm::zone& z) { return (*this)(z.node, z.idx); }
    const T& operator[](const mm::zone& z) const { return (*this)(z.node, z.idx); }

    std::size_t size() const { return m_values.size(); }
    bool empty() const { return m_values.empty(); }
    auto begin() { return m_values.begin(); }
    auto end() { return m_values.end(); }
    auto begin() const { return m_values.begin(); }
    auto end() const { return m_values.end(); }

private:
    std::size_t slot(int node, int zone) const
    {
        assert(node >= 0 && zone >= 0 && zone < mm::MAX_NR_ZONES);
        const auto s = static_cast<std::size_t>(node) * mm::MAX_NR_ZONES + static_cast<std::size_t>(zone);
        assert(s < m_values.size());
        return s;
    }

    std::vector<T> m_values;
};

} // namespace pcplab::sim
