// Engine benchmark: events per second and virtual seconds per wall second for each seed preset under its
// seed's workload, plus peak RSS. Called from bench_main.cpp ("engine" section).
#pragma once

#include <string>
#include <vector>

// Empty `presets`: the five seed presets (epyc2-256, skylake-4s, intel-2s-224, meta-1t-316, xeon-88-503g).
void bench_engine(const std::vector<std::string>& presets);
