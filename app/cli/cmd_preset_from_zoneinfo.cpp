// pcplab-cli preset-from-zoneinfo FILE: a preset that boots to the machine a /proc/zoneinfo came from.
#include "args.hpp"
#include "commands.hpp"
#include "zoneinfo_args.hpp"

#include "io/output_file.hpp"
#include "sim/machine_config.hpp"
#include "sim/preset.hpp"
#include "sim/preset_from_zoneinfo.hpp"

#include <filesystem>
#include <sys/stat.h>

namespace pcplab::cli
{

namespace
{

// Write the preset whole or not at all (io::write_file_atomically). Anything at the path that is not a regular
// file (a device, a FIFO, a directory, a symbolic link) is refused and left alone: a preset is a file to load
// again, not a stream.
void write_preset(const std::string& path, const std::string& text)
{
    struct stat st {
    };
    if (lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw cli_error("--out " + path + ": is not a regular file; refusing to replace it");
    if (std::string err = io::write_file_atomically(path, text); !err.empty())
        throw cli_error("--out " + path + ": cannot be written (" + err + ")");
}

} // namespace

std::string preset_from_zoneinfo_help()
{
    return "Usage: pcplab-cli preset-from-zoneinfo FILE [--cpus-per-node N,N,...] [--era VERSION] [--page-size KIB]\n"
           "                                       [--out PRESET.json] [--check]\n\n"
           "Writes a preset (resources/presets/README.md) for the machine a /proc/zoneinfo came from: its nodes\n"
           "and CPUs, each zone's present and managed pages, the page size, the era whose formulas gave its\n"
           "pagesets (what check-zoneinfo finds) and the vm.min_free_kbytes and vm.watermark_scale_factor that\n"
           "give its watermarks, so that it boots to the same batch, high and watermarks.\n\n"
           "  --cpus-per-node N,...    CPUs of each node; default: inferred from the file\n"
           "  --era VERSION            the kernel that wrote the file; default: the layout and the numbers\n"
           "  --page-size KIB          4, 16 or 64; default: inferred from the numbers\n"
           "  --out PRESET.json        write the preset there and print a summary (default: the preset on stdout)\n"
           "  --check                  boot the preset and compare it with the capture, zone by zone\n\n"
           "Exit status: 0 written (and with --check, every value reproduced), 1 --check found differences,\n"
           "2 unreadable file or bad flag.\n";
}

int cmd_preset_from_zoneinfo(const std::vector<std::string>& args)
{
    parsed_args a = parse_args("preset-from-zoneinfo", args,
        {{"--era", true, false}, {"--cpus-per-node", true, false}, {"--page-size", true, false}, {"--out", true, false},
            {"--check", false, false}},
        1);
    procfs::check_options opt = zoneinfo_check_options(a);
    if (a.positional.empty()) throw cli_error("preset-from-zoneinfo: missing FILE (a /proc/zoneinfo capture)");
    const std::string file = a.positional.front();
    procfs::zoneinfo_doc doc = load_capture(file);
    procfs::check_report rep = procfs::check_zoneinfo(doc, opt);
    const auto cpus = procfs::cpus_per_node_of(doc, opt.cpus_per_node, nullptr);
    sim::zoneinfo_preset preset
        = sim::preset_from_zoneinfo(doc, rep, cpus, std::filesystem::path(file).filename().string());

    const auto out = a.get("--out");
    if (!out && !a.has("--check")) {
        write_stdout(preset.json);
        return 0;
    }
    // The preset must load as any preset file does; a failure here is a bug in the writer.
    auto loaded = sim::parse_preset(preset.json, out ? *out : "generated preset");
    if (auto* err = std::get_if<pcplab::error>(&loaded))
        throw cli_error("internal error: the generated preset does not load: " + err->str(), 3);
    std::string text = "era " + preset.era + "\n";
    for (const auto& n : preset.notes) text += "not reproduced: " + n + "\n";
    int status = 0;
    if (a.has("--check")) {
        auto cfg = sim::make_machine_config(std::get<mm::machine_spec>(loaded), {});
        if (auto* err = std::get_if<pcplab::error>(&cfg))
            throw cli_error("internal error: the generated preset does not configure: " + err->str(), 3);
        auto m = sim::build_machine(std::get<sim::machine_config>(cfg));
        sim::boot_to(*m, sim::boot_target::after_init);
        sim::round_trip rt = sim::compare_with_capture(doc, rep, preset, *m);
        text += rt.text();
        status = rt.ok() ? 0 : 1;
    }
    if (out) {
        write_preset(*out, preset.json);
        text = "wrote " + *out + "\n" + text;
    }
    write_stdout(text);
    return status;
}

} // namespace pcplab::cli
