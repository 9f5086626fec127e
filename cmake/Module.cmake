# media_capabilities_module(PATH SOURCES file... [MODULES module...] [HEADER_MODULES module...]
#                           [LIBRARIES target...])
#
# A module is one folder of src/, named by its path under src/ (`worker/evidence`), built as
# one static library, mc_ followed by the path with `_` for `/` (mc_worker_evidence). The
# top-level folders are the products (src/README.md); `cli` is a module of its own.
#
# MODULES names the modules its files include, each of which must already be defined: the
# root CMakeLists.txt adds the modules from the bottom layer up, so a dependency that runs back
# up the layers is a module not yet defined, and configuring fails. Every `#include` of a
# module in the module's files is checked against MODULES too, so the picture in
# docs/architecture.md and the build's cannot drift apart. HEADER_MODULES are modules of which
# only plain headers are used and nothing is linked: the binary fills in the agent's command,
# but the agent itself, with gRPC and the API client, stays in its shared object.
function(media_capabilities_module path)
  cmake_parse_arguments(MODULE "" "" "SOURCES;MODULES;HEADER_MODULES;LIBRARIES" ${ARGN})
  string(REPLACE "/" "_" target mc_${path})
  add_library(${target} STATIC ${MODULE_SOURCES})
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  foreach(dependency IN LISTS MODULE_MODULES MODULE_HEADER_MODULES)
    # A build of the binary alone (MEDIA_CAP_PROBE_ONLY) leaves out the agent, whose headers
    # the command line still reads.
    if(MEDIA_CAP_PROBE_ONLY AND dependency IN_LIST MODULE_HEADER_MODULES)
      continue()
    endif()
    string(REPLACE "/" "_" dependency_target mc_${dependency})
    if(NOT TARGET ${dependency_target})
      message(FATAL_ERROR "module ${path} depends on module ${dependency}, which is not below "
                          "it: modules are added from the bottom layer up (docs/architecture.md)")
    endif()
  endforeach()
  foreach(dependency IN LISTS MODULE_MODULES)
    string(REPLACE "/" "_" dependency_target mc_${dependency})
    target_link_libraries(${target} PUBLIC ${dependency_target})
  endforeach()
  target_link_libraries(${target} PUBLIC ${MODULE_LIBRARIES})

  file(GLOB_RECURSE module_files CONFIGURE_DEPENDS
       ${CMAKE_CURRENT_SOURCE_DIR}/*.h ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  # A build of the binary alone compiles only some files of a module (src/cli/CMakeLists.txt);
  # the files it leaves out may include modules that it does not build, so only the files of
  # its sources, and their headers, are checked there. The full build checks every file.
  if(MEDIA_CAP_PROBE_ONLY)
    set(source_stems "")
    foreach(source IN LISTS MODULE_SOURCES)
      get_filename_component(stem ${source} NAME_WE)
      list(APPEND source_stems ${stem})
    endforeach()
    string(REPLACE ";" "|" source_stems "${source_stems}")
    set(kept "")
    foreach(file IN LISTS module_files)
      get_filename_component(stem ${file} NAME_WE)
      if(stem MATCHES "^(${source_stems})$")
        list(APPEND kept ${file})
      endif()
    endforeach()
    set(module_files ${kept})
  endif()
  foreach(file IN LISTS module_files)
    file(STRINGS ${file} includes REGEX "^#include \"[a-z_]+/")
    foreach(include IN LISTS includes)
      # A module is a folder of src/ with a CMakeLists.txt: `product/module`, or `cli`.
      # Generated headers (the kubelet's gRPC APIs under proto/) are not modules.
      string(REGEX REPLACE "^#include \"([a-z_]+)/.*" "\\1" included "${include}")
      if(include MATCHES "^#include \"[a-z_]+/[a-z_]+/")
        string(REGEX REPLACE "^#include \"([a-z_]+/[a-z_]+)/.*" "\\1" two_levels "${include}")
        if(EXISTS ${PROJECT_SOURCE_DIR}/src/${two_levels}/CMakeLists.txt)
          set(included ${two_levels})
        endif()
      endif()
      if(NOT EXISTS ${PROJECT_SOURCE_DIR}/src/${included}/CMakeLists.txt)
        continue()
      endif()
      if(NOT included STREQUAL path AND NOT included IN_LIST MODULE_MODULES
         AND NOT included IN_LIST MODULE_HEADER_MODULES)
        file(RELATIVE_PATH where ${PROJECT_SOURCE_DIR} ${file})
        message(FATAL_ERROR "${where} includes module ${included}, which module ${path} "
                            "does not name in MODULES (src/${path}/CMakeLists.txt)")
      endif()
    endforeach()
  endforeach()
endfunction()
