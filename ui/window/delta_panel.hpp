// The key figures of the run, live: contention %, sys time, zone allocations, max zone->lock hold (and virtual
// time, user time, score). In A/B mode a column per machine and B's change against A, coloured by whether it is
// better or worse; with one machine just its values.
#pragma once

#include "sim/snapshot.hpp"

#include <QWidget>

#include <optional>
#include <vector>

class QGridLayout;
class QLabel;

namespace pcplab::ui
{

// The figures compared, computed from one snapshot.
struct key_figures {
    double sim_time_ns = 0;
    double contention_pct = 0; // the largest zone->lock contention % of the run so far
    double sys_ns = 0, user_ns = 0;
    double zone_allocs = 0; // pages taken from the buddy allocator
    double max_hold_ns = 0; // the longest zone->lock hold so far
    double score = 0; // work units so far
};
key_figures key_figures_of(const sim::snapshot& s);

// (b - a) / a in percent; nullopt when a is 0.
std::optional<double> change_pct(double a, double b);

class delta_panel : public QWidget
{
    Q_OBJECT
public:
    explicit delta_panel(QWidget* parent = nullptr);
    void show_figures(const sim::snapshot& a, const sim::snapshot* b);
    void clear();
    // The text of a cell (tests): row by figure index, column 0 = A, 1 = B, 2 = change.
    QString cell_text(int row, int column) const;

private:
    struct row {
        QLabel* a = nullptr;
        QLabel* b = nullptr;
        QLabel* delta = nullptr;
    };
    QGridLayout* m_grid = nullptr;
    QLabel* m_head_a = nullptr;
    QLabel* m_head_b = nullptr;
    QLabel* m_head_d = nullptr;
    std::vector<row> m_rows;
};

} // namespace pcplab::ui
