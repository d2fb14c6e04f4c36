# The version and commit the programs report (core/program/version.hpp). The version is project()'s; the commit
# is the source tree's `git describe --always --dirty`, taken at every build (not only at configure time, so a
# new HEAD or an edit shows) by write_build_commit.cmake, which rewrites the header only when it changes.
set(PCPLAB_GENERATED_DIR "${PROJECT_BINARY_DIR}/generated")
set(PCPLAB_BUILD_COMMIT_HEADER "${PCPLAB_GENERATED_DIR}/pcplab_build_commit.hpp")
add_custom_target(pcplab_build_commit
  COMMAND "${CMAKE_COMMAND}" "-DSOURCE_DIR=${PROJECT_SOURCE_DIR}" "-DVERSION=${PROJECT_VERSION}"
          "-DOUT=${PCPLAB_BUILD_COMMIT_HEADER}" -P "${CMAKE_CURRENT_LIST_DIR}/write_build_commit.cmake"
  BYPRODUCTS "${PCPLAB_BUILD_COMMIT_HEADER}"
  VERBATIM)
