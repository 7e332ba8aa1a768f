# retrysim as a Debian package (CPack's DEB generator), from the native build:
#
#   cpack --preset deb          (after the native build; scripts/package runs it)
#
# The package holds /usr/bin/retrysim, its copyright file (below), its man page (retrysim.1.gz, written at build time
# from `retrysim --help` by packaging/deb/manpage.mjs, so the page lists exactly the flags the
# binary has) and /usr/share/doc/retrysim/changelog.gz. Its version is the project's (the one
# source: project(VERSION) in CMakeLists.txt), the same the engine reports in every result.
# Only retrysim has an install rule (bindings/cli/CMakeLists.txt), so only it is packaged.
if(EMSCRIPTEN OR NOT TARGET retrysim)
    return()
endif()

include(GNUInstallDirs)
# cpack packs what is built and builds nothing itself (its preinstall step would otherwise build
# every target, the tests included): scripts/package builds retrysim, its man page and the
# changelog first, and a cpack before them stops on the missing file.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY TRUE)

# The man page: generated from the built binary's --help and --version, gzipped as Debian
# policy asks (-9, no name or time in the header, so the bytes depend only on the text).
find_program(RETRYLAB_PACKAGING_NODE NAMES node nodejs REQUIRED)
set(retrysim_man "${CMAKE_BINARY_DIR}/man/retrysim.1")
file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/man")
add_custom_command(
    OUTPUT "${retrysim_man}" "${retrysim_man}.gz"
    COMMAND "${RETRYLAB_PACKAGING_NODE}" "${PROJECT_SOURCE_DIR}/packaging/deb/manpage.mjs"
            "$<TARGET_FILE:retrysim>" "${retrysim_man}"
    DEPENDS retrysim "${PROJECT_SOURCE_DIR}/packaging/deb/manpage.mjs"
            "${PROJECT_SOURCE_DIR}/packaging/deb/retrysim.1.in"
    COMMENT "retrysim.1: the man page from retrysim --help"
    VERBATIM)
add_custom_target(retrysim_man ALL DEPENDS "${retrysim_man}.gz")
install(FILES "${retrysim_man}.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")

# The changelog, as Debian keeps one per package (compressed the same way).
set(retrysim_changelog "${CMAKE_BINARY_DIR}/man/changelog.gz")
add_custom_command(
    OUTPUT "${retrysim_changelog}"
    COMMAND "${RETRYLAB_PACKAGING_NODE}" -e
            "const z=require('zlib'),f=require('fs');f.writeFileSync(process.argv[2],z.gzipSync(f.readFileSync(process.argv[1]),{level:9}))"
            "${PROJECT_SOURCE_DIR}/CHANGELOG.md" "${retrysim_changelog}"
    DEPENDS "${PROJECT_SOURCE_DIR}/CHANGELOG.md"
    VERBATIM)
add_custom_target(retrysim_changelog ALL DEPENDS "${retrysim_changelog}")
install(FILES "${retrysim_changelog}" DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/doc/retrysim")

# The copyright file (Debian policy §12.5): retrysim's binary holds libyaml (third_party/libyaml)
# and nlohmann-json (header-only, from Debian's nlohmann-json3-dev), whose MIT/Expat notices must
# travel with it; packaging/deb/copyright.mjs writes it from libyaml's own License file and from
# Debian's copyright file for nlohmann-json.
find_file(RETRYLAB_NLOHMANN_COPYRIGHT copyright PATHS /usr/share/doc/nlohmann-json3-dev NO_DEFAULT_PATH REQUIRED)
set(retrysim_copyright "${CMAKE_BINARY_DIR}/man/copyright")
add_custom_command(
    OUTPUT "${retrysim_copyright}"
    COMMAND "${RETRYLAB_PACKAGING_NODE}" "${PROJECT_SOURCE_DIR}/packaging/deb/copyright.mjs"
            "${PROJECT_SOURCE_DIR}/third_party/libyaml/License" "${RETRYLAB_NLOHMANN_COPYRIGHT}" "${retrysim_copyright}"
    DEPENDS "${PROJECT_SOURCE_DIR}/packaging/deb/copyright.mjs" "${PROJECT_SOURCE_DIR}/third_party/libyaml/License"
            "${RETRYLAB_NLOHMANN_COPYRIGHT}"
    COMMENT "copyright: libyaml's and nlohmann-json's notices"
    VERBATIM)
add_custom_target(retrysim_copyright ALL DEPENDS "${retrysim_copyright}")
install(FILES "${retrysim_copyright}" DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/doc/retrysim")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME retrysim)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "Retry Lab")
set(CPACK_PACKAGE_CONTACT "Retry Lab <retrylab@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "what retries do to side effects: Retry Lab's engine as a command")
set(CPACK_PACKAGE_DESCRIPTION
    "retrysim reads a retry policy and a server's behaviour as JSON and prints, exactly, what\n"
    "happens: every attempt, every charge, the outcome the client reports and what really\n"
    "happened. It also runs sweeps, fleets of clients against one server (FLEET.md), Retry\n"
    "Lab links and comparisons. The same engine as Retry Lab's page, to the last bit.")
string(JOIN "" CPACK_PACKAGE_DESCRIPTION ${CPACK_PACKAGE_DESCRIPTION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # retrysim_2.0.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The shared libraries it links (libc6, libstdc++6, libgcc-s1), read by dpkg-shlibdeps
# (dpkg-dev, which scripts/setup installs).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_PACKAGE_DIRECTORY "${CMAKE_BINARY_DIR}/packages")
include(CPack)
