#include "core/lessons/lesson_test_support.hpp"
#include "lessons/expr.hpp"
#include "lessons/expr_fields.hpp"
#include "lessons/text_template.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

using namespace pcplab;
using namespace pcplab::lessons;

namespace
{

compiled_expr must_compile(const std::string& text)
{
    auto r = compile_expr(text);
    if (auto* e = std::get_if<pcplab::error>(&r)) FAIL("'" << text << "' did not compile: " << e->message);
    return std::get<compiled_expr>(r);
}

pcplab::error must_fail(const std::string& text, std::optional<vtype> want = std::nullopt)
{
    auto r = compile_expr(text, want);
    REQUIRE(std::holds_alternative<pcplab::error>(r));
    return std::get<pcplab::error>(r);
}

value eval_ok(const std::string& text, const eval_context& ctx)
{
    auto v = must_compile(text).evaluate(ctx);
    if (auto* why = std::get_if<pcplab::error>(&v)) FAIL("'" << text << "' has no value: " << why->message);
    return std::get<value>(v);
}

double num(const std::string& text, const eval_context& ctx)
{
    auto v = eval_ok(text, ctx);
    REQUIRE(v.type == vtype::number);
    return v.number;
}

bool truth(const std::string& text, const eval_context& ctx)
{
    auto v = eval_ok(text, ctx);
    REQUIRE(v.type == vtype::boolean);
    return v.boolean;
}

} // namespace

TEST_CASE("every Normal-zone pageset has batch 7 reads as all(pagesets where zone == Normal, batch == 7)")
{
    auto s = test::lesson_snapshot();
    eval_context ctx{s.get()};
    CHECK(truth("all(pagesets where zone == \"Normal\", batch == 7)", ctx));
    CHECK_FALSE(truth("all(pagesets, batch == 7)", ctx));
    CHECK(truth("any(pagesets where zone == 'DMA32', batch == 63)", ctx));
    CHECK(num("count(pagesets where zone == \"Normal\" and high == 42)", ctx) == 4);
    CHECK(num("count(pagesets)", ctx) == 8);
    // A change to the state changes the verdict: the check reads the snapshot, not the text.
    s->pcp[5].batch = 8;
    CHECK_FALSE(truth("all(pagesets where zone == \"Normal\", batch == 7)", ctx));
}

TEST_CASE("aggregates sum, min, max and mean over zones, cpus and pagesets")
{
    auto s = test::lesson_snapshot();
    eval_context ctx{s.get()};
    CHECK(num("sum(zones, lock.acquisitions)", ctx) == 150);
    CHECK(num("max(zones, lock.hold_max_ns)", ctx) == 2500);
    CHECK(num("min(zones, batch)", ctx) == 7);
    CHECK(num("mean(pagesets where zone == \"DMA32\", count)", ctx) == Approx(3.0)); // 0, 2, 4, 6
    CHECK(num("sum(cpus where node == 1, sys_ns)", ctx) == 3000 + 4000);
    CHECK(num("sys_ns", ctx) == 10000);
    CHECK(num("sum(zones, caller.free_pcppages_bulk.holds)", ctx) == 10);
    CHECK(num("max(zones, caller.free_pcppages_bulk.mean_hold_ns)", ctx) == 500);
    CHECK(num("sum(zones, free_blocks)", ctx) == 10);
    CHECK(num("sum(zones, free_movable_blocks)", ctx) == 8);
    CHECK(num("sum(pagesets where cpu_node == node, 1)", ctx) == 4); // zone-major layout, CPU ids 0..3
    CHECK(num("max(nodes, init_modelled_ms)", ctx) == 22.0);
}

TEST_CASE("buddyinfo columns weighted by block size give the free page count")
{
    auto s = test::lesson_snapshot();
    eval_context ctx{s.get()};
    CHECK(truth("sum(zones, nr_free[0] + 8 * nr_free[3] + 1024 * nr_free[10]) == sum(zones, free)", ctx));
    CHECK(num("max(zones, free_unmovable[3])", ctx) == 1);
    auto out_of_range = must_compile("max(zones, nr_free[11])").evaluate(ctx);
    REQUIRE_FALSE(out_of_range.ok());
    CHECK_THAT(out_of_range.error().message, Catch::Contains("0..10"));
}

