// libFuzzer target: the snapshot blob of a recording (table `snapshots`, column `data`) through the
// decoder the replay uses. A truncated, corrupt or unknown blob must be a codec_error, nothing else; a blob
// that decodes must encode again.
#include "session/byte_codec.hpp"
#include "session/snapshot_codec.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    try {
        auto s = pcplab::session::decode_snapshot(std::string_view(reinterpret_cast<const char*>(data), size));
        (void)pcplab::session::encode_snapshot(s);
    } catch (const pcplab::session::codec_error&) {
    }
    return 0;
}
