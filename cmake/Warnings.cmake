# Warning flags applied to every sortie target through sortie_apply_warnings().
function(sortie_apply_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                           -Wold-style-cast -Wcast-align -Wunused -Woverloaded-virtual
                                           -Wnull-dereference -Wdouble-promotion -Wformat=2
                                           -Wimplicit-fallthrough)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    # gcc 12 reports -Wrestrict and -Wstringop-overflow inside libstdc++'s std::string and
    # vector code when inlining at -O2 and above (GCC bugs 105329, 105651): false positives that
    # differ between optimisation and sanitizer flags, so they are not errors here.
    target_compile_options(${target} PRIVATE -Wno-restrict -Wno-stringop-overflow)
  endif()
  if(SORTIE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
