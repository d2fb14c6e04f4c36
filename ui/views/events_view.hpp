// The event log: every event of the run (limit changes with their cause, per-CPU high changes, drains,
// reclaim, switch flips, deferred init done), filterable by kind and by text. Selecting an event asks the
// other views to move their time axis to it (seek_requested).
#pragma once

#include "ui/views/series.hpp"
#include "ui/views/view.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QAbstractItemModel;

namespace pcplab::ui
{

class event_table_model;

class events_view : public view
{
    Q_OBJECT
public:
    explicit events_view(QWidget* parent = nullptr);
    ~events_view() override;
    QString view_id() const override { return QStringLiteral("events"); }
    QString title() const override { return tr("Event log"); }
    void show_frame(const frame& f) override;
    void reset() override;
    QSize sizeHint() const override { return {720, 360}; }

    // For the tests and the window: the filter (text matches kind, cause and the numbers; kind -1 = all).
    void set_filter(const QString& text, int kind = -1);
    int visible_rows() const;
    int total_rows() const;
    QAbstractItemModel* model() const;
    // Selects a visible row (as a click would): emits seek_requested with its time.
    void select_row(int row);

private:
    void apply_filter();
    void update_count();

    event_table_model* m_model;
    QTableView* m_table;
    QLineEdit* m_text;
    QComboBox* m_kind;
    QLabel* m_count;
    entry_cursor m_cursor[2];
    std::shared_ptr<const sim::snapshot> m_a, m_b;
};

} // namespace pcplab::ui
