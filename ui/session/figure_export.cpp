#include "ui/session/figure_export.hpp"

#include "io/output_file.hpp"

#include <QApplication>
#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QSvgGenerator>
#include <QTemporaryFile>
#include <qcustomplot.h>

#include <cstdlib>
#include <memory>

namespace pcplab::ui
{

std::optional<figure_format> figure_format_from(std::string_view name)
{
    if (name == "png") return figure_format::png;
    if (name == "svg") return figure_format::svg;
    if (name == "pdf") return figure_format::pdf;
    return std::nullopt;
}

const char* figure_extension(figure_format f)
{
    switch (f) {
    case figure_format::png:
        return "png";
    case figure_format::svg:
        return "svg";
    case figure_format::pdf:
        return "pdf";
    }
    return "";
}

namespace
{

// The figure's file contents in format `f`; empty when Qt could not draw it. Drawn in memory (PDF through a
// temporary file: QCustomPlot prints it with QPrinter, which writes only to files), so that the file itself is
// written in one piece by io::write_file_atomically, which says why when it cannot be.
QByteArray render_plot(QCustomPlot& plot, figure_format f, int w, int h)
{
    QBuffer buf;
    buf.open(QIODevice::WriteOnly);
    switch (f) {
    case figure_format::png: {
        // As QCustomPlot::savePng does: 96 dpi recorded in the file.
        QImage image = plot.toPixmap(w, h, 1.0).toImage();
        image.setDotsPerMeterX(static_cast<int>(96 / 0.0254));
        image.setDotsPerMeterY(static_cast<int>(96 / 0.0254));
        if (image.isNull() || !image.save(&buf, "PNG")) return {};
        break;
    }
    case figure_format::pdf: {
        QTemporaryFile tmp(QDir::tempPath() + QStringLiteral("/pcplab-figure-XXXXXX.pdf"));
        if (!tmp.open()) return {};
        tmp.close();
        if (!plot.savePdf(tmp.fileName(), w, h) || !tmp.open()) return {};
        return tmp.readAll();
    }
    case figure_format::svg: {
        // QCustomPlot has no SVG writer of its own; it paints into a QSvgGenerator like into any device.
        QSvgGenerator gen;
        gen.setOutputDevice(&buf);
        gen.setSize(QSize(w, h));
        gen.setViewBox(QRect(0, 0, w, h));
        gen.setTitle(plot.windowTitle());
        QCPPainter painter;
        if (!painter.begin(&gen)) return {};
        plot.toPainter(&painter, w, h);
        if (!painter.end()) return {};
        break;
    }
    }
    return buf.data();
}

QtMessageHandler g_outer_handler = nullptr;

// Qt notes on stderr that XDG_RUNTIME_DIR is not set and that it picks a folder of its own; an offscreen export
// never uses that folder, and a command's stderr is for its own one-line errors. Everything else goes on.
void without_runtime_dir_note(QtMsgType type, const QMessageLogContext& where, const QString& text)
{
    if (text.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set"))) return;
    if (g_outer_handler) g_outer_handler(type, where, text);
}

} // namespace

std::unique_ptr<QApplication> offscreen_app_if_none()
{
    if (QApplication::instance()) return nullptr;
    qputenv("QT_QPA_PLATFORM", "offscreen"); // a command-line tool must not need a display
    // Kept for the process: it only drops the one note above and passes everything else on.
    static const bool filtered = (g_outer_handler = qInstallMessageHandler(without_runtime_dir_note), true);
    (void)filtered;
    static int argc = 1;
    static char name[] = "pcplab-cli";
    static char* argv[] = {name, nullptr};
    return std::make_unique<QApplication>(argc, argv);
}

std::string save_plot(QCustomPlot& plot, const QString& path, figure_format f, int w, int h)
{
    const QByteArray bytes = render_plot(plot, f, w, h);
    if (bytes.isEmpty()) return path.toStdString() + ": cannot be drawn as " + figure_extension(f);
    const std::string err = io::write_file_atomically(
        path.toStdString(), std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    if (!err.empty()) return path.toStdString() + ": cannot be written (" + err + ")";
    return {};
}

void draw_series(QCustomPlot& plot, const std::vector<session::series_line>& lines, const session::series_info& s,
    const QString& title)
{
    plot.clearGraphs();
    plot.clearItems();
    const QPalette pal = plot.palette();
    const QColor fg = pal.color(QPalette::WindowText);
    plot.setBackground(pal.color(QPalette::Base));
    for (QCPAxis* ax : {plot.xAxis, plot.yAxis}) {
        ax->setBasePen(QPen(fg));
        ax->setTickPen(QPen(fg));
        ax->setSubTickPen(QPen(fg));
        ax->setTickLabelColor(fg);
        ax->setLabelColor(fg);
        ax->grid()->setPen(QPen(pal.color(QPalette::Mid), 0, Qt::DotLine));
    }
    plot.xAxis->setLabel(QStringLiteral("virtual time (s)"));
    plot.yAxis->setLabel(QString::fromUtf8(s.title));

    const int n = static_cast<int>(lines.size());
    double lo = 0, hi = 0, t_end = 0;
    bool any = false;
    for (int i = 0; i < n; ++i) {
        const auto& line = lines[static_cast<std::size_t>(i)];
        QCPGraph* g = plot.addGraph();
        g->setName(QString::fromStdString(line.label));
        // One hue per line, spread around the wheel (like hotspot's per-CPU graphs); darker on light themes.
        const bool dark = pal.color(QPalette::Base).lightness() < 128;
        g->setPen(QPen(QColor::fromHsv((i * 360 / std::max(n, 1) + 210) % 360, 200, dark ? 240 : 180), 2));
        QVector<double> t(static_cast<int>(line.t_s.size())), v(static_cast<int>(line.v.size()));
        for (std::size_t k = 0; k < line.t_s.size(); ++k) {
            t[static_cast<int>(k)] = line.t_s[k];
            v[static_cast<int>(k)] = line.v[k];
            lo = any ? std::min(lo, line.v[k]) : line.v[k];
            hi = any ? std::max(hi, line.v[k]) : line.v[k];
            t_end = std::max(t_end, line.t_s[k]);
            any = true;
        }
        g->setData(t, v, true);
    }
    plot.xAxis->setRange(0, t_end > 0 ? t_end : 1);
    const double pad = hi > lo ? (hi - lo) * 0.05 : (hi != 0 ? std::abs(hi) * 0.05 : 1);
    plot.yAxis->setRange(std::min(0.0, lo - pad), hi + pad);

    // The layout: a heading above the axes, the legend in one row below them (never over the lines). Built on
    // the first call; later calls (a view redrawing) only update it.
    auto* layout = plot.plotLayout();
    auto* heading = qobject_cast<QCPTextElement*>(layout->elementCount() > 0 ? layout->elementAt(0) : nullptr);
    if (!heading) {
        layout->insertRow(0);
        heading
            = new QCPTextElement(&plot, title, QFont(plot.font().family(), plot.font().pointSize() + 2, QFont::Bold));
        layout->addElement(0, 0, heading);
    }
    heading->setText(title);
    heading->setTextColor(fg);
    if (plot.legend->layout() != layout) {
        plot.axisRect()->insetLayout()->take(plot.legend);
        layout->addElement(layout->rowCount(), 0, plot.legend);
        layout->setRowStretchFactor(layout->rowCount() - 1, 0.001);
        plot.legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        plot.legend->setMargins(QMargins(6, 2, 6, 2));
    }
    plot.legend->setVisible(n > 1);
    plot.legend->setBrush(pal.color(QPalette::Base));
    plot.legend->setTextColor(fg);
    plot.legend->setBorderPen(Qt::NoPen);
    plot.replot();
}

std::vector<std::string> export_recording_figures(const session::recording& rec, std::int64_t run,
    const std::vector<const session::series_info*>& which, const std::string& out, figure_format f, int w, int h,
    std::string& error)
{
    std::unique_ptr<QApplication> own_app = offscreen_app_if_none();
    const session::run_record& rr = rec.run(run);
    std::vector<std::string> written;
    const bool to_dir = which.size() != 1;
    if (to_dir && !QDir().mkpath(QString::fromStdString(out))) {
        error = "--out " + out + ": cannot create the directory";
        return written;
    }
    QCustomPlot plot;
    plot.resize(w, h);
    QPalette light = QApplication::style() ? QApplication::style()->standardPalette() : plot.palette();
    if (own_app) plot.setPalette(light); // files from the CLI: dark text on white, whatever the desktop theme
    for (const session::series_info* s : which) {
        const auto lines = session::read_series(rec, run, *s);
        const QString title = QString::fromStdString(rr.preset + "  " + rr.requested_era + "  " + rr.tag + "  — ")
            + QString::fromUtf8(s->name);
        draw_series(plot, lines, *s, title);
        const std::string path = to_dir ? out + "/" + s->name + "." + figure_extension(f) : out;
        error = save_plot(plot, QString::fromStdString(path), f, w, h);
        if (!error.empty()) return written;
        written.push_back(path);
    }
    return written;
}

} // namespace pcplab::ui
