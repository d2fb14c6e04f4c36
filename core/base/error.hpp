// The one way core says that something failed. An `error` is a line for the user that names the input and
// the problem. A function for which failure is an expected outcome (parsing a file, a flag, a lesson; a
// sysctl value the kernel would refuse) returns `result<T>` (the value or the error) or `status` (nothing or
// the error). Where unwinding through many frames is the design (a recording's decoder, SQLite, a workload's
// parameters), core throws a `failure`, which carries the same `error`.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace pcplab
{

struct error {
    std::string source; // the input: a file's path, a flag ("--era"); empty where the caller names it
    int line = 0; // 1-based; 0: the error is not about one line
    int column = 0; // 1-based, within `line` (or within a one-line input); 0: not about one column
    std::string field; // where in a structured input: a JSON path ("nodes[1].cpus"); empty otherwise
    std::string message; // what is wrong

    error() = default;
    // Not an aggregate on purpose: each field is set by name (error::in(...), .at(...)), never by position.
    explicit error(std::string what)
        : message(std::move(what))
    {
    }
    static error in(std::string source, std::string what)
    {
        error e(std::move(what));
        e.source = std::move(source);
        return e;
    }
    error& at(int line_no, int column_no = 0)
    {
        line = line_no;
        column = column_no;
        return *this;
    }
    error& at_column(int column_no)
    {
        column = column_no;
        return *this;
    }
    error& in_field(std::string path)
    {
        field = std::move(path);
        return *this;
    }

    // "SOURCE:LINE:COLUMN: MESSAGE" (the GNU form editors jump to), "SOURCE: FIELD: MESSAGE", or the message
    // alone; a part that is not set is left out.
    std::string str() const;
};

// The value, or why there is none. A std::variant underneath, so std::get_if and std::visit work on it.
template <class T> class [[nodiscard]] result : public std::variant<T, pcplab::error>
{
public:
    using base = std::variant<T, pcplab::error>;
    using base::base;

    bool ok() const { return this->index() == 0; }
    explicit operator bool() const { return ok(); }
    const T& value() const& { return std::get<0>(*this); }
    T& value() & { return std::get<0>(*this); }
    T&& value() && { return std::get<0>(std::move(*this)); }
    const T* operator->() const { return &value(); }
    const T& operator*() const& { return value(); }
    const pcplab::error& error() const { return std::get<1>(*this); }
};

// Nothing, or why not: for an operation with no value (a sysctl write, a check).
class [[nodiscard]] status
{
public:
    status() = default; // success
    status(pcplab::error e)
        : m_error(std::move(e))
    {
    }
    bool ok() const { return !m_error; }
    explicit operator bool() const { return ok(); }
    const pcplab::error& error() const { return *m_error; }
    const std::string& message() const; // the error's message; empty on success

private:
    std::optional<pcplab::error> m_error;
};

// An error thrown: caught as pcplab::failure (or std::exception, whose what() is the error's str()).
class failure : public std::runtime_error
{
public:
    explicit failure(pcplab::error e)
        : std::runtime_error(e.str())
        , m_error(std::move(e))
    {
    }
    explicit failure(const std::string& what)
        : failure(pcplab::error(what))
    {
    }
    const pcplab::error& error() const { return m_error; }

private:
    pcplab::error m_error;
};

} // namespace pcplab
