# What `cmake --install` lays out (and the .deb holds, cmake/packaging.cmake), under the prefix:
#   bin/pcplab, bin/pcplab-cli
#   share/pcplab/presets/*.json, share/pcplab/lessons/*.md     found from bin/ (core/program/data_dirs.hpp)
#   share/applications/pcplab.desktop, share/metainfo/pcplab.metainfo.xml, share/icons/hicolor/scalable/apps/pcplab.svg
#   share/man/man1/pcplab.1.gz, pcplab-cli.1.gz                 (cmake/man_pages.cmake)
#   share/doc/pcplab/README.md, docs/
install(TARGETS pcplab pcplab-cli RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(DIRECTORY resources/presets/ DESTINATION "${PCPLAB_INSTALL_DATADIR}/presets"
        FILES_MATCHING PATTERN "*.json" PATTERN "README.md")
install(DIRECTORY lessons/ DESTINATION "${PCPLAB_INSTALL_DATADIR}/lessons" FILES_MATCHING PATTERN "*.md")
install(FILES README.md DESTINATION "${CMAKE_INSTALL_DOCDIR}")
install(DIRECTORY docs DESTINATION "${CMAKE_INSTALL_DOCDIR}")

# Desktop integration. AppStream wants a web address for a screenshot (a file path does not validate), and the
# project has none yet: give one (e.g. where docs/screenshot.png is published) and the metainfo shows it.
set(PCPLAB_SCREENSHOT_URL "" CACHE STRING "https address of the screenshot in the AppStream metainfo (empty: none)")
if(PCPLAB_SCREENSHOT_URL)
  set(PCPLAB_METAINFO_SCREENSHOTS "  <screenshots>
    <screenshot type=\"default\">
      <caption>Machine A with seed 000's fix beside machine B without it, in A/B mode</caption>
      <image>${PCPLAB_SCREENSHOT_URL}</image>
    </screenshot>
  </screenshots>")
else()
  set(PCPLAB_METAINFO_SCREENSHOTS "")
  message(STATUS "pcplab: the AppStream metainfo has no screenshot (set PCPLAB_SCREENSHOT_URL to an https address)")
endif()
configure_file(resources/desktop/pcplab.metainfo.xml.in "${PROJECT_BINARY_DIR}/desktop/pcplab.metainfo.xml" @ONLY)
install(FILES resources/desktop/pcplab.desktop DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
install(FILES "${PROJECT_BINARY_DIR}/desktop/pcplab.metainfo.xml" DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
install(FILES resources/icons/pcplab.svg DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps")

include(cmake/man_pages.cmake)
