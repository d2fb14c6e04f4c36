# Sanitizer and fuzzer builds, for every target of the project (core, CLI, GUI, tests, benchmarks).
#
#   -DPCPLAB_SANITIZE=address,undefined   AddressSanitizer + UndefinedBehaviorSanitizer (scripts/test.sh)
#   -DPCPLAB_SANITIZE=thread              ThreadSanitizer (scripts/test-tsan.sh)
#   -DPCPLAB_FUZZ=ON                      libFuzzer targets in fuzz/ (clang only; scripts/fuzz.sh)
#
# UBSan stops at its first finding (-fno-sanitize-recover) so that a finding fails the test that hit it
# instead of scrolling past in its log.

set(PCPLAB_SANITIZE "" CACHE STRING "Sanitizers for every target: empty, address,undefined or thread")
set_property(CACHE PCPLAB_SANITIZE PROPERTY STRINGS "" "address,undefined" "address" "undefined" "thread")
option(PCPLAB_FUZZ "Build the libFuzzer targets in fuzz/ (clang; implies address,undefined)" OFF)

if(PCPLAB_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "PCPLAB_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  if(PCPLAB_SANITIZE AND NOT PCPLAB_SANITIZE STREQUAL "address,undefined")
    message(FATAL_ERROR "PCPLAB_FUZZ runs with address,undefined; PCPLAB_SANITIZE=${PCPLAB_SANITIZE} conflicts")
  endif()
  set(PCPLAB_SANITIZE "address,undefined")
  # Coverage instrumentation for the libraries; each fuzz target links libFuzzer's main itself.
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

if(PCPLAB_SANITIZE)
  string(REPLACE "," ";" _pcplab_sanitizers "${PCPLAB_SANITIZE}")
  foreach(s ${_pcplab_sanitizers})
    if(NOT s MATCHES "^(address|undefined|thread)$")
      message(FATAL_ERROR "PCPLAB_SANITIZE: unknown sanitizer '${s}' (address, undefined or thread)")
    endif()
  endforeach()
  if("thread" IN_LIST _pcplab_sanitizers AND "address" IN_LIST _pcplab_sanitizers)
    message(FATAL_ERROR "PCPLAB_SANITIZE: thread and address cannot be combined")
  endif()
  add_compile_options(-fsanitize=${PCPLAB_SANITIZE} -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${PCPLAB_SANITIZE})
  if("undefined" IN_LIST _pcplab_sanitizers)
    add_compile_options(-fno-sanitize-recover=all)
    add_link_options(-fno-sanitize-recover=all)
  endif()
  message(STATUS "pcplab: sanitizers ${PCPLAB_SANITIZE}")
endif()
