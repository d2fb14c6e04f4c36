# cmake -DSOURCE_DIR=... -DVERSION=... -DOUT=... -P write_build_commit.cmake
# Writes OUT, the header of core/program/version.cpp, with the version and the commit of SOURCE_DIR; an empty
# commit when SOURCE_DIR is not itself a git work tree (a tarball, even one unpacked inside another repository,
# or git missing). OUT is rewritten only when its text changes, so an unchanged commit rebuilds nothing.
set(commit "")
find_program(GIT_EXECUTABLE git)
if(GIT_EXECUTABLE)
  execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" rev-parse --show-toplevel
                  OUTPUT_VARIABLE top RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(rc EQUAL 0)
    file(REAL_PATH "${top}" top)
    file(REAL_PATH "${SOURCE_DIR}" source)
  endif()
  if(rc EQUAL 0 AND top STREQUAL source)
    execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" describe --always --dirty
                    OUTPUT_VARIABLE commit RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT rc EQUAL 0)
      set(commit "")
    endif()
  endif()
endif()
set(text "// Written by cmake/write_build_commit.cmake at build time; do not edit.
#pragma once
#define PCPLAB_VERSION \"${VERSION}\"
#define PCPLAB_GIT_COMMIT \"${commit}\"
")
file(WRITE "${OUT}.tmp" "${text}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
