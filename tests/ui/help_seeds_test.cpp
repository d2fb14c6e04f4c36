// Help > The seeds and later patches: each scenario's table heads its columns with the scenario's two sides.
#include "ui/window/help_dialogs.hpp"

#include <catch2/catch.hpp>

using namespace pcplab;

TEST_CASE("the seeds help heads the columns of a switch off and on and those of a sysctl with its two values")
{
    const QString h = ui::seeds_html();
    const QString switch_head = QStringLiteral("<th>figure</th><th>off</th><th>on</th>");
    const QString sysctl_head = QStringLiteral("<th>figure</th><th>at 5</th><th>at 0</th>");
    // Scenario 011 (vm.pcp_batch_scale_max 5 against 0) is the one without a switch; every other has one.
    CHECK(h.count(sysctl_head) == 1);
    CHECK(h.count(switch_head) == 11);
    CHECK(h.indexOf(sysctl_head) > h.indexOf(QStringLiteral("<h3>011 ")));
}
