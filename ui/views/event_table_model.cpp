// The event log's model.
#include "ui/views/event_table_model.hpp"

#include "ui/views/view_style.hpp"

#include "session/record_names.hpp"

namespace pcplab::ui
{

QString event_kind_label(sim::event_kind k)
{
    return QString::fromLatin1(session::event_kind_name(k)).replace(QLatin1Char('_'), QLatin1Char(' '));
}

int event_table_model::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int event_table_model::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : nr_columns;
}

QString event_table_model::text_of(const entry& x, int col) const
{
    const sim::sim_event& e = x.e;
    switch (col) {
    case c_time:
        return QString::number(static_cast<double>(e.t) / 1e9, 'f', 6);
    case c_side:
        return m_ab ? (x.side == 0 ? QStringLiteral("A") : QStringLiteral("B")) : QString();
    case c_kind:
        return event_kind_label(e.kind);
    case c_cpu:
        return e.cpu >= 0 ? QString::number(e.cpu) : QString();
    case c_where:
        if (e.node < 0) return {};
        return e.zone >= 0 ? zone_label(e.node, e.zone) : QStringLiteral("node %1").arg(e.node);
    case c_change:
        if (e.field == sim::event_field::none) return {};
        return QStringLiteral("%1 %2 → %3")
            .arg(QString::fromLatin1(e.field == sim::event_field::none ? "" : session::event_field_name(e.field)))
            .arg(e.old_value)
            .arg(e.new_value);
    case c_cause:
        return QString::fromStdString(e.text);
    default:
        return {};
    }
}

QVariant event_table_model::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= static_cast<int>(m_rows.size())) return {};
    const entry& x = m_all[static_cast<std::size_t>(m_rows[static_cast<std::size_t>(index.row())])];
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) return text_of(x, index.column());
    if (role == Qt::TextAlignmentRole && (index.column() == c_time || index.column() == c_cpu))
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    return {};
}

QVariant event_table_model::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, o, role);
    switch (section) {
    case c_time:
        return tr("time (s)");
    case c_side:
        return m_ab ? tr("side") : QString();
    case c_kind:
        return tr("event");
    case c_cpu:
        return tr("CPU");
    case c_where:
        return tr("zone");
    case c_change:
        return tr("change");
    case c_cause:
        return tr("cause");
    default:
        return {};
    }
}

bool event_table_model::matches(const entry& x) const
{
    if (m_kind >= 0 && static_cast<int>(x.e.kind) != m_kind) return false;
    if (m_text.isEmpty()) return true;
    for (int c = 0; c < nr_columns; ++c)
        if (text_of(x, c).contains(m_text, Qt::CaseInsensitive)) return true;
    return false;
}

void event_table_model::append(const std::deque<sim::sim_event>& events, std::size_t from, int side)
{
    if (from >= events.size()) return;
    if (m_all.size() + (events.size() - from) > max_rows) {
        // Keep the newer half: the log stays bounded like the history it mirrors.
        beginResetModel();
        m_all.erase(m_all.begin(), m_all.begin() + static_cast<std::ptrdiff_t>(m_all.size() / 2));
        m_rows.clear();
        for (std::size_t i = 0; i < m_all.size(); ++i)
            if (matches(m_all[i])) m_rows.push_back(static_cast<int>(i));
        endResetModel();
    }
    std::vector<int> added;
    for (std::size_t i = from; i < events.size(); ++i) {
        m_all.push_back({events[i], side});
        if (matches(m_all.back())) added.push_back(static_cast<int>(m_all.size() - 1));
    }
    if (added.empty()) return;
    const int first = static_cast<int>(m_rows.size());
    beginInsertRows({}, first, first + static_cast<int>(added.size()) - 1);
    m_rows.insert(m_rows.end(), added.begin(), added.end());
    endInsertRows();
}

void event_table_model::clear()
{
    beginResetModel();
    m_all.clear();
    m_rows.clear();
    endResetModel();
}

void event_table_model::set_filter(const QString& text, int kind)
{
    if (text == m_text && kind == m_kind) return;
    beginResetModel();
    m_text = text;
    m_kind = kind;
    m_rows.clear();
    for (std::size_t i = 0; i < m_all.size(); ++i)
        if (matches(m_all[i])) m_rows.push_back(static_cast<int>(i));
    endResetModel();
}

qint64 event_table_model::time_of(int row) const
{
    if (row < 0 || row >= static_cast<int>(m_rows.size())) return -1;
    return m_all[static_cast<std::size_t>(m_rows[static_cast<std::size_t>(row)])].e.t;
}

} // namespace pcplab::ui
