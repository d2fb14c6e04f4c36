// The 8-byte memmap entry: its state code, its zone-relative links, and the zone found from the pfn.
#include "mm/boot.hpp"
#include "mm/machine.hpp"
#include "mm/page_alloc.hpp"
#include "mm/patch_switches.hpp"
#include "mm/verify.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace pcplab::mm;

namespace
{

std::unique_ptr<machine> boot_machine(const machine_spec& spec, const char* era_text)
{
    auto era = kernel_version::parse(era_text);
    REQUIRE(era);
    auto m = std::make_unique<machine>(spec, *era, default_patches(*era));
    boot(*m);
    return m;
}

node_spec node(std::vector<int> cpus, pfn_t start, pfn_t end)
{
    node_spec n;
    n.cpus = std::move(cpus);
    n.memory = {{start, end}};
    return n;
}

// Allocate and free a mix of orders on every CPU, checking the machine after each round.
void churn(machine& m)
{
    std::vector<std::pair<pfn_t, unsigned>> held;
    for (int round = 0; round < 4; ++round) {
        for (int cpu = 0; cpu < m.nr_cpu_ids(); ++cpu) {
            mm_ctx c = m.ctx(cpu);
            for (unsigned i = 0; i < 300; ++i) {
                alloc_request req;
                req.order = i % 7 == 0 ? 3 : 0;
                req.migratetype = static_cast<int>(i % 3);
                const pfn_t pfn = alloc_pages(c, req);
                REQUIRE(pfn != NO_PFN);
                held.emplace_back(pfn, req.order);
            }
        }
        for (std::size_t i = 0; i < held.size(); i += 2) {
            mm_ctx c = m.ctx(static_cast<int>(i) % m.nr_cpu_ids());
            free_pages(c, held[i].first, held[i].second);
        }
        std::vector<std::pair<pfn_t, unsigned>> kept;
        for (std::size_t i = 1; i < held.size(); i += 2) kept.push_back(held[i]);
        held = std::move(kept);
        const verify_result r = verify(m);
        INFO((r.ok() ? std::string() : r.errors.front()));
        REQUIRE(r.ok());
    }
}

} // namespace

TEST_CASE("a frame's state code keeps a head's order and migratetype, and the links beside them")
{
    CHECK(sizeof(page) == 8);
    for (page_state s : {page_state::buddy, page_state::pcp, page_state::allocated})
        for (unsigned order = 0; order < NR_PAGE_ORDERS; ++order)
            for (int mt = 0; mt < MIGRATE_TYPES; ++mt) {
                page p;
                p.init(page_state::reserved);
                p.set_next_link(LINK_NONE - 1);
                p.set_prev_link(12345);
                p.set(s, order, mt);
                REQUIRE(p.state() == s);
                REQUIRE(p.order() == order);
                REQUIRE(p.migratetype() == mt);
                REQUIRE(p.next_link() == LINK_NONE - 1);
                REQUIRE(p.prev_link() == 12345);
            }

    page p;
    p.init(page_state::reserved);
    CHECK(p.next_link() == LINK_NONE);
    CHECK(p.prev_link() == LINK_NONE);
    p.set(page_state::buddy, 9, MIGRATE_RECLAIMABLE);
    p.set_state(page_state::allocated); // __ClearPageBuddy: the block keeps its order and list type
    CHECK(p.order() == 9);
    CHECK(p.migratetype() == MIGRATE_RECLAIMABLE);
    p.set_order(2);
    p.set_migratetype(MIGRATE_HIGHATOMIC);
    CHECK(p.state() == page_state::allocated);
    CHECK(p.order() == 2);
    CHECK(p.migratetype() == MIGRATE_HIGHATOMIC);
    p.set_state(page_state::tail); // absorbed by a merge: a tail heads nothing
    CHECK(p.order() == 0);
    p.set_state(page_state::buddy);
    CHECK(p.order() == 0);
    CHECK(p.migratetype() == MIGRATE_UNMOVABLE);
}

TEST_CASE("a zone above the first 2^28 frames links its lists from its own start")
{
    // One node of 1 GiB at 1 TiB + 4 GiB: every pfn is above what 28 bits of absolute pfn reach.
    machine_spec spec;
    spec.name = "above-1t";
    const pfn_t start = (pfn_t{1} << 28) + (pfn_t{1} << 20);
    spec.nodes.push_back(node({0, 1}, start, start + (pfn_t{1} << 18)));
    auto m = boot_machine(spec, "v6.6");
    zone& z = m->nodes[0]->z(ZONE_NORMAL);
    REQUIRE(z.zone_start_pfn == start);
    CHECK(z.free_area_[MAX_PAGE_ORDER].free_list[MIGRATE_MOVABLE].base == start);
    CHECK(&m->page_zone(start + 5) == &z);
    churn(*m);
}

