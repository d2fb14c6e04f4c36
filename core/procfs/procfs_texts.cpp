#include "procfs_texts.hpp"

#include "zoneinfo_print.hpp"

namespace pcplab::procfs
{

std::shared_ptr<const procfs_texts> procfs_texts::capture(const mm::machine& m)
{
    std::shared_ptr<procfs_texts> t(new procfs_texts());
    t->m_source = capture_zoneinfo_source(m);
    return t;
}

std::shared_ptr<const procfs_texts> procfs_texts::from_texts(std::string zoneinfo, std::string buddyinfo)
{
    std::shared_ptr<procfs_texts> t(new procfs_texts());
    t->m_zoneinfo = std::move(zoneinfo);
    t->m_buddyinfo = std::move(buddyinfo);
    return t;
}

void procfs_texts::print() const
{
    std::call_once(m_printed, [this] {
        if (!m_source) return; // from_texts
        m_zoneinfo = zoneinfo_text(*m_source);
        m_buddyinfo = buddyinfo_text(*m_source);
        m_source.reset(); // printed: the numbers are no longer needed
    });
}

const std::string& procfs_texts::zoneinfo() const
{
    print();
    return m_zoneinfo;
}

const std::string& procfs_texts::buddyinfo() const
{
    print();
    return m_buddyinfo;
}

} // namespace pcplab::procfs
