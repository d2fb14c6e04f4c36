#include "lessons/lesson_parser.hpp"
#include "lessons/lesson_runner.hpp"

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::lessons;

namespace
{

lesson parse(const std::string& text)
{
    auto r = parse_lesson(text, "runner.md");
    if (auto* errs = std::get_if<std::vector<pcplab::error>>(&r)) FAIL("did not parse: " << errs->front().str());
    return std::get<lesson>(std::move(r));
}

// A classroom machine of 1 GiB per node running a kernel build (finite): milliseconds of wall time per step.
const std::string k_small
    = "---\ntitle: T\nsummary: S\n---\n"
      "## Boot\n```step\npreset: classroom\nnode_gib: 1\nera: v5.4\nworkload: kernbench\nkeep: start\n"
      "check: all(pagesets where batch > 1, high == 6 * batch)\n"
      "figure: largest batch | 63 | max(zones, batch)\n"
      "reveal: {{ count(zones) }} zones\n```\n";

} // namespace

TEST_CASE("the runner boots, runs and judges each step, reporting the values")
{
    auto l = parse(k_small
        + "## Run\n```step\nrun: 20ms\n"
          "check: run_ns >= 20ms\n"
          "check: totals.allocs > from(\"start\", totals.allocs)\n"
          "check: sum(zones, free) + sum(zones, pcp_pages) <= from(\"start\", sum(zones, free) + sum(zones, "
          "pcp_pages))\n```\n"
          "## Finish\n```step\nrun: finish\ncheck: state == \"finished\"\n"
          "check: sum(zones, free) + sum(zones, pcp_pages) == from(\"start\", sum(zones, free) + sum(zones, "
          "pcp_pages))\n```\n"
          "## Read\nNo block.\n");
    auto r = run_lesson(l);
    REQUIRE(r.steps.size() == 4);
    for (const auto& s : r.steps) {
        INFO(s.title << ": " << s.error);
        for (const auto& c : s.eval.checks) INFO(c.expr << " -> " << c.detail);
        CHECK(s.passed());
    }
    CHECK(r.passed());
    const auto& boot = r.steps[0];
    CHECK(boot.booted);
    CHECK(boot.time_ns > 0); // the boot's modelled time: nothing has run yet
    CHECK_THAT(boot.eval.checks[0].detail, Catch::StartsWith("all: "));
    REQUIRE(boot.eval.figures.size() == 1);
    CHECK(boot.eval.figures[0].simulated == 63.0);
    CHECK(boot.eval.figures[0].paper == 63.0);
    CHECK_THAT(boot.eval.reveal, Catch::EndsWith(" zones"));
    CHECK_FALSE(r.steps[1].booted);
    CHECK(r.steps[1].time_ns >= boot.time_ns + 20'000'000u);
    CHECK_THAT(r.steps[2].run, Catch::StartsWith("finished at"));
    CHECK_FALSE(r.steps[3].used_machine);
}

TEST_CASE("a check the program cannot satisfy fails its step, with the values that failed it")
{
    auto l = parse(k_small
        + "## Claim\n```step\ncheck: all(pagesets where zone == \"DMA\", batch == 2)\n"
          "check: count(zones) > 0\n```\n");
    auto r = run_lesson(l);
    CHECK_FALSE(r.passed());
    CHECK(r.steps[0].passed());
    const auto& claim = r.steps[1];
    CHECK_FALSE(claim.passed());
    REQUIRE(claim.eval.checks.size() == 2);
    CHECK_FALSE(claim.eval.checks[0].passed);
    CHECK_THAT(claim.eval.checks[0].detail, Catch::StartsWith("all: 0 of "));
    CHECK(claim.eval.checks[1].passed);
}

TEST_CASE("a figure or placeholder without a value fails the step")
{
    auto l = parse(k_small
        + "## Nothing\n```step\nfigure: Movable batch | 1 | min(zones where zone == \"Movable\", batch)\n```\n"
          "## Reveal\n```step\nreveal: {{ min(zones where zone == \"Movable\", batch) }}\n```\n");
    auto r = run_lesson(l);
    CHECK_FALSE(r.steps[1].passed());
    CHECK_FALSE(r.steps[1].eval.figures[0].simulated);
    CHECK_THAT(r.steps[1].eval.figures[0].error, Catch::Contains("no zones"));
    CHECK_FALSE(r.steps[2].passed());
    CHECK_FALSE(r.steps[2].eval.reveal_complete);
}

TEST_CASE("a reboot with one switch changed keeps the rest of the setup, and kept states survive it")
{
    // seed 000 in miniature: the same scaled machine booted with the fix off, then on.
    auto l = parse("---\ntitle: T\nsummary: S\n---\n"
                   "## Off\n```step\npreset: epyc2-256\nnode_gib: 2\nera: 5.4.0-rc3\n"
                   "switch: pcp-update-after-deferred-init=off\nworkload: kernbench\nkeep: off\n"
                   "check: all(pagesets where zone == \"Normal\", batch == 7)\n```\n"
                   "## On\n```step\nswitch: pcp-update-after-deferred-init=on\n"
                   "check: min(pagesets where zone == \"Normal\", batch) > from(\"off\", min(pagesets where zone == "
                   "\"Normal\", batch))\n"
                   "check: count(events where kind == \"limits_change\" and field == \"batch\" and old == 7) > 0\n"
                   "check: from(\"off\", count(events where kind == \"limits_change\" and old == 7)) == 0\n```\n");
    auto r = run_lesson(l);
    for (const auto& s : r.steps)
        for (const auto& c : s.eval.checks) INFO(s.title << ": " << c.expr << " -> " << c.detail);
    CHECK(r.steps[0].passed());
    CHECK(r.steps[1].booted);
    CHECK(r.steps[1].passed());
    CHECK_THAT(r.steps[1].machine, Catch::Contains("pcp-update-after-deferred-init=on") && !Catch::Contains("=off"));
}

TEST_CASE("the same lesson gives the same values on every run")
{
    auto l = parse(k_small
        + "## Run\n```step\nrun: 10ms\nfigure: allocations | - | totals.allocs\n"
          "figure: lock wait | - | sum(zones, lock.wait_ns)\n```\n");
    auto a = run_lesson(l), b = run_lesson(l);
    REQUIRE(a.steps[1].eval.figures.size() == 2);
    CHECK(a.steps[1].eval.figures[0].simulated == b.steps[1].eval.figures[0].simulated);
    CHECK(a.steps[1].eval.figures[1].simulated == b.steps[1].eval.figures[1].simulated);
    CHECK(*a.steps[1].eval.figures[0].simulated > 0);
}

TEST_CASE("live flips and sysctl writes act on the running machine without a reboot")
{
    auto l = parse(k_small
        + "## Write\n```step\nwrite: vm.percpu_pagelist_fraction=100000\n"
          "check: max(zones, batch) == 1\n```\n"
          "## Flip\n```step\nflip: batched-bulk-free=on\ncheck: switch_on(\"batched-bulk-free\")\n```\n");
    auto r = run_lesson(l);
    CHECK_FALSE(r.steps[1].booted);
    CHECK(r.steps[1].passed());
    CHECK_FALSE(r.steps[2].booted);
    CHECK(r.steps[2].passed());
}
