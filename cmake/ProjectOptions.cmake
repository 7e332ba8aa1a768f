# retrylab::options — what every target of the project compiles with.
#   -ffp-contract=off: no fused multiply-add, so native and WebAssembly results agree to the
#   last bit (SPEC §1).
add_library(retrylab_options INTERFACE)
add_library(retrylab::options ALIAS retrylab_options)
target_compile_features(retrylab_options INTERFACE cxx_std_17)
target_compile_options(retrylab_options INTERFACE -ffp-contract=off)

# retrylab::warnings — kept apart so third-party code can be compiled without them.
add_library(retrylab_warnings INTERFACE)
add_library(retrylab::warnings ALIAS retrylab_warnings)
target_compile_options(retrylab_warnings INTERFACE -Wall -Wextra -Wpedantic)
option(RETRYLAB_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)
if(RETRYLAB_WARNINGS_AS_ERRORS)
    target_compile_options(retrylab_warnings INTERFACE -Werror)
endif()

# AddressSanitizer and UndefinedBehaviorSanitizer for every target of the project (the
# sanitize preset turns RETRYLAB_SANITIZE on): the one place their flags are written. Every
# target links retrylab::options, through the core if not directly.
option(RETRYLAB_SANITIZE "Build everything with AddressSanitizer and UndefinedBehaviorSanitizer (clang)" OFF)
function(retrylab_enable_sanitizers)
    set(sanitizers -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
    target_compile_options(retrylab_options INTERFACE ${sanitizers})
    target_link_options(retrylab_options INTERFACE ${sanitizers})
endfunction()
if(RETRYLAB_SANITIZE)
    retrylab_enable_sanitizers()
endif()

set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

if(EMSCRIPTEN)
    # Linking at -O1 and above runs node on Emscripten's acorn-optimizer.js, which needs
    # Debian's node-acorn on the module path.
    set(CMAKE_CXX_LINKER_LAUNCHER env NODE_PATH=/usr/share/nodejs CACHE STRING
        "Run em++ links with Debian's node modules visible")
endif()
