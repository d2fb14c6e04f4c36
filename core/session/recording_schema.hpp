// The recording file: one SQLite database (WAL) with a schema version, documented in docs/recording-schema.md.
// Creating the tables, and telling a pcplab recording from a foreign, newer, damaged or empty file.
#pragma once

#include "base/error.hpp"

#include "session/sqlite_db.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace pcplab::session
{

// PRAGMA user_version of the files this pcplab writes; it reads this version and older ones. 2: lock holds
// in chunks of one JSON array per snapshot (lock_hold_chunks, view lock_holds) instead of a table of rows.
inline constexpr int RECORDING_SCHEMA_VERSION = 2;
// PRAGMA application_id: "PCPL" — marks the file as pcplab's for `file(1)` and for the reader.
inline constexpr std::int32_t RECORDING_APPLICATION_ID = 0x5043504c;
inline constexpr const char* RECORDING_FORMAT_NAME = "pcplab-recording";

// Anything wrong with a recording file. what() is one line that names the file and the problem:
// "off.db: not a pcplab recording (an SQLite database without pcplab's tables)".
class recording_error : public failure
{
public:
    recording_error(const std::string& file, const std::string& problem)
        : failure(pcplab::error::in(file, problem))
    {
    }
    const std::string& file() const { return error().source; }
    const std::string& problem() const { return error().message; }
};

// Creates every table and index, sets the pragmas (WAL, application_id, user_version) and the meta rows
// `format` and `schema_version`.
void create_recording_schema(sqlite_db& db);

// Opens `path` for reading and checks that it is a recording this pcplab can read; throws recording_error
// otherwise (missing, empty, not SQLite, another application's database, newer schema, damaged).
sqlite_db open_recording_db(const std::string& path);

// Turns an SQLite failure while reading `path` into a recording_error with a readable problem.
recording_error describe_sqlite_failure(const std::string& path, const sqlite_error& e);

} // namespace pcplab::session
