# HBSP (issue 4): the machine model and closed forms (bounds/), superstep replay (engine/), the
# `hetstruct hbsp` command (cli/). Included at the end of the top-level CMakeLists.txt with
#   include(cli/hbsp.cmake OPTIONAL)
# after every target exists; it only adds sources to them.

target_sources(hetstruct_bounds PRIVATE ${CMAKE_SOURCE_DIR}/bounds/hbsp.cpp)

# The replay costs supersteps with the model of bounds/hbsp.h: the engine now also depends on
# bounds (bounds depends only on distributions, so there is no cycle).
target_sources(hetstruct_engine PRIVATE ${CMAKE_SOURCE_DIR}/engine/hbsp_replay.cpp)
target_link_libraries(hetstruct_engine PUBLIC hetstruct_bounds)

# The paper's cluster, embedded so that `hetstruct hbsp predict` runs from any folder.
set(HBSP_CLUSTER_TXT ${CMAKE_SOURCE_DIR}/bounds/data/hbsp-cluster-2001.txt)
set(HBSP_CLUSTER_CPP ${CMAKE_BINARY_DIR}/cli/hbsp_cluster_data.cpp)
add_custom_command(
  OUTPUT ${HBSP_CLUSTER_CPP}
  COMMAND ${CMAKE_COMMAND} -DIN=${HBSP_CLUSTER_TXT} -DOUT=${HBSP_CLUSTER_CPP} -DNAME=hbsp_cluster_machine
          -P ${CMAKE_SOURCE_DIR}/cli/embed.cmake
  DEPENDS ${HBSP_CLUSTER_TXT} ${CMAKE_SOURCE_DIR}/cli/embed.cmake
  COMMENT "Embedding the HBSP^1 cluster")
# The custom command lives in this (top-level) directory and hetstruct_app in cli/: a custom
# target carries the rule, and the source is marked generated where hetstruct_app is defined.
add_custom_target(hetstruct_hbsp_data DEPENDS ${HBSP_CLUSTER_CPP})
set_source_files_properties(${HBSP_CLUSTER_CPP} TARGET_DIRECTORY hetstruct_app PROPERTIES GENERATED TRUE)
target_sources(hetstruct_app PRIVATE ${CMAKE_SOURCE_DIR}/cli/hbsp_command.cpp ${HBSP_CLUSTER_CPP})
add_dependencies(hetstruct_app hetstruct_hbsp_data)
