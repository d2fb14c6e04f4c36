// The key figures dock: the run's key figures (key_figures.hpp), live. In A/B mode a column per machine and B's
// change against A, green where B is better per unit of work, red where it is worse, in the text colour where
// neither is defined, with a line that says so; with one machine just its values.
#pragma once

#include "ui/window/key_figures.hpp"

#include <QWidget>

#include <vector>

class QGridLayout;
class QLabel;

namespace pcplab::ui
{

// Green and red readable on the palette.
QColor verdict_color(const QPalette& pal, int verdict);

class delta_panel : public QWidget
{
    Q_OBJECT
public:
    explicit delta_panel(QWidget* parent = nullptr);
    void show_figures(const sim::snapshot& a, const sim::snapshot* b);
    void clear();
    // The text of a cell (tests): row by figure index, column 0 = A, 1 = B, 2 = change.
    QString cell_text(int row, int column) const;
    // Whether the change in `row` is shown as better (1), worse (-1) or neither (0).
    int verdict(int row) const;
    QLabel* legend() const { return m_legend; } // (tests)

private:
    struct row {
        QLabel* name = nullptr;
        QLabel* a = nullptr;
        QLabel* b = nullptr;
        QLabel* delta = nullptr;
        int verdict = 0;
    };
    QGridLayout* m_grid = nullptr;
    QLabel* m_head_a = nullptr;
    QLabel* m_head_b = nullptr;
    QLabel* m_head_d = nullptr;
    QLabel* m_legend = nullptr;
    std::vector<row> m_rows;
};

} // namespace pcplab::ui
