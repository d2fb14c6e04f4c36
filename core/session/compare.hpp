// Comparing recordings the way mmtests' compare-kernels does: one column per recording (the first is the
// baseline), rows of summary statistics per metric over the recording's repeated runs, each cell
// "value (  pct%)" with the percentage signed so that positive means better, asterisks instead of the
// parentheses when the difference is significant (the 95% intervals mean ± 1.96 × stddev do not overlap),
// then a Duration block (user / system / elapsed, summed over the runs).
#pragma once

#include "session/recording_reader.hpp"

#include <string>
#include <vector>

namespace pcplab::session
{

struct metric_def {
    std::string name; // "elsp-4", "score"
    bool higher_is_better = false; // Hmean and pdiff when true; Amean and pndiff otherwise
    std::string what; // one line for the JSON output and the docs
    // A time in seconds that the table shows in milliseconds, under this name, when the baseline's times are
    // all under 10 s (a simulated run is often a fraction of a second: "0.00" would say nothing). Empty: as is.
    std::string name_ms;
};

// The figures of one run that the table compares (metric values in the order of compare_input::metrics).
struct run_figures {
    std::vector<double> values;
    double user_s = 0, system_s = 0, elapsed_s = 0;
};

// One column: a recording (or one side of an A/B recording).
struct compare_input {
    std::string label; // the file, for messages
    std::string era; // header line 1 ("5.4.0-rc3")
    std::string tag; // header line 2 ("vanilla", the file's stem by default)
    std::string workload;
    std::vector<metric_def> metrics;
    std::vector<run_figures> runs;
    std::vector<std::string> notes; // what the table should say about this column (runs left out)
};

// The columns of a recording: one per side, each with every finished run of that side. A run that was cut off
// (finished = 0: the recording was killed, or is still being written) is left out with a note; its last
// snapshot holds the figures of some moment of the run, not of its end.
std::vector<compare_input> compare_inputs_from(const recording& rec);

struct compare_cell {
    double value = 0;
    double pct = 0; // against the baseline column; positive = better
    bool significant = false; // only ever set on mean rows
};

struct compare_row {
    std::string stat; // "Amean", "Hmean", "Stddev", "CoeffVar", "Min", "Max"
    std::string metric;
    bool higher_is_better = false;
    std::vector<compare_cell> cells; // one per column
};

struct compare_table {
    std::string title; // the workload ("kernbench"), "" when the columns ran different ones
    std::vector<std::string> era, tag; // per column
    std::vector<int> repeats; // runs per column
    std::vector<compare_row> rows;
    std::vector<std::string> duration_names; // "User", "System", "Elapsed"
    std::vector<std::vector<double>> duration; // [name][column]
    std::vector<std::string> notes; // e.g. "significance needs at least 2 runs per column"
};

// Throws std::invalid_argument when fewer than one column is given or the columns disagree on their metrics.
compare_table build_compare_table(const std::vector<compare_input>& columns);

// The statistics (exposed for tests): sample standard deviation (n - 1; 0 for n < 2), harmonic mean
// (0 when a value is <= 0), and the signed percentage difference (positive = better).
double mean_of(const std::vector<double>& v);
double hmean_of(const std::vector<double>& v);
double stddev_of(const std::vector<double>& v);
double pct_better(double value, double base, bool higher_is_better);
bool intervals_apart(double mean_a, double sd_a, double mean_b, double sd_b); // 95%: mean ± 1.96 sd

enum class compare_format { text, markdown, csv, json };
std::string format_compare(const compare_table& t, compare_format f);

} // namespace pcplab::session
