#include "sim/cost_model.hpp"
#include "sim/preset.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <regex>
#include <string>
#include <variant>

using namespace pcplab;

namespace
{

mm::machine_spec ok(const sim::preset_result& r)
{
    if (auto* e = std::get_if<pcplab::error>(&r)) FAIL(e->str());
    return std::get<mm::machine_spec>(r);
}

// A small two-node preset with the given description, sockets and cost_model object.
mm::machine_spec preset_with(const std::string& description, int sockets, const std::string& cost_model)
{
    std::string nodes;
    for (int s = 0; s < sockets; ++s) nodes += std::string(s ? ", " : "") + R"({"cpus": 2, "memory_gib": 4})";
    const std::string text = R"({"description": ")" + description + R"(", "era": "v6.7", "sockets": )"
        + std::to_string(sockets) + R"(, "nodes": [)" + nodes + R"(], "cost_model": )" + cost_model + "}";
    return ok(sim::parse_preset(text, "test.json"));
}

std::map<std::string, double> rates_by_name(const sim::cost_model& m)
{
    std::map<std::string, double> out;
    for (const auto& r : sim::explain_rates(m)) out[r.name] = r.value;
    return out;
}

} // namespace

TEST_CASE("every shipped preset resolves to a complete cost model of its machine class")
{
    const std::map<std::string, std::string> expected_class
        = {{"classroom", "generic_desktop"}, {"epyc2-256", "amd_rome_2s"}, {"broadwell-2s", "intel_bdw_ep_2s"},
            {"xeon-88-503g", "intel_bdw_ep_2s"}, {"broadwell-4s", "intel_bdw_ex_4s"}, {"skylake-2s", "intel_skx_2s"},
            {"skylake-4s", "intel_skx_4s"}, {"intel-2s-224", "intel_spr_2s"}, {"meta-1t-316", "amd_turin_dense_1s_316"},
            {"meta-250g-176", "amd_turin_dense_1s_316"}, {"xeon-8s-288-1t", "intel_hsx_ex_8s"}};
    const auto names = sim::list_presets();
    REQUIRE(names.size() >= expected_class.size());
    for (const auto& name : names) {
        INFO("preset " << name);
        const auto spec = ok(sim::load_preset(name));
        const sim::cost_model m = sim::cost_model_for(spec);
        if (expected_class.count(name)) CHECK(m.machine_class == expected_class.at(name));
        CHECK_FALSE(m.class_reason.empty());
        // Every key a rate reads is there (compile_rates throws otherwise) and every rate is positive.
        REQUIRE_NOTHROW(sim::compile_rates(m));
        const auto rates = sim::explain_rates(m);
        CHECK(rates.size() == 19);
        for (const auto& r : rates) {
            INFO(r.name << " = " << r.formula);
            CHECK(r.value > 0);
        }
        // Every preset value is the one in force.
        for (const auto& [key, value] : spec.cost_model) {
            INFO(key);
            CHECK(m.get(key) == value);
            CHECK(m.find(key)->source.rfind("preset", 0) == 0);
        }
    }
}

TEST_CASE("every class default names what it prices and its source row or estimate")
{
    const std::regex cited(R"(\[[A-Z][0-9]+\]|\bE\b|=|nominal)");
    CHECK(sim::cost_class_names().size() == 9);
    for (const auto& cls : sim::cost_class_names()) {
        INFO("class " << cls);
        const sim::cost_model m = sim::class_defaults(cls);
        CHECK(m.machine_class == cls);
        REQUIRE_NOTHROW(sim::compile_rates(m));
        for (const auto& p : m.params) {
            INFO(p.key << ": " << p.source);
            CHECK_FALSE(p.what.empty());
            CHECK(std::regex_search(p.source, cited));
            CHECK(p.value >= 0);
        }
    }
    CHECK_THROWS_AS(sim::class_defaults("no_such_class"), std::out_of_range);
}

TEST_CASE("a preset override replaces the class default and is sourced to the preset")
{
    const auto spec = preset_with("made up", 2, R"({"c2c_ns.same_ccx": 25, "page_ns.struct_page_miss": 140,
        "lock_ns.handover_factor": 2})");
    const sim::cost_model m = sim::cost_model_for(spec);
    REQUIRE(m.machine_class == "amd_rome_2s"); // inferred from the AMD CCX key and 2 sockets

    const sim::cost_param* miss = m.find("page_ns.struct_page_miss");
    REQUIRE(miss);
    CHECK(miss->value == 140);
    CHECK(miss->source.rfind("preset", 0) == 0);
    CHECK(miss->source.find("class default 122") != std::string::npos); // what it replaced stays visible
    // An untouched key keeps the document's source.
    CHECK(m.find("dram_ns.local")->source == "\u00a75b: [M5] H (NPS1, 128 MB random)");
    CHECK(m.find("c2c_ns.same_ccx")->source.find("= class default") != std::string::npos);

    const sim::cost_rates r = sim::compile_rates(m);
    const sim::cost_rates d = sim::compile_rates(sim::class_defaults("amd_rome_2s"));
    CHECK(r.page_miss_local_ns == 140);
    CHECK(d.page_miss_local_ns == 122);
    CHECK(r.handover_socket_ns == Approx(2 * 125));
    CHECK(d.handover_socket_ns == Approx(1.5 * 125));
}

