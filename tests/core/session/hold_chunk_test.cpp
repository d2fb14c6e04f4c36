// Schema 2 keeps a snapshot's lock holds as one JSON array per row of lock_hold_chunks: the text must give
// every field back exactly, the lock_holds view must show the same holds to sqlite3, and a damaged chunk
// must end in a clear error.
#include "core/session/session_test_support.hpp"

#include "session/byte_codec.hpp"
#include "session/hold_chunk.hpp"
#include "session/recording_reader.hpp"
#include "session/recording_schema.hpp"
#include "session/recording_writer.hpp"
#include "session/sqlite_db.hpp"

#include <catch2/catch.hpp>

using namespace pcplab;

namespace
{

bool same(const sim::lock_hold_record& a, const sim::lock_hold_record& b)
{
    return a.start == b.start && a.hold_ns == b.hold_ns && a.wait_ns == b.wait_ns && a.cpu == b.cpu && a.node == b.node
        && a.zone == b.zone && a.kind == b.kind && a.caller == b.caller && a.pages == b.pages && a.owner == b.owner;
}

std::string decode_error(const std::string& text)
{
    try {
        session::decode_hold_chunk(text, 100);
        return "";
    } catch (const session::codec_error& e) {
        return e.what();
    }
}

} // namespace

TEST_CASE("a hold chunk gives every field of every hold back, extremes included")
{
    sim::lock_hold_record a;
    a.start = 123'456'789'012;
    a.hold_ns = 4'321;
    a.wait_ns = 17;
    a.cpu = 255;
    a.node = 3;
    a.zone = 2;
    a.kind = mm::lock_kind::zone_lock;
    a.caller = mm::lock_caller::free_pcppages_bulk;
    a.pages = 63;
    a.owner = -1;
    sim::lock_hold_record b; // the largest value of every field
    b.start = INT64_MAX;
    b.hold_ns = b.wait_ns = b.pages = UINT32_MAX;
    b.cpu = UINT16_MAX;
    b.node = b.zone = UINT8_MAX;
    b.kind = mm::lock_kind::pcp_lock;
    b.caller = static_cast<mm::lock_caller>(static_cast<int>(mm::lock_caller::nr_callers) - 1);
    b.owner = INT16_MAX;
    const sim::lock_hold_record c{}; // all zero but owner -1

    session::hold_chunk_builder w;
    CHECK(w.text() == "[]");
    CHECK(session::decode_hold_chunk(w.text(), 0).empty());
    w.clear();
    for (const auto& h : {a, b, c}) w.add(h);
    CHECK(w.size() == 3);
    const std::string text(w.text());
    // Starts are kept from the first hold's: c's is before it.
    CHECK(w.base_ns() == a.start);
    CHECK(text.rfind("[[0,4321,17,255,3,2,0,", 0) == 0);
    CHECK(text.find("[-123456789012,0,0,0,0,0,0,") != std::string::npos);
    const auto back = session::decode_hold_chunk(text, w.base_ns());
    REQUIRE(back.size() == 3);
    CHECK(same(back[0], a));
    CHECK(same(back[1], b));
    CHECK(same(back[2], c));

    // Reused: clear() starts a new chunk; a hold added after text() was read joins the same array.
    w.clear();
    w.add(c);
    CHECK(w.base_ns() == 0);
    CHECK(session::decode_hold_chunk(w.text(), 0).size() == 1);
    w.add(a);
    REQUIRE(session::decode_hold_chunk(w.text(), 0).size() == 2);
    CHECK(same(session::decode_hold_chunk(w.text(), 0)[1], a));
    // Thousands of holds in one chunk (the buffer grows).
    w.clear();
    for (int i = 0; i < 5000; ++i) w.add(b);
    const auto many = session::decode_hold_chunk(w.text(), w.base_ns());
    REQUIRE(many.size() == 5000);
    CHECK(same(many.back(), b));
    // What sqlite3's json() makes of it (spaces) still reads.
    CHECK(session::decode_hold_chunk(" [ [1, 2, 3, 4, 5, 6, 1, 0, 7, 8] ] ", 0).size() == 1);
}

