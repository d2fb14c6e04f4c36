#include "ui/session/sweep_figure.hpp"

#include <QApplication>
#include <qcustomplot.h>

namespace pcplab::ui
{

namespace
{

const session::compare_row* row_of(const session::compare_table& t, const std::string& metric, bool mean)
{
    for (const auto& r : t.rows) {
        if (r.metric != metric) continue;
        const bool is_mean = r.stat == "Amean" || r.stat == "Hmean";
        if (is_mean == mean && (mean || r.stat == "Stddev")) return &r;
    }
    return nullptr;
}

} // namespace

std::string save_sweep_figure(
    const session::compare_table& t, const std::string& metric, const std::string& path, figure_format f, int w, int h)
{
    const session::compare_row* mean = row_of(t, metric, true);
    const session::compare_row* sd = row_of(t, metric, false);
    if (!mean || !sd) return "no metric '" + metric + "' in the table";
    auto own_app = offscreen_app_if_none();

    QCustomPlot plot;
    plot.resize(w, h);
    plot.setPalette(QApplication::style() ? QApplication::style()->standardPalette() : plot.palette());
    auto* bars = new QCPBars(plot.xAxis, plot.yAxis);
    auto* errors = new QCPErrorBars(plot.xAxis, plot.yAxis);
    errors->setDataPlottable(bars);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> keys, values, devs;
    for (std::size_t i = 0; i < mean->cells.size(); ++i) {
        keys.push_back(static_cast<double>(i + 1));
        values.push_back(mean->cells[i].value);
        devs.push_back(sd->cells[i].value);
        ticker->addTick(static_cast<double>(i + 1), QString::fromStdString(i < t.tag.size() ? t.tag[i] : ""));
    }
    bars->setData(keys, values);
    errors->setData(devs);
    bars->setBrush(QColor(31, 119, 180));
    bars->setPen(Qt::NoPen);
    plot.xAxis->setTicker(ticker);
    plot.xAxis->setTickLabelRotation(keys.size() > 4 ? 30 : 0);
    plot.xAxis->setRange(0.4, static_cast<double>(keys.size()) + 0.6);
    plot.xAxis->grid()->setVisible(false);
    plot.yAxis->setLabel(QString::fromStdString(mean->stat + " " + metric
        + (mean->higher_is_better ? " (higher is better)" : " (lower is better)") + ", error bar: stddev over seeds"));
    plot.rescaleAxes();
    plot.xAxis->setRange(0.4, static_cast<double>(keys.size()) + 0.6);
    const auto yr = plot.yAxis->range();
    plot.yAxis->setRange(std::min(0.0, yr.lower), yr.upper * 1.1 + 1e-12);
    plot.plotLayout()->insertRow(0);
    plot.plotLayout()->addElement(0, 0, new QCPTextElement(&plot, QString::fromStdString(t.title + ": " + metric)));
    plot.replot();
    return save_plot(plot, QString::fromStdString(path), f, w, h);
}

} // namespace pcplab::ui