TEST_CASE("arithmetic follows the usual precedence and time units read as nanoseconds")
{
    auto s = test::lesson_snapshot();
    eval_context ctx{s.get()};
    CHECK(num("1 + 2 * 3", ctx) == 7);
    CHECK(num("(1 + 2) * 3", ctx) == 9);
    CHECK(num("-2 * -3", ctx) == 6);
    CHECK(num("7 % 4", ctx) == 3);
    CHECK(num("5ms", ctx) == 5'000'000);
    CHECK(num("1.5us", ctx) == 1500);
    CHECK(truth("time_ns == 5ms", ctx));
    CHECK(truth("not (1 > 2) and (1 < 2 or 3 < 2)", ctx));
    CHECK(num("pct(200, 150)", ctx) == -25);
    CHECK(num("round(2.345, 2)", ctx) == Approx(2.35));
    CHECK(num("max(3, 9, 4)", ctx) == 9);
    CHECK(num("ms(2500000)", ctx) == 2.5);
}

TEST_CASE("events of the step, switches and kept states are readable")
{
    auto s = test::lesson_snapshot();
    auto before = test::lesson_snapshot();
    before->cpus[0].sys_ns = 91000; // sys_ns 100000 then
    std::map<std::string, kept_state> kept{{"off", {before, {}}}};
    eval_context ctx{s.get(), nullptr, &kept};
    CHECK(truth("any(events where kind == \"limits_change\" and field == \"batch\", old == 7 and new == 63)", ctx));
    CHECK(truth("switch_on(\"pcp-update-after-deferred-init\")", ctx));
    CHECK_FALSE(truth("switch_on(\"batched-bulk-free\")", ctx));
    CHECK(num("from(\"off\", sys_ns)", ctx) == 100000);
    CHECK(num("pct(from(\"off\", sys_ns), sys_ns)", ctx) == Approx(-90));
    CHECK(num("from(\"off\", count(events))", ctx) == 0); // the kept step had no events

    // The step's events, when given, replace the snapshot's own window.
    std::vector<sim::sim_event> none;
    eval_context step_ctx{s.get(), &none, &kept};
    CHECK_FALSE(truth("any(events)", step_ctx));

    auto missing = must_compile("from(\"on\", sys_ns)").evaluate(ctx);
    REQUIRE_FALSE(missing.ok());
    CHECK_THAT(missing.error().message, Catch::Contains("keep: on"));
}

TEST_CASE("an aggregate over nothing or a division by zero has no value, with the reason")
{
    auto s = test::lesson_snapshot();
    eval_context ctx{s.get()};
    auto none = must_compile("min(pagesets where zone == \"Movable\", batch)").evaluate(ctx);
    REQUIRE_FALSE(none.ok());
    CHECK_THAT(none.error().message, Catch::Contains("no pagesets"));
    auto div = must_compile("1 / (nr_cpus - nr_cpus)").evaluate(ctx);
    REQUIRE_FALSE(div.ok());
    // The empty cases that do have a value.
    CHECK(num("count(zones where zone == \"Movable\")", ctx) == 0);
    CHECK(truth("all(zones where zone == \"Movable\", batch == 1)", ctx));
    CHECK_FALSE(truth("any(zones where zone == \"Movable\")", ctx));
}

TEST_CASE("compile errors point at the column and say what is wrong")
{
    auto e = must_fail("all(pagesets where zone == \"Normal\", bach == 7)");
    CHECK(e.column == 38);
    CHECK_THAT(e.message, Catch::Contains("unknown name 'bach'") && Catch::Contains("batch"));

    e = must_fail("nr_cpus == \"7\"");
    CHECK_THAT(e.message, Catch::Contains("compares a number with a string"));
    e = must_fail("zone < \"Normal\"");
    CHECK_THAT(e.message, Catch::Contains("unknown name 'zone'")); // zone is a record field, not global
    e = must_fail("count(zones where zone < \"Normal\")");
    CHECK_THAT(e.message, Catch::Contains("orders numbers only"));
    e = must_fail("sys_ns = 3");
    CHECK(e.column == 8);
    CHECK_THAT(e.message, Catch::Contains("=="));
    e = must_fail("\"unclosed");
    CHECK_THAT(e.message, Catch::Contains("never closed"));
    e = must_fail("count(zones, batch)");
    CHECK_THAT(e.message, Catch::Contains("count() takes a collection"));
    e = must_fail("all(zones where count(pagesets) > 1, batch > 0)");
    CHECK_THAT(e.message, Catch::Contains("cannot be used inside"));
    e = must_fail("all(zones)");
    CHECK_THAT(e.message, Catch::Contains("needs a condition"));
    e = must_fail("sum(zones, batch == 7)");
    CHECK_THAT(e.message, Catch::Contains("needs a number"));
    e = must_fail("nr_free + 1");
    CHECK_THAT(e.message, Catch::Contains("unknown name")); // nr_free is a zone field
    e = must_fail("max(zones, nr_free)");
    CHECK_THAT(e.message, Catch::Contains("needs an index"));
    e = must_fail("switch_on(\"no-such-switch\")");
    CHECK_THAT(e.message, Catch::Contains("unknown switch"));
    e = must_fail("1 < 2 < 3");
    CHECK_THAT(e.message, Catch::Contains("do not chain"));
    e = must_fail("5 kb");
    CHECK_THAT(e.message, Catch::Contains("unexpected"));
    e = must_fail("5kb");
    CHECK_THAT(e.message, Catch::Contains("not a unit"));
    e = must_fail("sys_ns", vtype::boolean);
    CHECK_THAT(e.message, Catch::Contains("truth value is needed"));
    e = must_fail("zones");
    CHECK_THAT(e.message, Catch::Contains("collection"));
}

