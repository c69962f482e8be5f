# The install rules of the libraries and their headers, and the CMake package hetstruct a C++ user
# finds with find_package(hetstruct): hetstruct::distributions, structures, bounds, kernel, driver,
# estimators, simulate, sweep, wilson, hbsp, fit (the laws' fits), engine_fit (hetstruct fit's groups
# and records), and hetstruct::engine for all of them (docs/install.md).
include(CMakePackageConfigHelpers)

set(hetstruct_package_libraries hetstruct_distributions hetstruct_structures hetstruct_bounds hetstruct_kernel
    hetstruct_driver hetstruct_estimators hetstruct_simulate hetstruct_sweep hetstruct_wilson hetstruct_hbsp
    hetstruct_fit hetstruct_engine_fit hetstruct_engine)
foreach(library IN LISTS hetstruct_package_libraries)
  string(REPLACE "hetstruct_" "" export_name ${library})
  set_target_properties(${library} PROPERTIES EXPORT_NAME ${export_name})
endforeach()

set(HETSTRUCT_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/hetstruct)
install(TARGETS ${hetstruct_package_libraries} EXPORT hetstructTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hetstruct)
# The headers by their path from the source tree, as the sources include them.
install(DIRECTORY distributions structures bounds engine DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hetstruct
        COMPONENT development FILES_MATCHING PATTERN "*.h")
install(EXPORT hetstructTargets NAMESPACE hetstruct:: DESTINATION ${HETSTRUCT_CMAKE_INSTALL_DIR}
        COMPONENT development)
configure_package_config_file(${PROJECT_SOURCE_DIR}/engine/hetstructConfig.cmake.in
  ${PROJECT_BINARY_DIR}/hetstructConfig.cmake INSTALL_DESTINATION ${HETSTRUCT_CMAKE_INSTALL_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hetstructConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/hetstructConfig.cmake ${PROJECT_BINARY_DIR}/hetstructConfigVersion.cmake
        DESTINATION ${HETSTRUCT_CMAKE_INSTALL_DIR} COMPONENT development)
