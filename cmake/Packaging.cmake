include(CMakePackageConfigHelpers)
install(EXPORT sortieTargets NAMESPACE sortie:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sortie)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/sortieConfig.cmake.in
  ${PROJECT_BINARY_DIR}/sortieConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sortie)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/sortieConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/sortieConfig.cmake ${PROJECT_BINARY_DIR}/sortieConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sortie)

set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "sortie")
set(CPACK_PACKAGE_CONTACT "sortie developers <sortie@localhost>")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "sortie developers")
set(CPACK_DEBIAN_PACKAGE_SECTION "games")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
include(CPack)
