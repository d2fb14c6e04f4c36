// The event log view: a filter bar over a QTableView fed incrementally from the history.
#include "ui/views/events_view.hpp"

#include "ui/views/event_table_model.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>

namespace pcplab::ui
{

events_view::events_view(QWidget* parent)
    : view(parent)
    , m_model(new event_table_model(this))
    , m_table(new QTableView(this))
    , m_text(new QLineEdit(this))
    , m_kind(new QComboBox(this))
    , m_count(new QLabel(this))
{
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    m_text->setPlaceholderText(tr("Filter: text in any column (cause, zone, CPU, batch ...)"));
    m_text->setClearButtonEnabled(true);
    m_text->setToolTip(tr("Shows the events whose kind, zone, change or cause contains this text"));
    m_kind->addItem(tr("all events"), -1);
    for (int k = 0; k <= static_cast<int>(sim::event_kind::note); ++k)
        m_kind->addItem(event_kind_label(static_cast<sim::event_kind>(k)), k);
    m_kind->setToolTip(tr("Only events of this kind"));
    bar->addWidget(m_kind);
    bar->addWidget(m_text, 1);
    bar->addWidget(m_count);
    lay->addLayout(bar);
    lay->addWidget(m_table, 1);

    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    m_table->horizontalHeader()->setStretchLastSection(true);
    const int digit = fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_table->setColumnWidth(event_table_model::c_time, digit * 12);
    m_table->setColumnWidth(event_table_model::c_side, digit * 4);
    m_table->setColumnWidth(event_table_model::c_kind, digit * 19);
    m_table->setColumnWidth(event_table_model::c_cpu, digit * 5);
    m_table->setColumnWidth(event_table_model::c_where, digit * 15);
    m_table->setColumnWidth(event_table_model::c_change, digit * 18);
    m_table->setColumnHidden(event_table_model::c_side, true);
    m_table->setToolTip(tr("Select an event to move the plots to its time"));

    connect(m_text, &QLineEdit::textChanged, this, [this] { apply_filter(); });
    connect(m_kind, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { apply_filter(); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& cur, const QModelIndex&) {
            const qint64 t = m_model->time_of(cur.row());
            if (t >= 0) emit seek_requested(t);
        });
    update_count();
}

events_view::~events_view() = default;

void events_view::show_frame(const frame& f)
{
    if (!f.a || !f.ha || (f.a == m_a && f.b == m_b)) return;
    m_a = f.a;
    m_b = f.b;
    const bool ab = f.b != nullptr;
    m_model->set_ab(ab);
    m_table->setColumnHidden(event_table_model::c_side, !ab);
    QScrollBar* sb = m_table->verticalScrollBar();
    const bool at_end = sb->value() >= sb->maximum() - 2;
    for (int side = 0; side < (ab ? 2 : 1); ++side) {
        const history* h = side == 0 ? f.ha : f.hb;
        if (!h) continue;
        const sample_cursor::news n = m_cursor[side].take(*h, h->events_total(), h->events().size());
        if (n.rebuild && side == 0) m_model->clear(); // a new run: its log starts empty
        m_model->append(h->events(), n.first, side);
    }
    if (at_end && !m_table->selectionModel()->hasSelection()) m_table->scrollToBottom();
    update_count();
}

void events_view::reset()
{
    m_model->clear();
    m_cursor[0].reset();
    m_cursor[1].reset();
    m_a.reset();
    m_b.reset();
    update_count();
}

void events_view::set_filter(const QString& text, int kind)
{
    m_text->blockSignals(true);
    m_text->setText(text);
    m_text->blockSignals(false);
    const int idx = m_kind->findData(kind);
    m_kind->blockSignals(true);
    m_kind->setCurrentIndex(idx >= 0 ? idx : 0);
    m_kind->blockSignals(false);
    apply_filter();
}

void events_view::apply_filter()
{
    m_model->set_filter(m_text->text().trimmed(), m_kind->currentData().toInt());
    update_count();
}

void events_view::update_count()
{
    m_count->setText(tr("%1 of %2").arg(m_model->rowCount()).arg(m_model->total()));
}

int events_view::visible_rows() const
{
    return m_model->rowCount();
}

int events_view::total_rows() const
{
    return static_cast<int>(m_model->total());
}

QAbstractItemModel* events_view::model() const
{
    return m_model;
}

void events_view::select_row(int row)
{
    m_table->selectionModel()->setCurrentIndex(
        m_model->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

} // namespace pcplab::ui
