// The event log's table model: events of both sides kept in arrival order, a filtered index over them, rows
// appended in one batch per frame (cheap with QTableView's fixed row heights).
#pragma once

#include "sim/metrics.hpp"

#include <QAbstractTableModel>
#include <QString>

#include <deque>
#include <vector>

namespace pcplab::ui
{

class event_table_model : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum column { c_time, c_side, c_kind, c_cpu, c_where, c_change, c_cause, nr_columns };
    static constexpr std::size_t max_rows = 100'000; // beyond it the older half is dropped

    using QAbstractTableModel::QAbstractTableModel;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    // Appends events of one side (0 = A, 1 = B); those passing the filter become rows.
    void append(const std::deque<sim::sim_event>& events, std::size_t from, int side);
    void clear();
    void set_ab(bool ab) { m_ab = ab; }
    void set_filter(const QString& text, int kind);
    std::size_t total() const { return m_all.size(); }
    // Virtual time of a visible row, or -1.
    qint64 time_of(int row) const;

private:
    struct entry {
        sim::sim_event e;
        int side;
    };
    bool matches(const entry& x) const;
    QString text_of(const entry& x, int col) const;

    std::vector<entry> m_all;
    std::vector<int> m_rows; // indices into m_all that pass the filter
    QString m_text;
    int m_kind = -1;
    bool m_ab = false;
};

QString event_kind_label(sim::event_kind k); // "limits change", "switch flip" ...

} // namespace pcplab::ui
