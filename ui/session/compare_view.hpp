// Two or more recordings side by side (an A/B recording counts as two: A and B): one series of every recording
// and side overlaid in one plot (a zone chosen for zone series), and the mmtests-style table
// (core/session/compare.hpp) below it. Figures export from here.
#pragma once

#include "session/compare.hpp"
#include "session/recording_reader.hpp"

#include <QWidget>

#include <memory>
#include <string>
#include <vector>

class QComboBox;
class QCustomPlot;
class QPlainTextEdit;

namespace pcplab::ui
{

class compare_view : public QWidget
{
    Q_OBJECT
public:
    // Opens every recording; throws session::recording_error for the first that cannot be read.
    explicit compare_view(const std::vector<std::string>& paths, QWidget* parent = nullptr);
    ~compare_view() override;

    void show_series(const QString& name); // a series name of session::all_series()
    QCustomPlot* plot() const { return m_plot; }
    QString table_text() const; // the text table as shown
    int graph_count() const;
    int columns() const { return m_columns; } // recordings, an A/B one counting twice

protected:
    void changeEvent(QEvent* e) override; // re-colour on palette changes (dark/light themes)

private:
    void redraw();
    std::vector<std::unique_ptr<session::recording>> m_recs;
    QComboBox* m_series;
    QComboBox* m_zone;
    QCustomPlot* m_plot;
    QPlainTextEdit* m_table;
    int m_columns = 0;
};

} // namespace pcplab::ui
