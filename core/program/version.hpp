// The program's version and the commit it was built from: one source for --version, the About box and recordings.
#pragma once

#include <string>
#include <string_view>

namespace pcplab::program
{

// "0.1.0": the VERSION of project() in the top CMakeLists.txt.
std::string_view version();

// The source tree's `git describe --always --dirty` when it was built ("74a1dee", "74a1dee-dirty"); empty when
// it was built from a tree without git (a tarball).
std::string_view commit();

// What --version prints after the program's name: "0.1.0 (commit 74a1dee)", or "0.1.0 (unknown commit)".
std::string version_line();

} // namespace pcplab::program