TEST_CASE("a damaged hold chunk is refused, saying what is wrong")
{
    CHECK(decode_error("") != "");
    CHECK(decode_error("{}").find("not a JSON array") != std::string::npos);
    CHECK(decode_error("[[1,2,3,4,5,6,0,0,7]]").find("expected ','") != std::string::npos); // nine values
    CHECK(decode_error("[[1,2,3,4,5,6,0,0,7,8,9]]").find("closing a hold") != std::string::npos); // eleven
    CHECK(decode_error("[[1,2,3,4,5,6,2,0,7,8]]").find("kind is out of range (2)") != std::string::npos);
    CHECK(decode_error("[[1,2,3,4,5,6,0,999,7,8]]").find("caller is out of range (999)") != std::string::npos);
    CHECK(decode_error("[[-100,2,3,4,5,6,0,0,7,8]]") == ""); // base 100: start 0
    CHECK(decode_error("[[-101,2,3,4,5,6,0,0,7,8]]").find("start is out of range (-101)") != std::string::npos);
    CHECK_THROWS_WITH(
        session::decode_hold_chunk("[]", static_cast<sim::vtime_ns>(-1)), Catch::Contains("base_ns is negative"));
    CHECK(decode_error("[[1,2,3,70000,5,6,0,0,7,8]]").find("cpu is out of range") != std::string::npos);
    CHECK(decode_error("[[1,2,3,4,5,6,0,0,7,-2]]").find("owner is out of range") != std::string::npos);
    CHECK(decode_error("[[1,2.5,3,4,5,6,0,0,7,8]]") != "");
    CHECK(decode_error("[[1,\"x\",3,4,5,6,0,0,7,8]]").find("hold_ns is not an integer") != std::string::npos);
    CHECK(decode_error("[[1,2,3,4,5,6,0,0,7,8]] x").find("text after the array") != std::string::npos);
    CHECK(decode_error("[[1,2,3,4,5,6,0,0,7,8],]") != "");
    CHECK(decode_error("[[1,2,3,4,5,6,0,0,7,8]").find("closing the array") != std::string::npos);
}

TEST_CASE("sqlite3 sees a recording's lock holds one row per hold through the lock_holds view")
{
    test::scratch_file f("chunks.db");
    const auto snaps = test::engine_snapshots(5);
    test::record_snapshots(f.path(), snaps);
    session::recording back(f.path());
    CHECK(back.meta("schema_version") == "2");
    const auto run = back.runs().front().run;
    const auto replay = back.load_all(run);
    REQUIRE(replay.size() == snaps.size());

    std::uint64_t holds = 0, hold_ns = 0, pages = 0, zone_lock = 0;
    for (std::size_t i = 0; i < replay.size(); ++i) {
        INFO("snapshot " << replay[i]->seq);
        REQUIRE(replay[i]->holds.size() == snaps[i]->holds.size());
        for (std::size_t k = 0; k < replay[i]->holds.size(); ++k) CHECK(same(replay[i]->holds[k], snaps[i]->holds[k]));
        // One snapshot read by itself finds its chunk by rowid and gets the same holds.
        const auto one = back.load(run, replay[i]->seq);
        REQUIRE(one);
        CHECK(one->holds.size() == replay[i]->holds.size());
        for (const auto& h : replay[i]->holds) {
            ++holds;
            hold_ns += h.hold_ns;
            pages += h.pages;
            zone_lock += h.kind == mm::lock_kind::zone_lock;
        }
    }
    REQUIRE(holds > 20);

    session::sqlite_db db(f.path(), session::sqlite_db::mode::read_only);
    auto q = db.prepare("SELECT count(*), sum(hold_ns), sum(pages), sum(kind = 0), count(DISTINCT seq) FROM lock_holds "
                        "WHERE run = ?");
    q.bind(1, run);
    REQUIRE(q.step());
    CHECK(static_cast<std::uint64_t>(q.column_int(0)) == holds);
    CHECK(static_cast<std::uint64_t>(q.column_int(1)) == hold_ns);
    CHECK(static_cast<std::uint64_t>(q.column_int(2)) == pages);
    CHECK(static_cast<std::uint64_t>(q.column_int(3)) == zone_lock);
    // The documented join with the caller names works on the view.
    auto names = db.prepare("SELECT count(*) FROM lock_holds h JOIN lock_callers c USING (caller)");
    REQUIRE(names.step());
    CHECK(static_cast<std::uint64_t>(names.column_int(0)) == holds);
}

TEST_CASE("a damaged hold chunk is reported with its run and sequence number")
{
    test::scratch_file f("chunk-bad.db");
    test::record_snapshots(f.path(), test::engine_snapshots(4));
    std::int64_t seq = 0;
    {
        session::sqlite_db db(f.path(), session::sqlite_db::mode::read_write);
        seq = db.query_int("SELECT max(seq) FROM lock_hold_chunks");
        db.exec("UPDATE lock_hold_chunks SET holds = '[[1,2]]' WHERE seq = " + std::to_string(seq));
    }
    session::recording back(f.path());
    const auto run = back.runs().front().run;
    const std::string where = f.path() + ": snapshot " + std::to_string(seq) + " of run " + std::to_string(run) + ": ";
    CHECK_THROWS_WITH(back.load_all(run), Catch::StartsWith(where) && Catch::Contains("lock hold"));
    CHECK_THROWS_WITH(back.load(run, static_cast<std::uint64_t>(seq)), Catch::StartsWith(where));
}

TEST_CASE("runs are not added to a recording of an older schema")
{
    test::scratch_file f("old.db");
    REQUIRE(test::copy_v1_fixture(f.path()));
    const std::string before = test::read_bytes(f.path());
    CHECK_THROWS_WITH(session::recording_writer(f.path(), {}, true),
        f.path() + ": a schema 1 recording; runs are added only to schema 2 recordings (record to a new file)");
    CHECK(test::read_bytes(f.path()) == before); // nothing written
}
