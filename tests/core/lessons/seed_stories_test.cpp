// The seed stories as data: every story compiles, points at views that exist, and its two machines are the
// seed's scaled machine with nothing but the seed's switch differing (A off, B on).
#include "lessons/lesson.hpp"
#include "lessons/seed_stories.hpp"

#include "sim/seed_reference.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace pcplab;

TEST_CASE("there is a story for every seed, with checkpoints that point at a view and figures that compile")
{
    const auto& stories = lessons::seed_stories(); // throws on a table entry that does not compile
    REQUIRE(stories.size() == sim::seed_references().size());
    for (const auto& ref : sim::seed_references()) {
        const lessons::story* s = lessons::find_story(ref.id);
        REQUIRE(s);
        CHECK(s->seed == &ref);
        REQUIRE_FALSE(s->checkpoints.empty());
        sim::vtime_ns last = 0;
        for (const auto& c : s->checkpoints) {
            INFO("story " << ref.id << ": " << c.title);
            CHECK(c.after_boot_ns >= last); // in the order the run reaches them
            last = c.after_boot_ns;
            const auto& views = lessons::view_ids();
            CHECK(std::find(views.begin(), views.end(), c.view) != views.end());
            CHECK_FALSE(c.caption.empty());
            CHECK_FALSE(c.figures.empty());
            for (const auto& f : c.figures) CHECK(f.expr.valid());
        }
    }
    CHECK(lessons::find_story("7") == nullptr);
}

TEST_CASE("a story's machines are the seed's scaled machine, A without the patch and B with it, nothing else differing")
{
    for (const char* id : {"000", "004"}) {
        INFO("story " << id);
        const lessons::story* s = lessons::find_story(id);
        REQUIRE(s);
        const lessons::story_machines m = lessons::make_story_machines(*s);
        const mm::patch sw = s->seed->sw;
        CHECK_FALSE(m.a.patches[sw]);
        CHECK(m.b.patches[sw]);
        for (unsigned i = 0; i < mm::NR_PATCHES; ++i)
            if (static_cast<mm::patch>(i) != sw) CHECK(m.a.patches.on[i] == m.b.patches.on[i]);
        CHECK(m.a.workload == s->seed->workload);
        CHECK(m.a.workload == m.b.workload);
        CHECK(m.a.spec.nr_cpus() == m.b.spec.nr_cpus());
        CHECK(m.a.spec.name == m.b.spec.name);
        CHECK(m.a.keep_events);
        CHECK(static_cast<bool>(m.make_load));
        // Scaled as `pcplab-cli seeds` scales it: less memory per node than the preset.
        CHECK(sim::largest_node_gib(m.scenario.spec) < m.scenario.preset_gib_per_node);
    }
}
