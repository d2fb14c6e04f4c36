#include "session/recorded_cost_model.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace pcplab::session
{

std::string cost_model_json(const sim::cost_model& m)
{
    nlohmann::json params = nlohmann::json::object();
    for (const auto& p : m.params) params[p.key] = p.value;
    return nlohmann::json{{"machine_class", m.machine_class}, {"params", params}}.dump();
}

std::shared_ptr<const sim::cost_model> cost_model_from_json(const std::string& json)
{
    const auto j = nlohmann::json::parse(json, nullptr, false);
    if (!j.is_object() || !j.contains("machine_class") || !j["machine_class"].is_string()) return nullptr;
    const std::string cls = j["machine_class"].get<std::string>();
    auto m = std::make_shared<sim::cost_model>();
    try {
        *m = sim::class_defaults(cls);
    } catch (const std::out_of_range&) {
        // A class this build does not know (a newer build's): the values alone.
        m->machine_class = cls;
        m->class_title = cls;
    }
    m->class_reason = "recorded with the run";
    if (const auto params = j.find("params"); params != j.end() && params->is_object())
        for (auto it = params->begin(); it != params->end(); ++it) {
            if (!it.value().is_number()) continue;
            const double v = it.value().get<double>();
            const sim::cost_param* d = m->find(it.key());
            if (d && d->value == v) continue;
            m->set(it.key(), v,
                d ? "recorded (class default " + nlohmann::json(d->value).dump() + "; " + d->source + ")" : "recorded");
        }
    return m;
}

} // namespace pcplab::session