TEST_CASE("the machine class comes from the description's section, else the topology keys")
{
    std::string why;
    CHECK(sim::infer_cost_class(preset_with("see cost-model-sources.md section 5e", 4, "{}"), &why) == "intel_skx_4s");
    CHECK(why.find("5e") != std::string::npos);
    CHECK(sim::infer_cost_class(preset_with("see cost-model-sources.md section 5e", 2, "{}")) == "intel_skx_2s");
    CHECK(sim::infer_cost_class(preset_with("x", 1, R"({"c2c_ns.same_ccx": 30})")) == "amd_turin_dense_1s_316");
    CHECK(sim::infer_cost_class(preset_with("x", 2, R"({"c2c_ns.same_tile": 50})")) == "intel_spr_2s");
    CHECK(sim::infer_cost_class(preset_with("x", 4, R"({"c2c_ns.cross_socket_1hop": 140})")) == "intel_bdw_ex_4s");
    CHECK(sim::infer_cost_class(preset_with("a laptop", 2, "{}"), &why) == "generic_desktop");
    CHECK(why.find("generic") != std::string::npos);
}

TEST_CASE("compiled rates follow the documented formulas")
{
    const auto rome = rates_by_name(sim::class_defaults("amd_rome_2s"));
    CHECK(rome.at("list_op_ns") == 1);
    CHECK(rome.at("page_miss_remote_ns") == 210);
    CHECK(rome.at("lock_ns") == 16); // irqsave: zone->lock
    CHECK(rome.at("handover_smt_ns") == Approx(1.5 * 8));
    CHECK(rome.at("handover_socket_ns") == Approx(1.5 * 125)); // other CCX, line homed locally
    CHECK(rome.at("handover_socket_home_remote_ns") == Approx(1.5 * 260));
    CHECK(rome.at("handover_remote_ns") == Approx(1.5 * 265));
    CHECK(rome.at("clear_page_ns") == Approx(4096.0 / 15));
    CHECK(rome.at("page_hit_ns") == Approx(12 / 3.0));
    CHECK(rome.at("call_ns") == Approx((60 - 2 - 2 * 4.0) / 2));
    CHECK(rome.at("cache_lines_per_cpu") == 8192);

    const auto hsx = rates_by_name(sim::class_defaults("intel_hsx_ex_8s"));
    CHECK(hsx.at("page_miss_remote_ns") == Approx((3 * 197 + 4 * 260) / 7.0)); // 3 sockets at 1 hop, 4 at 2
    CHECK(hsx.at("handover_remote_ns") == Approx(1.5 * (3 * 150 + 4 * 220) / 7.0));

    const sim::cost_rates skx = sim::compile_rates(sim::class_defaults("intel_skx_2s"));
    CHECK(skx.handover_remote_to_home_ns == Approx(1.5 * 178));
    CHECK(skx.handover_remote_from_home_ns == Approx(1.5 * 114));
    CHECK(skx.handover_remote_ns == Approx(1.5 * 146));
    // One socket: no remote node, the cross-socket rates collapse to the socket ones.
    const sim::cost_rates turin = sim::compile_rates(sim::class_defaults("amd_turin_dense_1s_316"));
    CHECK(turin.page_miss_remote_ns == turin.page_miss_local_ns);
    CHECK(turin.handover_remote_ns == turin.handover_socket_ns);

    sim::cost_model broken = sim::class_defaults("generic_desktop");
    std::erase_if(broken.params, [](const sim::cost_param& p) { return p.key == "bw_gbps.single_thread_write"; });
    CHECK_THROWS_WITH(sim::compile_rates(broken), Catch::Contains("bw_gbps.single_thread_write"));
}

TEST_CASE("handover_ns prices the lock word's home node")
{
    const sim::cost_rates rome = sim::compile_rates(sim::class_defaults("amd_rome_2s"));
    CHECK(sim::handover_ns(rome, true, true, true, true) == rome.handover_smt_ns);
    CHECK(sim::handover_ns(rome, false, true, true, true) == rome.handover_socket_ns);
    // Two CPUs of the socket without the zone's node pay about twice as much ([C1] + [C3]).
    CHECK(sim::handover_ns(rome, false, true, false, false) > 2 * sim::handover_ns(rome, false, true, true, true));
    const sim::cost_rates skx = sim::compile_rates(sim::class_defaults("intel_skx_2s"));
    // [C4]: a line homed in the reader's socket costs more than one homed in the writer's.
    CHECK(sim::handover_ns(skx, false, false, false, true) > sim::handover_ns(skx, false, false, true, false));
}

