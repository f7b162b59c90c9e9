# The library areas, in layer order (docs/architecture.md). libs/<area>/ with a CMakeLists.txt becomes
# the static library sortie::<area>; tests/<area>/ its GoogleTest binary. This is the one list:
# libs/, tests/, apps/, bench/ and fuzz/ all read it.
# formats (the format table) sits right above env, the highest area whose files it lists.
set(SORTIE_AREAS core iron3d fomap assets nav world env formats move mission squad net render game)

# sortie_link_used_areas(<target> <source>...)
# Links <target> to the sortie::<area> libraries its sources include (`#include "sortie/<area>/..."`),
# and to nothing else, so a heavy dependency of one area (ENet, SDL2, OSMesa) reaches only the
# targets that use it. Editing one of the sources re-runs CMake, so a new include is picked up.
function(sortie_link_used_areas target)
  set(used "")
  foreach(src ${ARGN})
    file(STRINGS ${src} lines REGEX "^[ \t]*#[ \t]*include[ \t]+\"sortie/[a-z0-9_]+/")
    foreach(line ${lines})
      string(REGEX REPLACE ".*\"sortie/([a-z0-9_]+)/.*" "\\1" area "${line}")
      if(TARGET sortie_${area})
        list(APPEND used sortie::${area})
      endif()
    endforeach()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${src})
  endforeach()
  list(REMOVE_DUPLICATES used)
  target_link_libraries(${target} PRIVATE ${used})
endfunction()

# sortie_add_library(<area> [PUBLIC_DEPS ...] [PRIVATE_DEPS ...])
# One static library per libs/<area> folder: sources are libs/<area>/src/*.cpp,
# public headers are libs/<area>/include/sortie/<area>/*.hpp.
function(sortie_add_library area)
  cmake_parse_arguments(ARG "" "" "PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cpp)
  set(target sortie_${area})
  add_library(${target} STATIC ${srcs})
  add_library(sortie::${area} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${area} POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${target} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  sortie_apply_warnings(${target})
  install(TARGETS ${target} EXPORT sortieTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endfunction()

# The real FOnline map corpus used by tests and benchmarks (not part of the repository).
if(NOT DEFINED SORTIE_FOMAP_CORPUS)
  set(_corpus "")
  if(DEFINED ENV{SORTIE_FOMAP_CORPUS})
    set(_corpus "$ENV{SORTIE_FOMAP_CORPUS}")
  else()
    foreach(_candidate "${PROJECT_SOURCE_DIR}/../shared/corpus/fomap" "${PROJECT_SOURCE_DIR}/../../shared/corpus/fomap")
      if(EXISTS "${_candidate}/new")
        get_filename_component(_corpus "${_candidate}" REALPATH)
        break()
      endif()
    endforeach()
  endif()
  set(SORTIE_FOMAP_CORPUS "${_corpus}" CACHE PATH "FOnline map corpus (new/, old/, protos/); corpus tests skip when empty")
endif()
if(SORTIE_FOMAP_CORPUS)
  message(STATUS "sortie: FOnline map corpus at ${SORTIE_FOMAP_CORPUS}")
else()
  message(STATUS "sortie: no FOnline map corpus found (set SORTIE_FOMAP_CORPUS); corpus tests will skip")
endif()

# sortie_add_test_suite(<area> LIBS ...): every tests/<area>/*.cpp in one GoogleTest binary.
function(sortie_add_test_suite area)
  cmake_parse_arguments(ARG "" "" "LIBS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  set(target test_${area})
  add_executable(${target} ${srcs})
  target_link_libraries(${target} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main GTest::gmock)
  target_compile_definitions(${target} PRIVATE
    SORTIE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    SORTIE_TEST_DATA_DIR="${CMAKE_CURRENT_SOURCE_DIR}"
    SORTIE_FOMAP_CORPUS="${SORTIE_FOMAP_CORPUS}")
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/tests/support)
  sortie_apply_warnings(${target})
  gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS ${area})
endfunction()
