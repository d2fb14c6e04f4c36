// Per-CPU x time heatmap: one row per CPU (grouped by node, with node separators and labels), one column per time
// bin of the run so far (model/activity_bins), coloured by one of two quantities chosen in the view's header:
//   - list depth: each CPU's pcp->count / pcp->high in the chosen zone (time-weighted mean over the bin);
//   - waiting: the share of the bin the CPU spent spinning on a zone->lock.
// Painted as an image with one pixel row per CPU or more (rows of several CPUs, their largest value, only when the
// view is too short for one each); a colour legend with its unit; hover tells the CPU, the time and the value.
// In A/B mode B's map sits under A's on the same time axis (beside it when stacked ones would be too short).
#pragma once

#include "ui/model/activity_bins.hpp"
#include "ui/views/heat_scale.hpp"
#include "ui/views/view.hpp"
#include "ui/views/zone_picker.hpp"

#include <QImage>

#include <vector>

class QComboBox;

namespace pcplab::ui
{

class header_line;

class heatmap_view : public view
{
    Q_OBJECT
public:
    enum class quantity { depth, waiting };

    explicit heatmap_view(QWidget* parent = nullptr);
    QString view_id() const override { return QStringLiteral("heat"); }
    QString title() const override { return tr("CPU heatmap"); }
    void show_frame(const frame& f) override;
    void reset() override;
    QSize sizeHint() const override { return {900, 600}; }
    QSize minimumSizeHint() const override { return {320, 240}; }
    QString tooltip_at(const QPoint& pos) const override;

    // For the tests and the benchmark.
    void set_quantity(quantity q);
    quantity current_quantity() const { return m_quantity; }
    zone_picker* picker() const { return m_picker; }
    int cpus_per_row() const { return m_panels.empty() ? 0 : m_panels.front().per_row; }
    // The value (0..1, < 0 for no data) drawn at `pos`, or NaN when pos is not over a map.
    double value_at(const QPoint& pos) const;
    // What lies under `pos`: the side, the first CPU of its row (-1: none), how many CPUs the row has, the bin.
    struct cell {
        int side = 0, cpu = -1, cpus = 0;
        std::size_t bin = 0;
    };
    cell cell_at(const QPoint& pos) const;

protected:
    void paintEvent(QPaintEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    struct group {
        int node = 0;
        std::vector<int> cpus;
        int first_row = 0, rows = 0; // image rows
        int y = 0, h = 0; // top in the widget, height
    };
    struct panel {
        int side = 0;
        QRect plot; // where the map is drawn
        int per_row = 1; // CPUs per image row
        double py = 1; // pixels per image row (at least one)
        std::size_t bins = 0;
        std::int64_t bin_ns = 1;
        std::vector<group> groups;
    };
    // One machine's picture, one column per bin (max_bins wide) and one row per image row of CPUs, kept between
    // paints: a frame redraws only the bins that changed since (activity_bins::first_changed_since), unless
    // something the picture depends on changed.
    struct picture {
        QImage image;
        const activity_bins* bins = nullptr;
        activity_bins::mark seen;
        std::size_t drawn = 0; // bins drawn
        int per_row = 0, cpus = 0;
        quantity q = quantity::depth;
        zone_choice choice;
        QRgb none = 0;
    };
    struct hit {
        const panel* p = nullptr;
        const group* g = nullptr;
        std::vector<int> cpus;
        std::size_t bin = 0;
    };

    void layout_panels(const QRect& body);
    void paint_panel(QPainter& p, panel& pn);
    const QImage& build_image(const panel& pn) const;
    // The value of one CPU in one bin (< 0: no data), from side's history.
    double value(int side, int cpu, std::size_t bin) const;
    hit hit_at(const QPoint& pos) const;
    QStringList header_parts() const;
    const sim::snapshot* snap(int side) const { return side == 0 ? m_frame.a.get() : m_frame.b.get(); }
    const history* hist(int side) const { return side == 0 ? m_frame.ha : m_frame.hb; }

    frame m_frame; // its history pointers are valid until the next show_frame
    quantity m_quantity = quantity::depth;
    heat_scale m_depth_scale{heat_scale::kind::depth}, m_wait_scale{heat_scale::kind::waiting};
    QComboBox* m_what;
    zone_picker* m_picker;
    header_line* m_header;
    QWidget* m_bar;
    std::vector<panel> m_panels;
    mutable picture m_pictures[2]; // A's, B's
};

} // namespace pcplab::ui
