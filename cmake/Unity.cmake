# Unity builds: most of the build time goes into the same headers (nlohmann::json, GoogleTest,
# the standard library) parsed and optimised once per file. With SORTIE_UNITY_BUILD (default ON)
# CMake compiles each target's sources in batches of SORTIE_UNITY_BATCH files, one compiler run a
# batch. Files listed in cmake/unity_alone.txt keep their own compiler run: they define file-local
# helpers (anonymous namespaces) whose names collide with a neighbour's in the same batch.
option(SORTIE_UNITY_BUILD "Compile each target's sources in batches (faster cold builds)" ON)
set(SORTIE_UNITY_BATCH 8 CACHE STRING "Source files per unity batch")
if(SORTIE_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE ${SORTIE_UNITY_BATCH})
endif()

file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/unity_alone.txt SORTIE_UNITY_ALONE REGEX "^[^#]")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/unity_alone.txt)

# sortie_unity_alone(<target>): the target's sources named in cmake/unity_alone.txt compile alone.
function(sortie_unity_alone target)
  get_target_property(srcs ${target} SOURCES)
  foreach(src ${srcs})
    get_filename_component(abs ${src} ABSOLUTE)  # relative names are relative to this directory
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${abs})
    if(rel IN_LIST SORTIE_UNITY_ALONE)
      set_source_files_properties(${src} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
  endforeach()
endfunction()
