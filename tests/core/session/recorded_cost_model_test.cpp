// A run's header keeps the cost model as its class and values; read back, it charges the same prices.
#include "support/small_machine.hpp"

#include "session/recorded_cost_model.hpp"

#include <catch2/catch.hpp>

#include <map>

using namespace pcplab;

namespace
{

std::map<std::string, double> values(const sim::cost_model& m)
{
    std::map<std::string, double> out;
    for (const auto& p : m.params) out[p.key] = p.value;
    return out;
}

} // namespace

TEST_CASE("a recorded cost model reads back with the class and values it was recorded with")
{
    auto spec = test::small_spec(1, 4, 1);
    const sim::cost_model live = sim::cost_model_for(spec);
    const std::string key = live.params.front().key;
    spec.cost_model[key] = live.params.front().value * 2 + 0.125; // a preset override
    const sim::cost_model overridden = sim::cost_model_for(spec);

    const auto back = session::cost_model_from_json(session::cost_model_json(overridden));
    REQUIRE(back);
    CHECK(back->machine_class == overridden.machine_class);
    CHECK(values(*back) == values(overridden));
    CHECK(sim::explain_rates(*back).size() == sim::explain_rates(overridden).size());
    // The override says so; a default keeps the class's own source.
    CHECK(back->find(key)->source.rfind("recorded", 0) == 0);
    CHECK(back->params.back().source == overridden.params.back().source);
}

TEST_CASE("a header without a cost model reads back as none, one of an unknown class as its values")
{
    CHECK_FALSE(session::cost_model_from_json("{}"));
    CHECK_FALSE(session::cost_model_from_json(""));
    CHECK_FALSE(session::cost_model_from_json("not json"));
    const auto m = session::cost_model_from_json(R"({"machine_class": "future_class", "params": {"lock_ns": 9}})");
    REQUIRE(m);
    CHECK(m->machine_class == "future_class");
    REQUIRE(m->find("lock_ns"));
    CHECK(m->get("lock_ns") == 9);
}
