// Figures as PNG, SVG and PDF: any QCustomPlot of the window (one plot or all), or plots of a recording's time
// series drawn offscreen for `pcplab-cli export --format png|svg|pdf`. Axis titles always; the size in pixels.
// Free of Q_OBJECT so that the CLI can compile this file without moc (app/CMakeLists.txt).
#pragma once

#include "session/recording_reader.hpp"
#include "session/series.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

class QApplication;
class QCustomPlot;
class QString;

namespace pcplab::ui
{

enum class figure_format { png, svg, pdf };
std::optional<figure_format> figure_format_from(std::string_view name); // "png", "svg", "pdf"
const char* figure_extension(figure_format f);

// An offscreen QApplication when the program has none (the CLI), owned by the caller; null when one exists.
std::unique_ptr<QApplication> offscreen_app_if_none();

// Saves `plot` at w x h pixels (SVG and PDF: the same size as their page). "" on success, else the problem.
std::string save_plot(QCustomPlot& plot, const QString& path, figure_format f, int w, int h);

// Fills `plot` with one graph per line of a series (a hue each, a legend when several), the axis titles
// "virtual time (s)" and the series' title, and `title` above the axes. Colours follow the plot's palette.
void draw_series(QCustomPlot& plot, const std::vector<session::series_line>& lines, const session::series_info& s,
    const QString& title);

// Every series in `which` of one run into files: `out` is the file when there is one series, else a directory
// (created) that receives SERIES.EXT per series. Creates an offscreen QApplication when there is none (the
// CLI). Returns the files written; on failure, `error` says why (the recording's errors are thrown).
std::vector<std::string> export_recording_figures(const session::recording& rec, std::int64_t run,
    const std::vector<const session::series_info*>& which, const std::string& out, figure_format f, int w, int h,
    std::string& error);

} // namespace pcplab::ui
