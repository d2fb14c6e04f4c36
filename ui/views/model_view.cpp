// Model assumptions as HTML tables in a QTextBrowser, rebuilt only when the preset or the machine changes.
#include "ui/views/model_view.hpp"

#include "sim/cost_model.hpp"

#include "mm/patch_switches.hpp"

#include <QTextBrowser>
#include <QVBoxLayout>

namespace pcplab::ui
{

namespace
{

QString esc(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

QString value_text(double v)
{
    if (v == static_cast<double>(static_cast<long long>(v))) return QString::number(static_cast<long long>(v));
    return QString::number(v, 'g', 6);
}

QString switches_html(const sim::snapshot& s)
{
    QStringList on;
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) {
        const auto p = static_cast<mm::patch>(i);
        on << QStringLiteral("%1 %2").arg(
            esc(std::string(mm::patch_name(p))), s.patches[p] ? QStringLiteral("<b>on</b>") : QStringLiteral("off"));
    }
    return on.join(QStringLiteral(", "));
}

QString model_html(const sim::cost_model& m, const sim::snapshot& a, const sim::snapshot* b, const QString& origin)
{
    QString h;
    h += QStringLiteral("<h3>Cost model in force: %1</h3>").arg(esc(m.machine_class));
    h += QStringLiteral("<p>%1<br>").arg(esc(m.class_title));
    if (!m.class_reason.empty()) h += QObject::tr("Chosen because: %1<br>").arg(esc(m.class_reason));
    h += QObject::tr("Preset <b>%1</b>, era %2, workload %3, %4 CPUs. %5</p>")
             .arg(esc(a.preset), esc(a.era.str()), esc(a.workload))
             .arg(a.nr_cpus)
             .arg(origin);
    h += QObject::tr("<p>Switches%1: %2").arg(b ? QStringLiteral(" (A)") : QString(), switches_html(a));
    if (b)
        h += QObject::tr("<br>Switches (B): %1<br>A and B run the same preset, so they share this cost model.")
                 .arg(switches_html(*b));
    h += QStringLiteral("</p>");

    h += QObject::tr("<h4>Parameters</h4><p>E = estimate; the row IDs are those of "
                     "shared/reference/cost-model-sources.md.</p>");
    h += QStringLiteral(
        "<table border=0 cellspacing=0 cellpadding=3><tr><th align=left>key</th><th align=right>value</th>"
        "<th align=left>what it prices</th><th align=left>source</th></tr>");
    for (const auto& p : m.params)
        h += QStringLiteral("<tr><td><code>%1</code></td><td align=right>%2</td><td>%3</td><td>%4</td></tr>")
                 .arg(esc(p.key), value_text(p.value), esc(p.what), esc(p.source));
    h += QStringLiteral("</table>");

    h += QObject::tr("<h4>Rates the engine charges</h4><p>ns, except cache_lines_per_cpu.</p>");
    h += QStringLiteral(
        "<table border=0 cellspacing=0 cellpadding=3><tr><th align=left>rate</th><th align=right>value</th>"
        "<th align=left>from</th></tr>");
    try {
        for (const auto& r : sim::explain_rates(m))
            h += QStringLiteral("<tr><td><code>%1</code></td><td align=right>%2</td><td>%3</td></tr>")
                     .arg(esc(r.name), value_text(r.value), esc(r.formula));
    } catch (const std::exception& e) {
        h += QStringLiteral("<tr><td colspan=3>%1</td></tr>").arg(esc(e.what()));
    }
    h += QStringLiteral("</table>");
    return h;
}

} // namespace

model_view::model_view(QWidget* parent)
    : view(parent)
    , m_text(new QTextBrowser(this))
{
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(m_text);
    m_text->setOpenExternalLinks(false);
    m_text->setPlaceholderText(tr("Waiting for the first snapshot"));
}

model_view::~model_view() = default;

void model_view::show_frame(const frame& f)
{
    if (!f.a) return;
    const sim::cost_model* costs = f.a->run.costs.get();
    const QString key = QStringLiteral("%1|%2|%3|%4|%5")
                            .arg(QString::fromStdString(f.a->preset), QString::fromStdString(f.a->era.str()),
                                switches_html(*f.a), f.b ? switches_html(*f.b) : QString())
                            .arg(reinterpret_cast<quintptr>(costs));
    if (key == m_key) return;
    m_key = key;
    if (!costs) {
        m_text->setPlainText(tr("No cost model in the snapshot: the engine is not built (or a recording made "
                                "without one)."));
        return;
    }
    m_text->setHtml(model_html(*costs, *f.a, f.b.get(), tr("(The engine's own cost model.)")));
}

void model_view::reset()
{
    m_key.clear();
    m_text->clear();
}

QString model_view::text() const
{
    return m_text->toPlainText();
}

} // namespace pcplab::ui
