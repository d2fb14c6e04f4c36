// Figures: PNG at the asked pixel size, SVG with axis titles, PDF; every series of a recording into a folder;
// the compare view overlays one line per recording and shows the mmtests table.
#include "core/session/session_test_support.hpp"

#include "ui/session/compare_view.hpp"
#include "ui/session/figure_export.hpp"

#include <QDir>
#include <QFile>
#include <QImage>
#include <qcustomplot.h>

#include <catch2/catch.hpp>

#include <fstream>

using namespace pcplab;

namespace
{

// `runs` runs of 20 samples, pcp-high-autotune on or off.
void record(const std::string& path, bool autotune, int runs = 2)
{
    test::sampled_run p;
    p.samples = 20;
    p.autotune = autotune;
    test::record_sampled(path, p, runs);
}

std::string slurp(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// Where pictures go for a human to look at (kept after the test).
std::string picture_dir()
{
    const char* d = std::getenv("PCPLAB_TEST_PICTURES");
    return d && *d ? d : "/tmp";
}

} // namespace

TEST_CASE("a series plot saves as PNG at its pixel size, SVG with axis titles, and PDF")
{
    test::scratch_file f("fig.db");
    record(f.path(), true, 1);
    session::recording rec(f.path());
    const auto lines = session::read_series(rec, 1, *session::find_series("high"));
    REQUIRE(lines.size() == 3); // Node 0 DMA, DMA32 (1 GiB, all below 4 GiB), Node 1 Normal

    QCustomPlot plot;
    plot.resize(800, 500);
    ui::draw_series(plot, lines, *session::find_series("high"), "pcp->high");
    CHECK(plot.graphCount() == 3);
    CHECK(plot.xAxis->label() == "virtual time (s)");
    CHECK(plot.yAxis->label() == "pcp->high, zone value (pages)");
    CHECK(plot.legend->visible());

    test::scratch_file png("fig.png"), svg("fig.svg"), pdf("fig.pdf");
    CHECK(ui::save_plot(plot, QString::fromStdString(png.path()), ui::figure_format::png, 640, 360) == "");
    QImage img(QString::fromStdString(png.path()));
    CHECK(img.width() == 640);
    CHECK(img.height() == 360);
    CHECK(ui::save_plot(plot, QString::fromStdString(svg.path()), ui::figure_format::svg, 640, 360) == "");
    const std::string s = slurp(svg.path());
    CHECK(s.find("<svg") != std::string::npos);
    CHECK(s.find("virtual time (s)") != std::string::npos);
    CHECK(s.find("zone value (pages)") != std::string::npos);
    CHECK(ui::save_plot(plot, QString::fromStdString(pdf.path()), ui::figure_format::pdf, 640, 360) == "");
    CHECK(slurp(pdf.path()).rfind("%PDF", 0) == 0);
    CHECK(ui::save_plot(plot, "/nonexistent-dir/x.png", ui::figure_format::png, 640, 360) != "");
    plot.savePng(QString::fromStdString(picture_dir() + "/pcplab-session-series.png"), 800, 500);
}

TEST_CASE("every series of a recording goes into a folder, one figure each")
{
    test::scratch_file f("figs.db");
    record(f.path(), true, 1);
    session::recording rec(f.path());
    std::vector<const session::series_info*> all;
    for (const auto& s : session::all_series()) all.push_back(&s);
    const std::string dir = f.path() + "-figures";
    std::string err;
    const auto written = ui::export_recording_figures(rec, 1, all, dir, ui::figure_format::png, 400, 300, err);
    CHECK(err == "");
    CHECK(written.size() == all.size());
    CHECK(QImage(QString::fromStdString(dir + "/contention_pct_recent.png")).size() == QSize(400, 300));
    QDir(QString::fromStdString(dir)).removeRecursively();
}

TEST_CASE("the compare view overlays one line per recording and shows the table")
{
    test::scratch_file off("cmp-off.db"), on("cmp-on.db");
    record(off.path(), false);
    record(on.path(), true);
    ui::compare_view v({off.path(), on.path()});
    v.resize(1000, 800);
    v.show_series("cpu_high_max");
    CHECK(v.graph_count() == 2);
    CHECK(v.plot()->graph(0)->name().endsWith("cmp-off"));
    CHECK(v.plot()->graph(1)->name().endsWith("cmp-on"));
    CHECK(v.plot()->graph(0)->dataCount() == 20);
    const QString table = v.table_text();
    CHECK(table.contains("Amean"));
    CHECK(table.contains("cmp-off"));
    CHECK(table.contains("Duration Elapsed"));
    v.grab().save(QString::fromStdString(picture_dir() + "/pcplab-session-compare.png"));
}
