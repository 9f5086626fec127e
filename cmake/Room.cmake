# media_capabilities_room(NAME SOURCES file... [ROOMS room...] [HEADER_ROOMS room...]
#                         [LIBRARIES target...])
#
# A room is one folder of src/ built as one static library, mc_NAME. ROOMS names the rooms
# its files include, each of which must already be defined: the root CMakeLists.txt adds
# the rooms from the bottom layer up, so a dependency that runs back up the layers is a
# room not yet defined, and configuring fails. Every `#include "room/..."` in the room's
# files is checked against ROOMS too, so a reader's picture (docs/architecture.md) and the
# build's cannot drift apart. HEADER_ROOMS are rooms of which only plain headers are used
# and nothing is linked: the binary fills in the agent's command, but the agent itself, with
# gRPC and the API client, stays in its module.
function(media_capabilities_room name)
  cmake_parse_arguments(ROOM "" "" "SOURCES;ROOMS;HEADER_ROOMS;LIBRARIES" ${ARGN})
  add_library(mc_${name} STATIC ${ROOM_SOURCES})
  target_include_directories(mc_${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  foreach(dependency IN LISTS ROOM_ROOMS ROOM_HEADER_ROOMS)
    # A build of the binary alone (MEDIA_CAP_PROBE_ONLY) leaves out the agent, whose headers
    # the command line still reads.
    if(MEDIA_CAP_PROBE_ONLY AND dependency IN_LIST ROOM_HEADER_ROOMS)
      continue()
    endif()
    if(NOT TARGET mc_${dependency})
      message(FATAL_ERROR "room ${name} depends on room ${dependency}, which is not below it: "
                          "rooms are added from the bottom layer up (docs/architecture.md)")
    endif()
  endforeach()
  foreach(dependency IN LISTS ROOM_ROOMS)
    target_link_libraries(mc_${name} PUBLIC mc_${dependency})
  endforeach()
  target_link_libraries(mc_${name} PUBLIC ${ROOM_LIBRARIES})

  file(GLOB_RECURSE room_files CONFIGURE_DEPENDS
       ${CMAKE_CURRENT_SOURCE_DIR}/*.h ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  # A build of the binary alone compiles only some files of a room (src/cli/CMakeLists.txt);
  # the files it leaves out may include rooms that it does not build, so only the files of
  # its sources, and their headers, are checked there. The full build checks every file.
  if(MEDIA_CAP_PROBE_ONLY)
    set(source_stems "")
    foreach(source IN LISTS ROOM_SOURCES)
      get_filename_component(stem ${source} NAME_WE)
      list(APPEND source_stems ${stem})
    endforeach()
    string(REPLACE ";" "|" source_stems "${source_stems}")
    set(kept "")
    foreach(file IN LISTS room_files)
      get_filename_component(stem ${file} NAME_WE)
      if(stem MATCHES "^(${source_stems})$")
        list(APPEND kept ${file})
      endif()
    endforeach()
    set(room_files ${kept})
  endif()
  foreach(file IN LISTS room_files)
    file(STRINGS ${file} includes REGEX "^#include \"[a-z_]+/")
    foreach(include IN LISTS includes)
      string(REGEX REPLACE "^#include \"([a-z_]+)/.*" "\\1" included_room "${include}")
      # Generated headers (the kubelet's gRPC APIs under proto/) are not rooms.
      if(NOT IS_DIRECTORY ${PROJECT_SOURCE_DIR}/src/${included_room})
        continue()
      endif()
      if(NOT included_room STREQUAL name AND NOT included_room IN_LIST ROOM_ROOMS
         AND NOT included_room IN_LIST ROOM_HEADER_ROOMS)
        file(RELATIVE_PATH where ${PROJECT_SOURCE_DIR} ${file})
        message(FATAL_ERROR "${where} includes room ${included_room}, which room ${name} "
                            "does not name in ROOMS (src/${name}/CMakeLists.txt)")
      endif()
    endforeach()
  endforeach()
endfunction()