TEST_CASE("a machine with a zone over 1 TiB is refused with the node, the zone and its size")
{
    machine_spec spec;
    spec.name = "too-big";
    spec.nodes.push_back(node({0}, 1, (pfn_t{1} << 28) + (pfn_t{1} << 20)));
    auto era = kernel_version::parse("v6.6");
    REQUIRE(era);
    try {
        machine m(spec, *era, default_patches(*era));
        FAIL("a zone of 1 TiB was accepted");
    } catch (const std::invalid_argument& e) {
        CHECK(std::string(e.what())
            == "node 0 zone Normal spans 1024 GiB: a zone may span at most 1 TiB "
               "(the memmap's list links are 28 bits)");
    }
}

TEST_CASE("two nodes that meet inside a pageblock keep their frames apart")
{
    // Node 0 ends 100 frames into a pageblock of DMA32 and node 1 starts there: the pageblock's zone byte is
    // "mixed", and page_zone answers from the spans. Buddies across the boundary must never merge.
    machine_spec spec;
    spec.name = "split-pageblock";
    const pfn_t meet = (pfn_t{1} << 18) + 100;
    spec.nodes.push_back(node({0, 1}, 1, meet));
    spec.nodes.push_back(node({2, 3}, meet, pfn_t{1} << 19));
    auto m = boot_machine(spec, "v6.6");
    CHECK(&m->page_zone(meet - 1) == &m->nodes[0]->z(ZONE_DMA32));
    CHECK(&m->page_zone(meet) == &m->nodes[1]->z(ZONE_DMA32));
    CHECK(m->page_to_nid(meet - 1) == 0);
    CHECK(m->page_to_nid(meet) == 1);
    CHECK(m->page_zone_id(meet) == make_zone_nid(1, ZONE_DMA32));
    churn(*m);
}

TEST_CASE("interleaved nodes find each frame's zone from the node whose memory holds it")
{
    // Node 1's memory sits inside node 0's span, so their DMA32 zones overlap: page_zone answers from the
    // pageblock bytes and, where both zones claim a pageblock, from the nodes' memory.
    machine_spec spec;
    spec.name = "interleaved";
    node_spec n0;
    n0.cpus = {0, 1};
    n0.memory = {{1, pfn_t{1} << 18}, {(pfn_t{1} << 18) + (pfn_t{1} << 16), pfn_t{1} << 19}};
    spec.nodes.push_back(n0);
    spec.nodes.push_back(node({2, 3}, pfn_t{1} << 18, (pfn_t{1} << 18) + (pfn_t{1} << 16)));
    auto m = boot_machine(spec, "v6.6");
    const pfn_t in_node1 = (pfn_t{1} << 18) + 777, in_node0 = (pfn_t{1} << 18) + (pfn_t{1} << 16) + 5;
    CHECK(&m->page_zone(in_node1) == &m->nodes[1]->z(ZONE_DMA32));
    CHECK(&m->page_zone(in_node0) == &m->nodes[0]->z(ZONE_DMA32));
    CHECK(m->page_to_nid(in_node1) == 1);
    CHECK(m->page_to_nid(100) == 0);
    // No free block of one node took in the other's frames: every frame of node 1 is on node 1's lists.
    unsigned long node1_free = 0;
    const zone& z1 = m->nodes[1]->z(ZONE_DMA32);
    for (unsigned o = 0; o < NR_PAGE_ORDERS; ++o)
        for (const auto& l : z1.free_area_[o].free_list)
            for (pfn_t p = l.first; p != NO_PFN; p = m->lists().next(l, p)) {
                REQUIRE(p >= (pfn_t{1} << 18));
                REQUIRE(p + (pfn_t{1} << o) <= (pfn_t{1} << 18) + (pfn_t{1} << 16));
                node1_free += 1UL << o;
            }
    CHECK(node1_free == static_cast<unsigned long>(z1.nr_free_pages));
    CHECK(node1_free > 0);
    // verify() checks each frame with its own zone, through allocation and free churn on both nodes...
    verify_result v = verify(*m);
    INFO((v.ok() ? std::string() : v.errors.front()));
    REQUIRE(v.ok());
    churn(*m);
    // ...and still finds a fault in node 1's frames inside node 0's span: a listed free block whose head no
    // longer says so.
    const pfn_t head = z1.free_area_[MAX_PAGE_ORDER].free_list[MIGRATE_MOVABLE].first;
    REQUIRE(head != NO_PFN);
    m->pfn_to_page(head).set_state(page_state::allocated);
    v = verify(*m);
    CHECK_FALSE(v.ok());
}
