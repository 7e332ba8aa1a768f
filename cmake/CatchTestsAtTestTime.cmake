# Run by ctest (see CatchTests.cmake) with exe, emulator, prefix, labels and workdir set.

function(retrylab_failing_test name message)
    add_test("${name}" "${CMAKE_COMMAND}" -E echo "${message}")
    set_tests_properties("${name}" PROPERTIES WILL_FAIL TRUE LABELS "${labels}")
endfunction()

get_filename_component(exe_name "${exe}" NAME)
if(NOT EXISTS "${exe}")
    retrylab_failing_test("${prefix}${exe_name} is built" "${exe} does not exist: build it first")
    return()
endif()

execute_process(COMMAND ${emulator} "${exe}" --list-test-names-only
                OUTPUT_VARIABLE listing ERROR_VARIABLE listing_errors
                WORKING_DIRECTORY "${workdir}" TIMEOUT 300)
# One name a line. ';' splits a CMake list and an unbalanced '[' or ']' joins list items:
# hold all three aside while the lines are a list.
string(REPLACE ";" "<semicolon>" listing "${listing}")
string(REPLACE "[" "<open>" listing "${listing}")
string(REPLACE "]" "<close>" listing "${listing}")
string(REPLACE "\n" ";" names "${listing}")
set(count 0)
foreach(name IN LISTS names)
    string(REPLACE "<semicolon>" ";" name "${name}")
    string(REPLACE "<open>" "[" name "${name}")
    string(REPLACE "<close>" "]" name "${name}")
    if(name STREQUAL "")
        continue()
    endif()
    # As a Catch2 test spec the name must match itself only: escape what the spec reads.
    string(REGEX REPLACE "([][\\,\"*~])" "\\\\\\1" spec "${name}")
    add_test("${prefix}${name}" ${emulator} "${exe}" "${spec}")
    set_tests_properties("${prefix}${name}" PROPERTIES WORKING_DIRECTORY "${workdir}" LABELS "${labels}")
    math(EXPR count "${count} + 1")
endforeach()
if(count EQUAL 0)
    retrylab_failing_test("${prefix}${exe_name} lists its tests"
        "${exe_name} --list-test-names-only listed nothing: ${listing_errors}")
endif()
