// The views in display order. The window owns them through Qt parenting.
#include "views/buddy_view.hpp"
#include "views/deferred_view.hpp"
#include "views/events_view.hpp"
#include "views/heatmap_view.hpp"
#include "views/limits_view.hpp"
#include "views/locks_view.hpp"
#include "views/model_view.hpp"
#include "views/pcp_view.hpp"
#include "views/proc_view.hpp"
#include "views/rates_view.hpp"
#include "views/view.hpp"

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
