// Internal to run_summary*.cpp: the JSON tree behind both the JSON and the text output, so the two always
// show the same figures (and a repeat's mean/stddev reaches the text without a second code path).
#pragma once

#include "sim/run_summary.hpp"

#include <nlohmann/json.hpp>

namespace pcplab::sim::detail
{

using ojson = nlohmann::ordered_json;

ojson run_summary_object(const run_summary& s);
// Every numeric leaf becomes {"mean", "stddev"} (see run_repeat_json).
ojson run_repeat_object(const std::vector<run_summary>& runs);

// Text of an object made by either function above.
std::string run_object_text(const ojson& j);

} // namespace pcplab::sim::detail