TEST_CASE("work_ns charges each counted step at its rate and leaves deferred init out")
{
    sim::cost_rates r;
    r.list_op_ns = 1.5;
    r.merge_step_ns = 2;
    r.split_step_ns = 3;
    r.page_hit_ns = 0.5;
    r.page_miss_local_ns = 100;
    r.page_miss_remote_ns = 170;
    mm::mm_work w;
    w.pcp_list_ops = 3;
    w.buddy_list_ops = 2;
    w.merge_steps = 4;
    w.split_steps = 1;
    w.page_touch_hit = 5;
    w.page_touch_local = 2;
    w.page_touch_remote = 1;
    // 5 list ops x 1.5 + 4 x 2 + 1 x 3 + 5 x 0.5 + 2 x 100 + 1 x 170
    CHECK(sim::work_ns(r, w) == Approx(7.5 + 8 + 3 + 2.5 + 200 + 170));

    mm::mm_work with_init = w;
    with_init.pages_initialised = 1000000;
    CHECK(sim::work_ns(r, with_init) == sim::work_ns(r, w));
    mm::mm_work twice = w;
    twice += w;
    CHECK(sim::work_ns(r, twice) == Approx(2 * sim::work_ns(r, w)));
    CHECK(sim::work_ns(r, mm::mm_work{}) == 0);
}

TEST_CASE("a cold-buddy free costs what the per-page buddy estimate of section 5a says, without fitting it")
{
    // One order-0 free that merges once with a buddy missing to DRAM: a list op, a merge step, a miss.
    const sim::cost_model m = sim::class_defaults("amd_rome_2s");
    const sim::cost_rates r = sim::compile_rates(m);
    mm::mm_work w;
    w.buddy_list_ops = 1;
    w.merge_steps = 1;
    w.page_touch_local = 1;
    const double dram = m.get("dram_ns.local");
    CHECK(sim::work_ns(r, w) > m.get("page_ns.buddy_per_page_k_new") * dram);
    CHECK(sim::work_ns(r, w) < 2 * m.get("page_ns.buddy_per_page_k_old") * dram);
}

TEST_CASE("deferred init time falls with threads until the node's memory bandwidth bounds it")
{
    const sim::cost_rates r = sim::compile_rates(sim::class_defaults("intel_skx_2s")); // t1 17.7, floor 1.37
    const unsigned long pages = 100UL << 20;
    const double t1 = sim::deferred_init_ms(r, pages, 1);
    CHECK(t1 == Approx(pages * 17.7 / 1e6));
    CHECK(t1 / sim::deferred_init_ms(r, pages, 2) == Approx(2));
    CHECK(sim::deferred_init_ms(r, pages, 2) / sim::deferred_init_ms(r, pages, 4) == Approx(2));
    CHECK(t1 / sim::deferred_init_ms(r, pages, 8) == Approx(8)); // 17.7 / 8 = 2.2 ns/page, above the floor
    // 17.7 / 16 = 1.1 ns/page is below the 1.37 floor: from 16 threads on, time no longer falls.
    const double floor_ms = pages * 1.37 / 1e6;
    CHECK(sim::deferred_init_ms(r, pages, 16) == Approx(floor_ms));
    CHECK(sim::deferred_init_ms(r, pages, 52) == Approx(floor_ms));
    for (int t = 1; t < 64; ++t) CHECK(sim::deferred_init_ms(r, pages, t + 1) <= sim::deferred_init_ms(r, pages, t));
    CHECK(sim::deferred_init_ms(r, pages, 0) == t1); // no threads given: one
    CHECK(sim::deferred_init_ms(r, 0, 8) == 0);
}

TEST_CASE("a preset's cost_model key that no class defines and no rate reads is refused, naming it")
{
    const std::string text = R"({"description": "made up", "era": "v6.7", "sockets": 1,
        "nodes": [{"cpus": 2, "memory_gib": 4}], "cost_model": {"dram_ns.local": 77, "dram_ns.locla": 99}})";
    auto r = sim::parse_preset(text, "typo.json");
    REQUIRE(std::holds_alternative<pcplab::error>(r));
    const std::string msg = std::get<pcplab::error>(r).str();
    CHECK(msg.find("cost_model.dram_ns.locla") != std::string::npos);
    CHECK(msg.find("unknown cost-model key") != std::string::npos);
    CHECK(sim::is_cost_model_key("dram_ns.local"));
    CHECK(sim::is_cost_model_key("lock_ns.handover_factor")); // read by a rate
    CHECK_FALSE(sim::is_cost_model_key("dram_ns.locla"));
}
