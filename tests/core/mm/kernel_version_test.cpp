#include "mm/kernel_era.hpp"
#include "mm/kernel_version.hpp"
#include "mm/patch_switches.hpp"

#include <catch2/catch.hpp>

using namespace pcplab::mm;

TEST_CASE("kernel versions parse and order with rc before the release")
{
    auto rc3 = kernel_version::parse("5.4.0-rc3");
    REQUIRE(rc3);
    CHECK(rc3->rc == 3);
    auto rel = kernel_version::parse("v5.4");
    REQUIRE(rel);
    CHECK(rc3->compare(*rel) < 0);
    CHECK_FALSE(kernel_version::parse("five"));
    CHECK_FALSE(kernel_version::parse("5"));
    CHECK(kernel_version::parse("6.18.2-arch1"));
}

TEST_CASE("versions map to the modelled era they belong to")
{
    CHECK(choose_era("4.19")->era.str() == "v4.19");
    CHECK(choose_era("5.4.0-rc3")->era.str() == "v5.4");
    CHECK(choose_era("5.10")->era.str() == "v5.4");
    CHECK(choose_era("6.8")->era.str() == "v6.7");
    CHECK(choose_era("6.19")->era.str() == "v6.18");
    CHECK(choose_era("4.4")->era.str() == "v4.15");
    CHECK_FALSE(choose_era("4.4")->note.empty());
    // v4.15 and v4.16 initialise 2 GiB per node before deferred init; v4.17 one section.
    CHECK(choose_era("4.15-rc4")->era.str() == "v4.15");
    CHECK(choose_era("4.16")->era.str() == "v4.15");
    CHECK(choose_era("4.17")->era.str() == "v4.17");
    CHECK(kernel_era{*kernel_version::parse("4.15-rc4")}.early_init() == early_init_rule::two_gib_per_node);
    CHECK(kernel_era{{4, 17, 0, 0}}.early_init() == early_init_rule::one_section);
}

TEST_CASE("switch defaults follow the version the patch was merged in")
{
    auto rc3 = default_patches(*kernel_version::parse("5.4.0-rc3"));
    auto v54 = default_patches(*kernel_version::parse("5.4"));
    CHECK_FALSE(rc3[patch::pcp_update_after_deferred_init]);
    CHECK(v54[patch::pcp_update_after_deferred_init]);
    CHECK(v54[patch::bulk_free_pick_outside_lock]);
    CHECK_FALSE(default_patches(*kernel_version::parse("6.6"))[patch::pcp_high_autotune]);
    CHECK(default_patches(*kernel_version::parse("6.7"))[patch::pcp_high_autotune]);
    CHECK(patch_from_name("batched-bulk-free") == patch::batched_bulk_free);
    CHECK_FALSE(patch_from_name("no-such-patch"));
    CHECK_FALSE(patch_not_applicable(patch::pcp_high_autotune, true, {5, 4, 0, 0}).empty());
    CHECK(patch_not_applicable(patch::pcp_high_autotune, true, {6, 6, 0, 0}).empty());
}
