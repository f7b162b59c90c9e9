# Warning flags applied to every sortie target through sortie_apply_warnings().
function(sortie_apply_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                           -Wold-style-cast -Wcast-align -Wunused -Woverloaded-virtual
                                           -Wnull-dereference -Wdouble-promotion -Wformat=2
                                           -Wimplicit-fallthrough)
  if(SORTIE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
