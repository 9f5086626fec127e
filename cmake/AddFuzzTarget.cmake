# Every parser of outside input has a fuzz target. Each is built two ways: with
# MEDIA_CAP_FUZZ under clang as a libFuzzer binary in ${CMAKE_BINARY_DIR}/fuzz (`make fuzz`
# runs each with the directories its .corpus file lists), and always as a replay of its
# committed corpus, which runs as an ordinary test, under the sanitizers too.
#
# add_fuzz_target(NAME SOURCE LIBRARIES <libs...> CORPUS <dirs...>)
# `make fuzz` puts a scratch directory first, where libFuzzer writes what it finds.
#
# The target fuzz_<name> lives beside the tests of the module it fuzzes:
#  - its source is tests/<product>/<module>/fuzz_<name>.cpp;
#  - its corpus is tests/<product>/<module>/corpus/<name>/, one folder per target.
# CORPUS names that folder first; recorded data other tests keep may follow it.
function(add_fuzz_target name source)
  cmake_parse_arguments(FUZZ "" "" "LIBRARIES;CORPUS" ${ARGN})
  if(MEDIA_CAP_FUZZ)
    # `make fuzz` builds this one target, which holds every fuzz target and nothing else.
    if(NOT TARGET fuzz_targets)
      add_custom_target(fuzz_targets)
    endif()
    add_executable(${name} ${source})
    add_dependencies(fuzz_targets ${name})
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    target_link_libraries(${name} PRIVATE ${FUZZ_LIBRARIES})
    set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
    list(JOIN FUZZ_CORPUS " " corpus_text)
    file(WRITE ${CMAKE_BINARY_DIR}/fuzz/${name}.corpus "${corpus_text}\n")
  endif()
  add_executable(${name}_replay ${source} ${PROJECT_SOURCE_DIR}/tests/fuzz/fuzz_replay_main.cpp)
  target_link_libraries(${name}_replay PRIVATE ${FUZZ_LIBRARIES})
  add_test(NAME ${name}_replays_its_corpus COMMAND ${name}_replay ${FUZZ_CORPUS})
endfunction()
