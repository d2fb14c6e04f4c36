#include "session/compare.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

using namespace pcplab;

namespace
{

std::vector<std::string> lines_of(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

// Two runs whose sample mean and standard deviation are exactly `mean` and `sd`.
std::pair<double, double> two_runs(double mean, double sd)
{
    const double d = sd / std::sqrt(2.0);
    return {mean - d, mean + d};
}

// A column of the three kernbench metrics from (mean, stddev) per metric, K = 2 runs.
session::compare_input kernbench_column(const std::string& tag, std::array<std::pair<double, double>, 3> m,
    double user_total, double sys_total, double elapsed_total)
{
    session::compare_input c;
    c.label = tag + ".db";
    c.era = "5.4.0-rc3";
    c.tag = tag;
    c.workload = "kernbench";
    c.metrics = {{"user-256", false, ""}, {"syst-256", false, ""}, {"elsp-256", false, ""}};
    c.runs.resize(2);
    for (std::size_t k = 0; k < 3; ++k) {
        auto [a, b] = two_runs(m[k].first, m[k].second);
        c.runs[0].values.push_back(a);
        c.runs[1].values.push_back(b);
    }
    for (auto& r : c.runs) {
        r.user_s = user_total / 2;
        r.system_s = sys_total / 2;
        r.elapsed_s = elapsed_total / 2;
    }
    return c;
}

} // namespace

TEST_CASE("the compare table reproduces the layout and numbers of Mel Gorman's seed-000 mail")
{
    // The means and standard deviations of /work/shared/seeds/000 (kernbench, 5.4.0-rc3 vanilla vs
    // resetpcpu-v1r1); a few carry one more digit than the mail prints, as mmtests' unrounded values do.
    auto base = kernbench_column(
        "vanilla", {{{13249.50, 42.97}, {14760.30, 336.87}, {162.42, 2.456}}}, 39766.24, 44298.10, 519.11);
    auto fix = kernbench_column(
        "resetpcpu-v1r1", {{{15928.40, 50.834}, {4551.77, 33.70}, {118.4615, 0.81023}}}, 47802.92, 13671.93, 387.65);
    const auto t = session::build_compare_table({base, fix});
    const auto lines = lines_of(session::format_compare(t, session::compare_format::text));
    const std::vector<std::string> mail = {
        "kernbench",
        "                                5.4.0-rc3              5.4.0-rc3",
        "                                  vanilla         resetpcpu-v1r1",
        "Amean     user-256    13249.50 (   0.00%)    15928.40 * -20.22%*",
        "Amean     syst-256    14760.30 (   0.00%)     4551.77 *  69.16%*",
        "Amean     elsp-256      162.42 (   0.00%)      118.46 *  27.06%*",
        "Stddev    user-256       42.97 (   0.00%)       50.83 ( -18.30%)",
        "Stddev    syst-256      336.87 (   0.00%)       33.70 (  90.00%)",
        "Stddev    elsp-256        2.46 (   0.00%)        0.81 (  67.01%)",
    };
    REQUIRE(lines.size() > mail.size());
    for (std::size_t i = 0; i < mail.size(); ++i) CHECK(lines[i] == mail[i]);
    // CoeffVar, Min and Max follow (the mail left them out), then the Duration block exactly as mmtests
    // prints it, the long tag glued to the short one included.
    CHECK(lines[9].rfind("CoeffVar  user-256", 0) == 0);
    CHECK(lines[12].rfind("Min       user-256", 0) == 0);
    CHECK(lines[15].rfind("Max       user-256", 0) == 0);
    const std::vector<std::string> duration = {
        "",
        "                   5.4.0-rc3   5.4.0-rc3",
        "                     vanillaresetpcpu-v1r1",
        "Duration User       39766.24    47802.92",
        "Duration System     44298.10    13671.93",
        "Duration Elapsed      519.11      387.65",
    };
    REQUIRE(lines.size() >= 18 + duration.size());
    for (std::size_t i = 0; i < duration.size(); ++i) CHECK(lines[18 + i] == duration[i]);
}

TEST_CASE("positive means better in both directions, and asterisks need intervals apart")
{
    auto col = [](const std::string& tag, std::vector<std::array<double, 2>> runs) {
        session::compare_input c;
        c.label = c.tag = tag;
        c.era = "v6.7";
        c.workload = "w";
        c.metrics = {{"score", true, ""}, {"elsp-4", false, ""}};
        for (const auto& r : runs) {
            session::run_figures f;
            f.values = {r[0], r[1]};
            c.runs.push_back(f);
        }
        return c;
    };
    // Score doubles (better, +100%); elapsed time grows by 10% (worse, -10%) but with overlapping intervals.
    auto a = col("off", {{10, 100}, {20, 110}, {15, 90}});
    auto b = col("on", {{20, 110}, {40, 121}, {30, 99}});
    const auto t = session::build_compare_table({a, b});
    const auto& score = t.rows[0];
    const auto& elsp = t.rows[1];
    CHECK(score.stat == "Hmean");
    CHECK(elsp.stat == "Amean");
    CHECK(score.cells[0].value == Approx(3.0 / (1.0 / 10 + 1.0 / 20 + 1.0 / 15)));
    CHECK(score.cells[1].pct == Approx(100));
    CHECK(score.cells[1].significant == false); // 13.8 +- 1.96 x 5 and 27.7 +- 1.96 x 10 overlap
    CHECK(elsp.cells[1].value == Approx(110));
    CHECK(elsp.cells[1].pct == Approx(-10));
    CHECK_FALSE(elsp.cells[1].significant);
    CHECK(score.cells[0].pct == 0);
    CHECK_FALSE(score.cells[0].significant); // the baseline is never marked

    // Tight runs far apart: significant.
    auto c = col("tight-off", {{10, 100}, {10.1, 100.2}});
    auto d = col("tight-on", {{12, 90}, {12.1, 90.1}});
    const auto t2 = session::build_compare_table({c, d});
    CHECK(t2.rows[0].cells[1].significant);
    CHECK(t2.rows[1].cells[1].significant);
    CHECK(t2.rows[1].cells[1].pct == Approx((100.1 - 90.05) / 100.1 * 100));
    // Only the mean rows carry significance; Stddev is always "less is better".
    for (std::size_t r = 2; r < t2.rows.size(); ++r) CHECK_FALSE(t2.rows[r].cells[1].significant);
    CHECK(t2.rows[2].stat == "Stddev");
    CHECK_FALSE(t2.rows[2].higher_is_better);
    const auto text = session::format_compare(t2, session::compare_format::text);
    CHECK(text.find("*  19.90%*") != std::string::npos); // score: Hmean 12.0498 vs 10.0498
    CHECK(text.find("*  10.04%*") != std::string::npos); // elsp: 90.05 vs 100.1
}

TEST_CASE("one run per column compares but marks nothing significant, and says why")
{
    session::compare_input a, b;
    for (auto* c : {&a, &b}) {
        c->metrics = {{"elsp-1", false, ""}};
        c->runs.resize(1);
    }
    a.runs[0].values = {100};
    b.runs[0].values = {50};
    const auto t = session::build_compare_table({a, b});
    CHECK(t.rows[0].cells[1].pct == Approx(50));
    CHECK_FALSE(t.rows[0].cells[1].significant);
    REQUIRE(t.notes.size() == 1);
    CHECK(t.notes[0].find("at least 2 runs") != std::string::npos);
    CHECK(session::format_compare(t, session::compare_format::text).find("Note: significance") != std::string::npos);
}

TEST_CASE("the statistics follow their definitions")
{
    CHECK(session::mean_of({2, 4, 4, 4, 5, 5, 7, 9}) == Approx(5));
    CHECK(session::stddev_of({2, 4, 4, 4, 5, 5, 7, 9}) == Approx(std::sqrt(32.0 / 7)));
    CHECK(session::stddev_of({3}) == 0);
    CHECK(session::hmean_of({1, 2, 4}) == Approx(3 / 1.75));
    CHECK(session::hmean_of({1, 0, 4}) == 0);
    CHECK(session::pct_better(90, 100, false) == Approx(10));
    CHECK(session::pct_better(110, 100, false) == Approx(-10));
    CHECK(session::pct_better(110, 100, true) == Approx(10));
    CHECK(session::pct_better(5, 0, true) == 100);
    CHECK(session::pct_better(5, 0, false) == -100);
    CHECK(session::pct_better(0, 0, false) == 0);
    CHECK(session::intervals_apart(10, 1, 14, 1)); // 10 +- 1.96 vs 14 +- 1.96: 11.96 < 12.04
    CHECK_FALSE(session::intervals_apart(10, 1, 13.9, 1));
    CHECK_FALSE(session::intervals_apart(14, 1, 10.1, 1));
}

TEST_CASE("markdown, CSV and JSON carry the same cells")
{
    session::compare_input a, b;
    for (auto* c : {&a, &b}) {
        c->era = "v5.4";
        c->workload = "kernbench";
        c->metrics = {{"elsp-8", false, ""}};
        c->runs.resize(2);
    }
    a.tag = "off";
    b.tag = "on";
    a.runs[0].values = {10};
    a.runs[1].values = {10.2};
    b.runs[0].values = {5};
    b.runs[1].values = {5.1};
    const auto t = session::build_compare_table({a, b});
    REQUIRE(t.rows[0].cells[1].significant);

    const auto md = session::format_compare(t, session::compare_format::markdown);
    CHECK(md.find("| Amean elsp-8 | 10.10 (   0.00%) | 5.05 \\*  50.00%\\* |") != std::string::npos);
    CHECK(md.find("v5.4<br>off") != std::string::npos);

    const auto csv = lines_of(session::format_compare(t, session::compare_format::csv));
    CHECK(csv[0] == "stat,metric,column,era,tag,value,pct,significant");
    CHECK(csv[1] == "Amean,elsp-8,0,v5.4,off,10.1,0.0000,0");
    CHECK(csv[2] == "Amean,elsp-8,1,v5.4,on,5.05,50.0000,1");

    const auto j = nlohmann::json::parse(session::format_compare(t, session::compare_format::json));
    CHECK(j["title"] == "kernbench");
    CHECK(j["columns"][1]["tag"] == "on");
    CHECK(j["columns"][1]["runs"] == 2);
    CHECK(j["rows"][0]["cells"][1]["significant"] == true);
    CHECK(j["rows"][0]["cells"][1]["pct"].get<double>() == Approx(50));
    CHECK(j["duration"]["Elapsed"].size() == 2);
}

TEST_CASE("times of short runs are shown in milliseconds, decided by the baseline for every column")
{
    auto col = [](double elsp) {
        session::compare_input c;
        c.metrics = {{"elsp-4", false, "", "elsp-ms-4"}, {"score", true, ""}};
        c.runs.resize(2);
        c.runs[0].values = {elsp, 5};
        c.runs[1].values = {elsp, 5};
        return c;
    };
    const auto short_runs = session::build_compare_table({col(0.05), col(12)});
    CHECK(short_runs.rows[0].metric == "elsp-ms-4");
    CHECK(short_runs.rows[0].cells[0].value == Approx(50));
    CHECK(short_runs.rows[0].cells[1].value == Approx(12000)); // the other column scaled alike
    CHECK(short_runs.rows[1].metric == "score");
    CHECK(short_runs.rows[1].cells[0].value == Approx(5)); // not a time: untouched
    const auto long_runs = session::build_compare_table({col(12), col(0.05)});
    CHECK(long_runs.rows[0].metric == "elsp-4");
    CHECK(long_runs.rows[0].cells[0].value == Approx(12));
}
