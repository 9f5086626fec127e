# The unit tests and the fuzz targets' corpus replays build on demand, as the target
# unit_tests, and never with `all`. So `make build` compiles the product, the fakes and the
# benchmarks; `make check` adds the tests; and `make test` compiles them once, in the
# sanitizer build, where they also run.
#
# gather_unit_tests(DIRECTORY) takes every executable of DIRECTORY and the folders below it
# that links GoogleTest or replays a corpus.
function(gather_unit_tests directory)
  if(NOT TARGET unit_tests)
    add_custom_target(unit_tests)
  endif()
  get_property(targets DIRECTORY ${directory} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(NOT type STREQUAL "EXECUTABLE")
      continue()
    endif()
    get_target_property(libraries ${target} LINK_LIBRARIES)
    if(target MATCHES "_replay$" OR "${libraries}" MATCHES "GTest::")
      set_target_properties(${target} PROPERTIES EXCLUDE_FROM_ALL TRUE)
      add_dependencies(unit_tests ${target})
    endif()
  endforeach()
  get_property(folders DIRECTORY ${directory} PROPERTY SUBDIRECTORIES)
  foreach(folder IN LISTS folders)
    gather_unit_tests(${folder})
  endforeach()
endfunction()
