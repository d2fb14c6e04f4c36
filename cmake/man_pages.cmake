# pcplab(1) and pcplab-cli(1), written by help2man from the programs' own --help and --version whenever a program
# is rebuilt, so that they never drift from them; resources/man/*.h2m add what the help cannot say (where the data
# is, the environment, see also). PCPLAB_MAN_PAGES: AUTO builds them when help2man is installed (install-deps.sh
# installs it), ON requires it (scripts/package.sh: a package without its man pages is not built), OFF skips them.
set(PCPLAB_MAN_PAGES AUTO CACHE STRING "Build the man pages with help2man: AUTO, ON or OFF")
set_property(CACHE PCPLAB_MAN_PAGES PROPERTY STRINGS AUTO ON OFF)
if(NOT PCPLAB_MAN_PAGES STREQUAL "OFF")
  if(PCPLAB_MAN_PAGES STREQUAL "ON")
    find_program(HELP2MAN help2man REQUIRED)
  else()
    find_program(HELP2MAN help2man)
  endif()
  find_program(GZIP gzip REQUIRED)
  if(NOT HELP2MAN)
    message(STATUS "pcplab: no help2man, so no man pages (apt install help2man, or scripts/install-deps.sh)")
  else()
    set(pages)
    # pcplab-cli's page has every command's options (`pcplab-cli help --all`), the window's its --help.
    set(help_option_pcplab --help)
    set(help_option_pcplab-cli "help --all")
    foreach(program pcplab pcplab-cli)
      set(page "${PROJECT_BINARY_DIR}/man/${program}.1")
      set(include "${PROJECT_SOURCE_DIR}/resources/man/${program}.h2m")
      add_custom_command(OUTPUT "${page}.gz"
        COMMAND "${HELP2MAN}" --no-info --section=1 "--help-option=${help_option_${program}}" "--include=${include}"
                "--output=${page}" "$<TARGET_FILE:${program}>"
        COMMAND "${GZIP}" -9nkf "${page}"
        DEPENDS "${program}" "${include}"
        COMMENT "help2man ${program}"
        VERBATIM)
      list(APPEND pages "${page}.gz")
    endforeach()
    add_custom_target(pcplab_man_pages ALL DEPENDS ${pages})
    install(FILES ${pages} DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
  endif()
endif()