TEST_CASE("a check report explains compares and quantifiers with their values")
{
    auto s = test::lesson_snapshot();
    eval_context ctx{s.get()};
    auto x = must_compile("count(pagesets where batch == 7) == 4").explain(ctx);
    CHECK(x.detail == "4 == 4");
    x = must_compile("all(pagesets, batch == 7)").explain(ctx);
    CHECK(x.detail == "all: 4 of 8 pagesets");
    CHECK_FALSE(std::get<value>(x.result).boolean);
    x = must_compile("sys_ns > 1 and sum(zones, batch) < 100").explain(ctx);
    CHECK(x.detail == "10000 > 1; 70 < 100");
}

TEST_CASE("text placeholders are filled from the state, and their errors carry a column")
{
    auto s = test::lesson_snapshot();
    eval_context ctx{s.get()};
    text_template t;
    REQUIRE(t.append_line("batch {{ min(zones where zone == \"Normal\", batch) }}, paper 7").ok());
    REQUIRE(t.append_line("zone {{ max(zones, lock.hold_max_ns) }} ns, {{ preset }}").ok());
    CHECK(t.render(ctx) == "batch 7, paper 7\nzone 2500 ns, tiny");
    CHECK(t.has_placeholders());

    text_template bad;
    auto err = bad.append_line("x {{ bach }} y");
    REQUIRE_FALSE(err.ok());
    CHECK(err.error().column == 6);
    err = bad.append_line("x {{ batch");
    REQUIRE_FALSE(err.ok());
    CHECK_THAT(err.error().message, Catch::Contains("never closed"));
    CHECK(bad.empty());

    text_template missing;
    REQUIRE(missing.append_line("{{ from(\"gone\", sys_ns) }}").ok());
    CHECK_THAT(missing.render(ctx), Catch::StartsWith("[?: "));
}

TEST_CASE("every field of the condition language is documented in lessons/README.md")
{
    std::ifstream in(std::string(PCPLAB_RESOURCE_DIR) + "/../lessons/README.md");
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string readme = ss.str();
    const scope scopes[] = {scope::global, scope::zones, scope::pagesets, scope::cpus, scope::events, scope::nodes};
    for (scope s : scopes)
        for (const auto& f : fields_of(s)) {
            if (f.name.rfind("caller.", 0) == 0) continue; // documented as caller.NAME.FIELD with the names
            std::string shown = f.indexed ? f.name + "[N]" : f.name;
            INFO(scope_name(s) << " field " << shown);
            CHECK(readme.find("`" + shown + "`") != std::string::npos);
        }
}

TEST_CASE("an expression nested deeper than any lesson needs is refused, not a stack overflow")
{
    for (const std::string& text :
        {std::string(5000, '(') + "1" + std::string(5000, ')'), std::string(5000, '-') + "1", [] {
             std::string s;
             for (int i = 0; i < 3000; ++i) s += "not ";
             return s + "true";
         }()}) {
        auto e = must_fail(text);
        CHECK_THAT(e.message, Catch::Contains("nests more than"));
    }
    // 50 levels are fine.
    auto s = test::lesson_snapshot();
    eval_context ctx{s.get()};
    CHECK(num(std::string(50, '(') + "2" + std::string(50, ')') + " * " + std::string(50, '-') + "1", ctx) == 2);
}
