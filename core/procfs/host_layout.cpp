#include "host_layout.hpp"

#include "io/text_file.hpp"

#include <charconv>
#include <filesystem>
#include <variant>

namespace pcplab::procfs
{

int cpulist_count(std::string_view list)
{
    while (!list.empty() && (list.back() == '\n' || list.back() == ' ')) list.remove_suffix(1);
    int total = 0;
    while (!list.empty()) {
        std::string_view item = list.substr(0, list.find(','));
        list.remove_prefix(std::min(list.size(), item.size() + 1));
        int a = 0, b = 0;
        auto r = std::from_chars(item.data(), item.data() + item.size(), a);
        if (r.ec != std::errc() || a < 0) return -1;
        b = a;
        if (r.ptr != item.data() + item.size()) {
            if (*r.ptr != '-') return -1;
            auto r2 = std::from_chars(r.ptr + 1, item.data() + item.size(), b);
            if (r2.ec != std::errc() || r2.ptr != item.data() + item.size() || b < a) return -1;
        }
        total += b - a + 1;
    }
    return total;
}

std::vector<int> sysfs_cpus_per_node(const std::string& sys_root)
{
    namespace fs = std::filesystem;
    std::vector<int> cpus;
    std::error_code ec;
    const fs::path dir = fs::path(sys_root) / "devices/system/node";
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        int id = -1;
        if (name.rfind("node", 0) != 0
            || std::from_chars(name.data() + 4, name.data() + name.size(), id).ptr != name.data() + name.size()
            || id < 0 || id > 4095)
            continue;
        if (cpus.size() <= static_cast<std::size_t>(id)) cpus.resize(static_cast<std::size_t>(id) + 1, 0);
        auto text = io::read_text_file((e.path() / "cpulist").string(), 1 << 16);
        if (auto* s = std::get_if<std::string>(&text))
            cpus[static_cast<std::size_t>(id)] = std::max(0, cpulist_count(*s));
    }
    return cpus;
}

} // namespace pcplab::procfs
