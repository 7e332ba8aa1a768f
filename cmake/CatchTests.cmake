# retrylab_catch_tests(NAME <name> EXECUTABLE <file> PREFIX <text>
#                      [EMULATOR <command>...] [WORKING_DIRECTORY <dir>] [LABELS <label>...]
#                      [BATCH <n>])
#
# Registers one ctest test per test case of a Catch2 v2 binary, named "<PREFIX><case>"; with
# BATCH, one per n cases in the binary's order, named "<PREFIX>cases i-j of N: <first case>"
# (each start of an emulator, node for the WebAssembly build, costs about half a second, so
# one per case was a fifth of the suite's test time for little more than starting it).
# Like Catch2's catch_discover_tests, but the cases are listed when ctest starts rather than
# after a build, which lets one build's ctest run another build's binary (the wasm tests from
# the native build), keeps a prefix's trailing space (cmake -D trims it), and turns a binary
# that is missing or lists nothing into a failing test instead of an empty, passing run.
# EXECUTABLE may be a generator expression such as $<TARGET_FILE:core_tests>.
function(retrylab_catch_tests)
    cmake_parse_arguments(arg "" "NAME;EXECUTABLE;PREFIX;WORKING_DIRECTORY;BATCH" "EMULATOR;LABELS" ${ARGN})
    if(NOT arg_BATCH)
        set(arg_BATCH 1)
    endif()
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
set(batch ${arg_BATCH})
include([==[${RETRYLAB_CATCH_TESTS_SCRIPT}]==])
")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${script}")
endfunction()

set(RETRYLAB_CATCH_TESTS_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/CatchTestsAtTestTime.cmake")
