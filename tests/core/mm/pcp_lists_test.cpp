#include "mm/pcp.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace pcplab::mm;

namespace
{
kernel_era era_of(const char* v)
{
    return kernel_era{*kernel_version::parse(v)};
}
} // namespace

TEST_CASE("v5.4 caches only order-0 pages, one list per PCP migratetype")
{
    kernel_era era = era_of("v5.4");
    CHECK(era.nr_pcp_lists() == 3);
    CHECK(pcp_allowed_order(era, 0));
    CHECK_FALSE(pcp_allowed_order(era, 1));
    CHECK_FALSE(pcp_allowed_order(era, pageblock_order));
    for (int mt = 0; mt < MIGRATE_PCPTYPES; ++mt) {
        CHECK(order_to_pindex(era, mt, 0) == static_cast<unsigned>(mt));
        CHECK(pindex_to_order(era, static_cast<unsigned>(mt)) == 0);
    }
}

TEST_CASE("v5.14+ caches orders up to 3 and THP, with the era's THP list layout")
{
    struct layout {
        const char* version;
        unsigned lists;
        unsigned thp_unmovable, thp_movable, thp_reclaimable;
    };
    for (const layout& l :
        {layout{"v5.14", 15, 12, 13, 14}, layout{"v6.6", 13, 12, 12, 12}, layout{"v6.13", 14, 12, 13, 12}}) {
        INFO(l.version);
        kernel_era era = era_of(l.version);
        CHECK(era.nr_pcp_lists() == l.lists);
        for (unsigned order = 0; order <= 3; ++order) {
            CHECK(pcp_allowed_order(era, order));
            for (int mt = 0; mt < MIGRATE_PCPTYPES; ++mt) {
                unsigned pindex = order_to_pindex(era, mt, order);
                CHECK(pindex == 3 * order + static_cast<unsigned>(mt));
                CHECK(pindex_to_order(era, pindex) == order);
            }
        }
        CHECK_FALSE(pcp_allowed_order(era, 4));
        CHECK(pcp_allowed_order(era, pageblock_order));
        CHECK(order_to_pindex(era, MIGRATE_UNMOVABLE, pageblock_order) == l.thp_unmovable);
        CHECK(order_to_pindex(era, MIGRATE_MOVABLE, pageblock_order) == l.thp_movable);
        CHECK(order_to_pindex(era, MIGRATE_RECLAIMABLE, pageblock_order) == l.thp_reclaimable);
        // Every list index of the layout maps back to a cached order, and only those indices are used.
        std::set<unsigned> used;
        for (unsigned order : {0U, 1U, 2U, 3U, pageblock_order})
            for (int mt = 0; mt < MIGRATE_PCPTYPES; ++mt) used.insert(order_to_pindex(era, mt, order));
        CHECK(used.size() == l.lists);
        CHECK(*used.rbegin() == l.lists - 1);
        for (unsigned p = 12; p < l.lists; ++p) CHECK(pindex_to_order(era, p) == pageblock_order);
    }
}
