# Warning flags applied to every sortie target through sortie_apply_warnings(); it also keeps the
# target's files named in cmake/unity_alone.txt out of the unity batches (cmake/Unity.cmake).
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
    if(SORTIE_UNITY_BUILD)
      # In a unity batch gcc 12 inlines across the batch's files, and its flow-based
      # -Wmaybe-uninitialized and -Wnull-dereference then report std::variant, std::shared_ptr
      # and std::vector internals (GCC bugs 105562, 107138) that no file-by-file build reports.
      # clang keeps -Wnull-dereference in the asan tree; `-DSORTIE_UNITY_BUILD=OFF` keeps both.
      target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized -Wno-null-dereference)
    endif()
  endif()
  if(SORTIE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  sortie_unity_alone(${target})
endfunction()
