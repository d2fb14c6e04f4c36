// The benchmark tools' one way to read an option's value from their command line.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace pcplab::bench
{

// The value that follows option argv[i], advancing i past it; a missing value ends the tool with status 2 and one
// line naming the tool and the option.
inline std::string option_value(int argc, char** argv, int& i, const char* tool)
{
    if (i + 1 >= argc) {
        std::fprintf(stderr, "%s: %s needs a value\n", tool, argv[i]);
        std::exit(2);
    }
    return argv[++i];
}

} // namespace pcplab::bench
