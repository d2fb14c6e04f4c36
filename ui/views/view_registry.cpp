// The views in display order. The window owns them through Qt parenting.
#include "ui/views/buddy_view.hpp"
#include "ui/views/deferred_view.hpp"
#include "ui/views/events_view.hpp"
#include "ui/views/heatmap_view.hpp"
#include "ui/views/limits_view.hpp"
#include "ui/views/locks_view.hpp"
#include "ui/views/model_view.hpp"
#include "ui/views/pcp_view.hpp"
#include "ui/views/proc_view.hpp"
#include "ui/views/rates_view.hpp"
#include "ui/views/view.hpp"

namespace pcplab::ui
{

std::vector<view*> make_views(QWidget* parent)
{
    return {
        new pcp_view(parent),
        new locks_view(parent),
        new limits_view(parent),
        new rates_view(parent),
        new heatmap_view(parent),
        new buddy_view(parent),
        new deferred_view(parent),
        new events_view(parent),
        new proc_view(parent),
        new model_view(parent),
    };
}

} // namespace pcplab::ui
