# retrylab_catch_tests(NAME <name> EXECUTABLE <file> PREFIX <text>
#                      [EMULATOR <command>...] [WORKING_DIRECTORY <dir>] [LABELS <label>...])
#
# Registers one ctest test per test case of a Catch2 v2 binary, named "<PREFIX><case>".
# Like Catch2's catch_discover_tests, but the cases are listed when ctest starts rather than
# after a build, which lets one build's ctest run another build's binary (the wasm tests from
# the native build), keeps a prefix's trailing space (cmake -D trims it), and turns a binary
# that is missing or lists nothing into a failing test instead of an empty, passing run.
# EXECUTABLE may be a generator expression such as $<TARGET_FILE:core_tests>.
function(retrylab_catch_tests)
    cmake_parse_arguments(arg "" "NAME;EXECUTABLE;PREFIX;WORKING_DIRECTORY" "EMULATOR;LABELS" ${ARGN})
    if(NOT arg_WORKING_DIRECTORY)
        set(arg_WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
    endif()
    set(script "${CMAKE_CURRENT_BINARY_DIR}/${arg_NAME}_catch_tests.cmake")
    file(GENERATE OUTPUT "${script}" CONTENT "\
set(exe [==[${arg_EXECUTABLE}]==])
set(emulator [==[${arg_EMULATOR}]==])
set(prefix [==[${arg_PREFIX}]==])
set(labels [==[${arg_LABELS}]==])
set(workdir [==[${arg_WORKING_DIRECTORY}]==])
include([==[${RETRYLAB_CATCH_TESTS_SCRIPT}]==])
")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${script}")
endfunction()

set(RETRYLAB_CATCH_TESTS_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/CatchTestsAtTestTime.cmake")
