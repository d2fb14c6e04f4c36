// The cost model as a run's header keeps it (runs.cost_model): the machine class and every parameter's value,
// {"machine_class": ..., "params": {key: value}}. Enough to charge the same prices again; what each parameter
// prices and its source come back from the class's defaults of the reading build.
#pragma once

#include "sim/cost_model.hpp"

#include <memory>
#include <string>

namespace pcplab::session
{

std::string cost_model_json(const sim::cost_model& m);
// The model a header recorded: the class's defaults with the recorded values (a value that differs from the
// default says so in its source). Null when the header has none ("{}", a run recorded from snapshots alone) or the
// text is not such an object.
std::shared_ptr<const sim::cost_model> cost_model_from_json(const std::string& json);

} // namespace pcplab::session
