#include "lessons/lesson_parser.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

using namespace pcplab;
using namespace pcplab::lessons;

namespace
{

const std::string k_fixtures = std::string(PCPLAB_TEST_FIXTURES) + "/lessons";

lesson must_parse(const std::string& text)
{
    auto r = parse_lesson(text, "test.md");
    if (auto* errs = std::get_if<std::vector<pcplab::error>>(&r)) FAIL("did not parse: " << errs->front().str());
    return std::get<lesson>(std::move(r));
}

std::vector<pcplab::error> must_fail(const std::string& text)
{
    auto r = parse_lesson(text, "bad.md");
    REQUIRE(std::holds_alternative<std::vector<pcplab::error>>(r));
    return std::get<std::vector<pcplab::error>>(r);
}

const std::string k_front = "---\ntitle: T\nsummary: S\n---\n";

std::string read_file(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace

TEST_CASE("a lesson file is a front block, prose, and steps with one block each")
{
    auto l = must_parse("---\ntitle: Seed zero\nseed: 0\nsummary: first line\n  second line\n---\n"
                        "Intro prose.\n\n"
                        "## Read this\n\nJust prose.\n\n"
                        "## Boot\n\nBefore.\n\n```step\n"
                        "preset: epyc2-256\nnode_gib: 4\nera: 5.4.0-rc3\nswitch: pcp-update-after-deferred-init=off\n"
                        "# a comment\n"
                        "ask: What batch?\n  Think of managed/1024/4.\nchoices: 1 | 7 | 63\nanswer: 7\n"
                        "check: all(pagesets where zone == \"Normal\", batch == 7)\n"
                        "figure: Normal batch | 7 | min(pagesets where zone == \"Normal\", batch) | pages\n"
                        "figure: system time | 14760.30 s | ms(sys_ns) | ms\n"
                        "reveal: batch {{ min(zones, batch) }}\n  line two\n"
                        "keep: off\n```\n\nAfter.\n\n"
                        "## Fix\n\n```step\nswitch: pcp-update-after-deferred-init=on\nrun: 250ms\nhighlight: events\n"
                        "ask: Batch now?\nanswer: 63\ntolerance: 10%\n"
                        "check: sys_ns < from(\"off\", sys_ns)\n```\n");
    CHECK(l.title == "Seed zero");
    CHECK(l.seed == "000");
    CHECK(l.summary == "first line second line");
    CHECK(l.intro == "Intro prose.\n\n");
    REQUIRE(l.steps.size() == 3);

    const step& read = l.steps[0];
    CHECK(read.title == "Read this");
    CHECK_FALSE(read.has_block);
    CHECK_FALSE(read.needs_machine());

    const step& boot = l.steps[1];
    CHECK(boot.line == 13);
    CHECK(boot.block_line == 17);
    CHECK(boot.boots);
    CHECK(boot.setup.preset == "epyc2-256");
    CHECK(boot.setup.node_gib == 4.0);
    CHECK(boot.setup.era == "5.4.0-rc3");
    REQUIRE(boot.setup.switches.size() == 1);
    CHECK_FALSE(boot.setup.switches[0].second);
    CHECK(boot.prose == "Before.\n\n\nAfter.\n\n");
    REQUIRE(boot.predict);
    CHECK(boot.predict->question == "What batch?\nThink of managed/1024/4.");
    CHECK(boot.predict->choices == std::vector<std::string>{"1", "7", "63"});
    CHECK(boot.predict->accepts_choice(1));
    CHECK_FALSE(boot.predict->accepts_choice(2));
    REQUIRE(boot.checks.size() == 1);
    CHECK(boot.checks[0].line == 27);
    REQUIRE(boot.figures.size() == 2);
    CHECK(boot.figures[0].paper == 7.0);
    CHECK(boot.figures[0].unit == "pages");
    CHECK(boot.figures[1].paper == 14760.30);
    CHECK(boot.figures[1].paper_unit == "s");
    CHECK(boot.reveal.source() == "batch {{ min(zones, batch) }}\nline two");
    CHECK(boot.keep == "off");

    // The fix step changes one switch; the rest of the setup carries over.
    const step& fix = l.steps[2];
    CHECK(fix.boots);
    CHECK(fix.setup.preset == "epyc2-256");
    CHECK(fix.setup.node_gib == 4.0);
    CHECK(fix.setup.switches.back().second);
    CHECK(fix.run_ns == 250'000'000u);
    CHECK(fix.highlight == "events");
    REQUIRE(fix.predict);
    CHECK_FALSE(fix.predict->is_choice());
    CHECK(fix.predict->accepts(60));
    CHECK(fix.predict->accepts(69));
    CHECK_FALSE(fix.predict->accepts(70));
}

TEST_CASE("the first step that needs a machine boots one even without setup keys")
{
    auto l = must_parse(
        k_front + "## A\n```step\nhighlight: pcp\n```\n## B\n```step\nrun: 1ms\n```\n## C\n```step\nrun: 1ms\n```\n");
    CHECK_FALSE(l.steps[0].needs_machine());
    CHECK_FALSE(l.steps[0].boots);
    CHECK(l.steps[1].boots);
    CHECK(l.steps[1].setup.preset == "classroom");
    CHECK_FALSE(l.steps[2].boots);
}

TEST_CASE("each kind of mistake is reported with its line and column")
{
    struct bad_case {
        std::string block;
        int line;
        int column;
        std::string says;
    };
    // The block starts at line 7 of k_front + "## S\n```step\n"; the first key is line 7.
    const bad_case cases[] = {
        {"chek: batch == 7\n", 7, 1, "unknown key 'chek'"},
        {"check: all(pagesets, bach == 7)\n", 7, 22, "unknown name 'bach'"},
        {"check: sys_ns\n", 7, 8, "truth value is needed"},
        {"preset: epyc2-512\n", 7, 9, "no preset named 'epyc2-512'"},
        {"highlight: lockz\n", 7, 12, "unknown view 'lockz'"},
        {"switch: pcp-update-after-init=on\n", 7, 9, "unknown switch"},
        {"switch: batched-bulk-free=maybe\n", 7, 9, "on or off"},
        {"era: banana\n", 7, 6, "not a kernel version"},
        {"workload: compile\n", 7, 11, "unknown workload"},
        {"param: no_such_knob=3\n", 7, 1, "no_such_knob"},
        {"sysctl: vm.swappiness=10\n", 7, 9, "unknown sysctl"},
        {"era: v6.7\nsysctl: vm.percpu_pagelist_fraction=8\n", 7, 1, "removed in v5.14"},
        {"run: 5 minutes\n", 7, 6, "not a duration"},
        {"run: finish\nworkload: stress-vm\n", 7, 6, "ends by itself"},
        {"ask: What batch?\nchoices: 7 | 63\n", 7, 1, "has no answer"},
        {"ask: What batch?\nchoices: 7 | 63\nanswer: 8\n", 9, 9, "not one of the choices"},
        {"ask: What batch?\nanswer: seven\n", 8, 9, "answer is a number"},
        {"ask: How much?\nanswer: 1e-3\n", 8, 9, "write the number out"},
        {"ask: How much?\nanswer: 7.\n", 8, 9, "1 to 6 digits after the point"},
        {"ask: How much?\nanswer: 0.1234567\n", 8, 9, "1 to 6 digits after the point"},
        {"answer: 7\n", 7, 9, "there is no question"},
        {"check: sys_ns < from(\"off\", sys_ns)\n", 7, 8, "no earlier step keeps"},
        {"figure: label | 7\n", 7, 9, "LABEL | PAPER"},
        {"figure: label | seven | batch\n", 7, 9, "not a number"},
        {"figure: label | 7 | min(zones, bach)\n", 7, 32, "unknown name 'bach'"},
        {"reveal: x {{ bach }}\n", 7, 14, "unknown name 'bach'"},
        {"run: 1ms\nrun: 2ms\n", 8, 1, "given twice"},
        {"  indented first\n", 7, 1, "continues the previous key"},
        {"no colon here\n", 7, 1, "expected 'key: value'"},
        {"init_threads: 4\n", 7, 1, "parallel-deferred-init"},
    };
    for (const auto& c : cases) {
        INFO(c.block);
        auto errs = must_fail(k_front + "## S\n```step\n" + c.block + "```\n");
        REQUIRE(errs.size() >= 1);
        CHECK(errs[0].source == "bad.md");
        CHECK(errs[0].line == c.line);
        CHECK(errs[0].column == c.column);
        CHECK_THAT(errs[0].message, Catch::Contains(c.says));
    }
}

TEST_CASE("a prediction's answer kind: a choice, a whole number, or a decimal with the decimals written")
{
    auto l = must_parse(k_front
        + "## Choice\n```step\nask: Which?\nchoices: 7 | 63\nanswer: 63\n```\n"
          "## Batch\n```step\nask: What batch?\nanswer: 63\ntolerance: 2\n```\n"
          "## Share\n```step\nask: What share?\nanswer: 0.25\ntolerance: 10%\n```\n"
          "## Negative\n```step\nask: What change?\nanswer: -69.16\n```\n");
    REQUIRE(l.steps.size() == 4);
    const auto& choice = *l.steps[0].predict;
    CHECK(choice.kind == answer_kind::choice);
    CHECK(choice.is_choice());
    CHECK(choice.accepts_choice(1));
    const auto& batch = *l.steps[1].predict;
    CHECK(batch.kind == answer_kind::whole_number);
    CHECK_FALSE(batch.is_choice());
    CHECK(batch.decimals == 0);
    CHECK(batch.answer_number == 63);
    CHECK(batch.accepts(61));
    CHECK_FALSE(batch.accepts(60));
    const auto& share = *l.steps[2].predict;
    CHECK(share.kind == answer_kind::decimal);
    CHECK(share.decimals == 2);
    CHECK(share.accepts(0.27));
    CHECK_FALSE(share.accepts(0.28));
    const auto& change = *l.steps[3].predict;
    CHECK(change.kind == answer_kind::decimal);
    CHECK(change.decimals == 2);
    CHECK(change.answer_number == Approx(-69.16));
}

TEST_CASE("structural mistakes: front block, truncated and misplaced blocks, no steps")
{
    auto errs = must_fail("## S\n```step\nrun: 1ms\n```\n");
    CHECK(errs[0].line == 1);
    CHECK_THAT(errs[0].message, Catch::Contains("front block"));

    errs = must_fail("---\ntitle: T\nsummary: S\n");
    CHECK(errs[0].line == 1);
    CHECK_THAT(errs[0].message, Catch::Contains("never closed"));

    errs = must_fail("---\ntitle: T\n---\n## S\n");
    CHECK_THAT(errs[0].message, Catch::Contains("no summary"));

    errs = must_fail("---\ntitle: T\nsummary: S\nauthor: me\n---\n## S\n");
    CHECK(errs[0].line == 4);
    CHECK_THAT(errs[0].message, Catch::Contains("unknown front-block key 'author'"));

    errs = must_fail(k_front + "## S\n```step\nrun: 1ms\n\n## Next\n");
    CHECK(errs[0].line == 6);
    CHECK_THAT(errs[0].message, Catch::Contains("truncated block"));

    errs = must_fail(k_front + "```step\nrun: 1ms\n```\n## S\n");
    CHECK(errs[0].line == 5);
    CHECK_THAT(errs[0].message, Catch::Contains("before the first"));

    errs = must_fail(k_front + "## S\n```step\nrun: 1ms\n```\n```step\nrun: 2ms\n```\n");
    CHECK(errs[0].line == 9);
    CHECK_THAT(errs[0].message, Catch::Contains("second ```step block"));

    errs = must_fail(k_front + "Only prose.\n");
    CHECK_THAT(errs[0].message, Catch::Contains("no '## ' steps"));

    // Headings inside other code blocks are not steps.
    auto l = must_parse(k_front + "## S\n```\n## not a step\n```\n");
    CHECK(l.steps.size() == 1);
}

TEST_CASE("a malformed lesson is refused and the others in the folder still load")
{
    auto set = load_lessons(k_fixtures + "/mixed");
    REQUIRE(set.lessons.size() == 1);
    CHECK(set.lessons[0].id == "00-good");
    CHECK(set.failed_files.size() == 7);
    // One error per bad file, each naming the file and the line of the mistake.
    const std::pair<std::string, int> expected[] = {{"10-unknown-key.md", 10}, {"11-bad-expression.md", 10},
        {"12-unknown-preset.md", 9}, {"13-unknown-view.md", 10}, {"14-unknown-switch.md", 10},
        {"15-missing-answer.md", 10}, {"16-truncated-block.md", 8}};
    REQUIRE(set.errors.size() == std::size(expected));
    for (std::size_t i = 0; i < set.errors.size(); ++i) {
        INFO(set.errors[i].str());
        CHECK_THAT(set.errors[i].source, Catch::EndsWith(expected[i].first));
        CHECK(set.errors[i].line == expected[i].second);
        CHECK_THAT(set.errors[i].str(),
            Catch::StartsWith(set.errors[i].source + ":" + std::to_string(expected[i].second) + ":"));
    }
}

TEST_CASE("the lessons of the source tree all load: eight of them, each with steps and checks")
{
    auto set = load_lessons(default_lessons_dir());
    for (const auto& e : set.errors) INFO(e.str());
    CHECK(set.errors.empty());
    REQUIRE(set.lessons.size() >= 8);
    for (const auto& l : set.lessons) {
        INFO(l.file);
        CHECK_FALSE(l.title.empty());
        std::size_t checks = 0;
        for (const auto& s : l.steps) checks += s.checks.size();
        CHECK(checks > 0);
    }
    // Lesson 3 walks seed 000 on epyc2-256 as 5.4.0-rc3: off (batch 7), then on (batch 63).
    const lesson* three = nullptr;
    for (const auto& l : set.lessons)
        if (l.id.rfind("03", 0) == 0) three = &l;
    REQUIRE(three);
    CHECK(three->seed == "000");
    std::vector<bool> switch_on;
    for (const auto& s : three->steps)
        if (s.boots) {
            CHECK(s.setup.preset == "epyc2-256");
            CHECK(s.setup.era == "5.4.0-rc3");
            switch_on.push_back(s.setup.switches.back().second);
        }
    CHECK(switch_on == std::vector<bool>{false, true});
    // Their number answers are counts and batches: whole numbers, asked without decimals.
    int numbers = 0;
    for (const auto& l : set.lessons)
        for (const auto& s : l.steps)
            if (s.predict && !s.predict->is_choice()) {
                INFO(l.id << ": " << s.title);
                CHECK(s.predict->kind == answer_kind::whole_number);
                ++numbers;
            }
    CHECK(numbers >= 3);
}

TEST_CASE("the example lesson in lessons/README.md is a valid lesson")
{
    const std::string readme = read_file(std::string(PCPLAB_RESOURCE_DIR) + "/../lessons/README.md");
    const std::string open = "````markdown\n";
    auto from = readme.find(open);
    REQUIRE(from != std::string::npos);
    from += open.size();
    auto to = readme.find("````\n", from);
    REQUIRE(to != std::string::npos);
    auto l = must_parse(readme.substr(from, to - from));
    CHECK(l.steps.size() == 2);
    CHECK(l.steps[0].predict);
}
