// The per-view zone picker (zone_picker.hpp).
#include "ui/views/zone_picker.hpp"

#include "mm/mm_types.hpp"

#include <algorithm>
#include <set>

namespace pcplab::ui
{

namespace
{

// Zone types in the order a teacher looks for them: Normal (where the CPUs allocate), then the others.
constexpr int k_type_order[] = {mm::ZONE_NORMAL, mm::ZONE_MOVABLE, mm::ZONE_DMA32, mm::ZONE_DMA};

} // namespace

std::vector<int> zones_of(const sim::snapshot& s, zone_choice c)
{
    std::vector<int> out;
    for (std::size_t i = 0; i < s.zones.size(); ++i)
        if (s.zones[i].zone == c.zone && (c.all_nodes() || s.zones[i].node == c.node))
            out.push_back(static_cast<int>(i));
    return out;
}

int zone_for_cpu(const sim::snapshot& s, zone_choice c, int cpu)
{
    return s.zone_index(c.all_nodes() ? s.node_of_cpu(cpu) : c.node, c.zone);
}

QString zones_layout_key(const sim::snapshot& a, const sim::snapshot* b, zone_choice c)
{
    QString key;
    for (int zi : zones_of(a, c)) {
        const sim::zone_snapshot& z = a.zone_at(zi);
        key += QStringLiteral("%1.%2").arg(z.node).arg(z.zone);
        if (b) key += QStringLiteral("@%1").arg(b->zone_index(z.node, z.zone));
        key += QLatin1Char(',');
    }
    return key;
}

QString choice_label(zone_choice c)
{
    const QString type = QString::fromLatin1(mm::zone_name(static_cast<unsigned>(c.zone)));
    return c.all_nodes() ? QObject::tr("%1, all nodes").arg(type) : QObject::tr("node %1 %2").arg(c.node).arg(type);
}

zone_picker::zone_picker(QWidget* parent)
    : QComboBox(parent)
{
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    setToolTip(tr("The zone this view shows: all nodes' zones of a type, or one node's"));
    connect(this, &QComboBox::activated, this, [this](int i) {
        if (i < 0 || i >= static_cast<int>(m_items.size())) return;
        m_user = true;
        if (m_items[static_cast<std::size_t>(i)] == m_choice) return;
        m_choice = m_items[static_cast<std::size_t>(i)];
        emit chosen(m_choice);
    });
}

void zone_picker::offer(const sim::snapshot& s)
{
    if (s.zones.empty()) return;
    std::vector<zone_choice> items;
    for (int type : k_type_order) {
        std::set<int> nodes;
        for (const auto& z : s.zones)
            if (z.zone == type) nodes.insert(z.node);
        if (nodes.size() > 1) items.push_back({-1, type});
        for (int n : nodes) items.push_back({n, type});
    }
    if (items == m_items) return;
    fill(items);
    // The user's choice while it is on offer; otherwise the default: the first item (Normal of all nodes, or
    // the one Normal zone), which the list puts first.
    const bool keep = m_user && std::find(items.begin(), items.end(), m_choice) != items.end();
    const zone_choice next = keep ? m_choice : items.front();
    if (!keep) m_user = false;
    const auto at = std::find(items.begin(), items.end(), next) - items.begin();
    setCurrentIndex(static_cast<int>(at));
    if (!(next == m_choice)) {
        m_choice = next;
        emit chosen(m_choice);
    }
}

void zone_picker::choose(zone_choice c)
{
    m_user = true;
    const auto at = std::find(m_items.begin(), m_items.end(), c);
    if (at != m_items.end()) setCurrentIndex(static_cast<int>(at - m_items.begin()));
    if (c == m_choice) return;
    m_choice = c;
    emit chosen(m_choice);
}

void zone_picker::fill(const std::vector<zone_choice>& items)
{
    const QSignalBlocker block(this);
    m_items = items;
    clear();
    for (const zone_choice& c : items) addItem(choice_label(c));
}

} // namespace pcplab::ui
