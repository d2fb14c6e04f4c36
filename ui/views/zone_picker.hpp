// The zone a per-zone view shows, chosen in the view's own header: a compact combo box listing, for each zone type
// the machine has (Normal first), "all nodes" when several nodes have it, then each node's zone. Until the user
// picks one, it shows the default: the Normal zones of all nodes (each CPU's own node's zone, where a view draws
// per CPU), or the one Normal zone of a single-node machine. A choice the user made is kept across reboots and
// preset changes while the machine has that zone.
#pragma once

#include "sim/snapshot.hpp"

#include <QComboBox>

#include <vector>

namespace pcplab::ui
{

// node -1: the zones of that type on every node.
struct zone_choice {
    int node = -1;
    int zone = 2; // mm::zone_type (ZONE_NORMAL)
    bool all_nodes() const { return node < 0; }
    bool operator==(const zone_choice&) const = default;
};

// The zone indices of `s` that a choice covers, in node order (empty when the snapshot has none of them).
std::vector<int> zones_of(const sim::snapshot& s, zone_choice c);
// The zone index of CPU `cpu`'s own node for the choice's type when it covers all nodes, else the chosen zone's
// index; -1 when absent.
int zone_for_cpu(const sim::snapshot& s, zone_choice c, int cpu);
// What a per-zone plot's layout depends on: the chosen zones of A, and where each sits in B's snapshot (if any).
// B's engine may publish its first zones after A's (it boots on its own thread), so a layout built while B had
// none of them must be rebuilt when they appear, or B's series would stay unbound and draw nothing.
QString zones_layout_key(const sim::snapshot& a, const sim::snapshot* b, zone_choice c);
// "Normal, all nodes" / "node 1 Normal".
QString choice_label(zone_choice c);

class zone_picker : public QComboBox
{
    Q_OBJECT
public:
    explicit zone_picker(QWidget* parent = nullptr);
    // Offers the zones of `s` (rebuilt only when they changed); a snapshot without zones (booting) changes nothing.
    void offer(const sim::snapshot& s);
    zone_choice choice() const { return m_choice; }
    // Sets the choice as if the user had picked it (tests, and views that follow another's choice).
    void choose(zone_choice c);

signals:
    void chosen(pcplab::ui::zone_choice c);

private:
    void fill(const std::vector<zone_choice>& items);
    std::vector<zone_choice> m_items;
    zone_choice m_choice;
    bool m_user = false; // the user picked m_choice: keep it while it is on offer
};

} // namespace pcplab::ui
