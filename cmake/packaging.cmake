# `cpack -G DEB` in a build tree (scripts/package.sh): pcplab_VERSION_ARCH.deb of what cmake/install.cmake lays out,
# under /usr. dpkg-shlibdeps names the Debian packages of the libraries the programs link (Qt 6, QCustomPlot,
# SQLite, the C++ runtime, and the sanitizer runtimes in a sanitizer build; libqt6svg6 also holds the SVG icon
# engine that draws the window icon); Depends adds the Qt platform plugins (xcb), loaded without being linked.
set(PCPLAB_PACKAGE_MAINTAINER "pcplab maintainers <pcplab@invalid>"
    CACHE STRING "Maintainer field of the Debian package (Name <address>)")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME pcplab)
set(CPACK_PACKAGE_VENDOR pcplab)
set(CPACK_PACKAGE_CONTACT "${PCPLAB_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "desktop lab for the Linux page allocator's per-CPU page lists")
# The long description (CPack puts the summary above it).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "A model of mm/page_alloc.c (NUMA nodes, zones, the buddy allocator,
per-CPU pagesets, watermarks, deferred struct-page init) runs a simulated
machine of up to hundreds of CPUs in virtual time. The window (pcplab) shows
its per-CPU page lists, zone->lock contention and batch/high limits live,
with five kernel patches as switches and an A/B mode; pcplab-cli prints
/proc/zoneinfo, runs workloads, replays each patch's published experiment,
and records, compares and exports runs. Lessons walk through each patch.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins")
# Wayland's platform plugin pulls in Qt Quick and QML (nine packages); without it the window runs through XWayland.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "qt6-wayland")
set(CPACK_STRIP_FILES ON) # debug information stays in the build tree
if(PCPLAB_SANITIZE)
  # A sanitizer build's package says so in its version (and its file name): it needs the sanitizer runtimes.
  string(REPLACE "," "." sanitizers "${PCPLAB_SANITIZE}")
  set(CPACK_DEBIAN_PACKAGE_VERSION "${PROJECT_VERSION}+sanitize.${sanitizers}")
endif()
include(CPack)
