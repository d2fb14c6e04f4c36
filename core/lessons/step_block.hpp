// The keys of a ```step block turned into a step (internal to core/lessons): setup, actions, prediction,
// checks, figures and the reveal, each validated against what the program knows (presets, eras, switches,
// workloads, sysctls, view ids) so that a lesson fails to load rather than mid-class.
#pragma once

#include "lessons/lesson.hpp"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace pcplab::lessons
{

struct block_entry {
    std::string key;
    std::string value; // the text after "key:", trimmed
    int line = 0;
    int value_column = 0; // 1-based column where the value starts
    std::vector<std::pair<std::string, int>> more; // continuation lines (trimmed) and their line numbers
};

// What carries from one step of a lesson to the next.
struct lesson_state {
    std::string file;
    step_setup setup; // accumulated
    bool booted = false; // an earlier step set up a machine
    std::set<std::string> kept; // names kept by earlier steps
    std::vector<pcplab::error>* errors = nullptr;

    void error(int line, int column, std::string message) const
    {
        errors->push_back(pcplab::error::in(file, std::move(message)).at(line, column));
    }
};

// Fills `s` from the block's entries; problems go to st.errors.
void apply_step_block(const std::vector<block_entry>& entries, step& s, lesson_state& st);

// Value helpers of the lesson format (lesson_values.cpp).
// `s` without leading and trailing white space.
std::string trim(const std::string& s);
// The parts of `s` between `sep`, each trimmed ("a | b" -> {"a", "b"}).
std::vector<std::string> split(const std::string& s, char sep);
// A virtual duration: "500ms", "2s", "100us", "250ns", "1.5s". nullopt when malformed.
std::optional<sim::vtime_ns> parse_duration(const std::string& text);
// A finite number (the whole text). nullopt when malformed.
std::optional<double> parse_number(const std::string& text);

} // namespace pcplab::lessons
