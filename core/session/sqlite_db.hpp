// A thin RAII layer over the SQLite C API for the recording files: a connection, prepared statements with
// typed bind/column helpers, and one exception type that carries SQLite's own message.
#pragma once

#include "base/error.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

struct sqlite3;
struct sqlite3_stmt;

namespace pcplab::session
{

// A failed SQLite call: `code` is SQLite's primary result code (SQLITE_CORRUPT, SQLITE_NOTADB ...).
class sqlite_error : public failure
{
public:
    sqlite_error(int code, const std::string& what)
        : failure(what)
        , m_code(code)
    {
    }
    int code() const { return m_code; }

private:
    int m_code;
};

class sqlite_stmt;

class sqlite_db
{
public:
    enum class mode { read_only, read_write, create };
    sqlite_db() = default;
    sqlite_db(const std::string& path, mode m); // throws sqlite_error
    ~sqlite_db();
    sqlite_db(sqlite_db&& o) noexcept;
    sqlite_db& operator=(sqlite_db&& o) noexcept;
    sqlite_db(const sqlite_db&) = delete;
    sqlite_db& operator=(const sqlite_db&) = delete;

    bool is_open() const { return m_db != nullptr; }
    void close();
    void exec(const std::string& sql); // one or more statements without results
    sqlite_stmt prepare(std::string_view sql);
    // The first column of the first row of `sql` as an integer (0 when no row).
    std::int64_t query_int(const std::string& sql);
    bool has_table(const std::string& name);
    std::int64_t last_insert_rowid() const;
    sqlite3* handle() const { return m_db; }

private:
    sqlite3* m_db = nullptr;
};

class sqlite_stmt
{
public:
    sqlite_stmt() = default;
    sqlite_stmt(sqlite3* db, std::string_view sql);
    ~sqlite_stmt();
    sqlite_stmt(sqlite_stmt&& o) noexcept;
    sqlite_stmt& operator=(sqlite_stmt&& o) noexcept;
    sqlite_stmt(const sqlite_stmt&) = delete;
    sqlite_stmt& operator=(const sqlite_stmt&) = delete;

    // Binding by 1-based index; chains so an insert reads as one line.
    // Any integer (SQLite stores 64-bit signed; a uint64_t above INT64_MAX comes back negative).
    template <typename I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
    sqlite_stmt& bind(int i, I v)
    {
        return bind_int64(i, static_cast<std::int64_t>(v));
    }
    sqlite_stmt& bind_int64(int i, std::int64_t v);
    sqlite_stmt& bind(int i, double v);
    sqlite_stmt& bind(int i, std::string_view text);
    sqlite_stmt& bind(int i, const char* text) { return bind(i, std::string_view(text)); }
    sqlite_stmt& bind_blob(int i, std::string_view bytes);
    // Text that SQLite reads in place instead of copying: it must stay unchanged until the statement has run.
    sqlite_stmt& bind_static(int i, std::string_view text);
    sqlite_stmt& bind_null(int i);

    bool step(); // true: a row is ready; false: done. Throws on error.
    void run(); // step() to completion, ready to step again (for inserts: bind every column each time)
    void reset(); // ready to bind and step again, every binding cleared

    std::int64_t column_int(int i) const; // 0-based
    double column_double(int i) const;
    std::string column_text(int i) const;
    std::string column_blob(int i) const;
    bool column_is_null(int i) const;

private:
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
};

} // namespace pcplab::session
