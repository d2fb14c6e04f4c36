#include "session/sqlite_db.hpp"

#include <sqlite3.h>

#include <cstring>
#include <utility>

namespace pcplab::session
{

namespace
{

// SQLite's message, and for a failure of the file itself the system's reason: SQLite says "disk I/O error" for
// a write that failed with EFBIG or EIO alike.
std::string message_of(sqlite3* db, int rc, std::string msg)
{
    const int primary = rc & 0xff;
    if (db && (primary == SQLITE_IOERR || primary == SQLITE_FULL || primary == SQLITE_CANTOPEN))
        if (const int err = sqlite3_system_errno(db); err != 0) msg += std::string(" (") + std::strerror(err) + ")";
    return msg;
}

[[noreturn]] void fail(sqlite3* db, int rc, const std::string& doing)
{
    std::string msg = message_of(db, rc, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    throw sqlite_error(rc & 0xff, doing.empty() ? msg : doing + ": " + msg);
}

} // namespace

sqlite_db::sqlite_db(const std::string& path, mode m)
{
    int flags = SQLITE_OPEN_NOMUTEX; // one connection per thread: the writer thread owns its own
    if (m == mode::read_only)
        flags |= SQLITE_OPEN_READONLY;
    else
        flags |= SQLITE_OPEN_READWRITE | (m == mode::create ? SQLITE_OPEN_CREATE : 0);
    int rc = sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc);
        sqlite3_close(m_db);
        m_db = nullptr;
        throw sqlite_error(rc & 0xff, msg);
    }
    sqlite3_extended_result_codes(m_db, 0);
    sqlite3_busy_timeout(m_db, 2000); // a reader may meet the writer's checkpoint
}

sqlite_db::~sqlite_db()
{
    close();
}

sqlite_db::sqlite_db(sqlite_db&& o) noexcept
    : m_db(std::exchange(o.m_db, nullptr))
{
}

sqlite_db& sqlite_db::operator=(sqlite_db&& o) noexcept
{
    if (this != &o) {
        close();
        m_db = std::exchange(o.m_db, nullptr);
    }
    return *this;
}

void sqlite_db::close()
{
    if (m_db) sqlite3_close_v2(m_db);
    m_db = nullptr;
}

void sqlite_db::exec(const std::string& sql)
{
    char* err = nullptr;
    int rc = sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &err);
    if (rc != SQLITE_OK) {
        std::string msg = message_of(m_db, rc, err ? err : sqlite3_errstr(rc));
        sqlite3_free(err);
        throw sqlite_error(rc & 0xff, msg);
    }
}

sqlite_stmt sqlite_db::prepare(std::string_view sql)
{
    return sqlite_stmt(m_db, sql);
}

std::int64_t sqlite_db::query_int(const std::string& sql)
{
    sqlite_stmt s(m_db, sql);
    return s.step() ? s.column_int(0) : 0;
}

bool sqlite_db::has_table(const std::string& name)
{
    auto s = prepare("SELECT count(*) FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?");
    s.bind(1, name);
    return s.step() && s.column_int(0) > 0;
}

std::int64_t sqlite_db::last_insert_rowid() const
{
    return sqlite3_last_insert_rowid(m_db);
}

sqlite_stmt::sqlite_stmt(sqlite3* db, std::string_view sql)
    : m_db(db)
{
    int rc = sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr);
    if (rc != SQLITE_OK) fail(db, rc, "");
}

sqlite_stmt::~sqlite_stmt()
{
    if (m_stmt) sqlite3_finalize(m_stmt);
}

sqlite_stmt::sqlite_stmt(sqlite_stmt&& o) noexcept
    : m_db(o.m_db)
    , m_stmt(std::exchange(o.m_stmt, nullptr))
{
}

sqlite_stmt& sqlite_stmt::operator=(sqlite_stmt&& o) noexcept
{
    if (this != &o) {
        if (m_stmt) sqlite3_finalize(m_stmt);
        m_db = o.m_db;
        m_stmt = std::exchange(o.m_stmt, nullptr);
    }
    return *this;
}

sqlite_stmt& sqlite_stmt::bind_int64(int i, std::int64_t v)
{
    int rc = sqlite3_bind_int64(m_stmt, i, v);
    if (rc != SQLITE_OK) fail(m_db, rc, "bind");
    return *this;
}

sqlite_stmt& sqlite_stmt::bind(int i, double v)
{
    int rc = sqlite3_bind_double(m_stmt, i, v);
    if (rc != SQLITE_OK) fail(m_db, rc, "bind");
    return *this;
}

sqlite_stmt& sqlite_stmt::bind(int i, std::string_view text)
{
    int rc = sqlite3_bind_text(m_stmt, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    if (rc != SQLITE_OK) fail(m_db, rc, "bind");
    return *this;
}

sqlite_stmt& sqlite_stmt::bind_static(int i, std::string_view text)
{
    int rc = sqlite3_bind_text(m_stmt, i, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
    if (rc != SQLITE_OK) fail(m_db, rc, "bind");
    return *this;
}

sqlite_stmt& sqlite_stmt::bind_blob(int i, std::string_view bytes)
{
    int rc = sqlite3_bind_blob(m_stmt, i, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT);
    if (rc != SQLITE_OK) fail(m_db, rc, "bind");
    return *this;
}

sqlite_stmt& sqlite_stmt::bind_null(int i)
{
    int rc = sqlite3_bind_null(m_stmt, i);
    if (rc != SQLITE_OK) fail(m_db, rc, "bind");
    return *this;
}

bool sqlite_stmt::step()
{
    int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail(m_db, rc, "");
}

void sqlite_stmt::run()
{
    while (step()) { }
    sqlite3_reset(m_stmt); // the bindings stay: every insert binds every column again
}

void sqlite_stmt::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

std::int64_t sqlite_stmt::column_int(int i) const
{
    return sqlite3_column_int64(m_stmt, i);
}

double sqlite_stmt::column_double(int i) const
{
    return sqlite3_column_double(m_stmt, i);
}

std::string sqlite_stmt::column_text(int i) const
{
    const unsigned char* p = sqlite3_column_text(m_stmt, i);
    int n = sqlite3_column_bytes(m_stmt, i);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(n)) : std::string();
}

std::string sqlite_stmt::column_blob(int i) const
{
    const void* p = sqlite3_column_blob(m_stmt, i);
    int n = sqlite3_column_bytes(m_stmt, i);
    return p ? std::string(static_cast<const char*>(p), static_cast<std::size_t>(n)) : std::string();
}

bool sqlite_stmt::column_is_null(int i) const
{
    return sqlite3_column_type(m_stmt, i) == SQLITE_NULL;
}

} // namespace pcplab::session
