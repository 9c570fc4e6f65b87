# Helpers every folder uses: project warnings, and test registration with labels.

# c5c3_project_target(<target>): warnings as errors on project code only.
function(c5c3_project_target target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror)
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR})
endfunction()

# c5c3_add_test(NAME <name> LABEL <unit|integration|e2e> SOURCES <files...>
#               LIBS <libs...> [TIMEOUT <s>] [ENV <k=v...>])
# A Boost.Test executable registered with CTest under the given label.
function(c5c3_add_test)
  cmake_parse_arguments(T "" "NAME;LABEL;TIMEOUT" "SOURCES;LIBS;ENV" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  add_executable(${T_NAME} ${T_SOURCES})
  c5c3_project_target(${T_NAME})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} c5c3_test_main)
  if(C5C3_TEST_PCH)
    target_precompile_headers(${T_NAME} REUSE_FROM c5c3_test_pch)
  endif()
  add_test(NAME ${T_NAME} COMMAND ${T_NAME} --log_level=message)
  set_tests_properties(${T_NAME} PROPERTIES LABELS ${T_LABEL} TIMEOUT ${T_TIMEOUT})
  if(T_ENV)
    set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "${T_ENV}")
  endif()
endfunction()

# c5c3_add_parts(): add_subdirectory() every immediate subfolder of the
# current source folder that has a CMakeLists.txt, in name order. sim/,
# actors/, tests/ and bench/ are made of such independent parts.
function(c5c3_add_parts)
  file(GLOB _parts LIST_DIRECTORIES true RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} *)
  list(SORT _parts)
  foreach(_part IN LISTS _parts)
    if(IS_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/${_part}
       AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${_part}/CMakeLists.txt)
      add_subdirectory(${_part})
    endif()
  endforeach()
endfunction()

# c5c3_embed_text(<target> NAME <ns::fn> FILES <paths...>): compiles into
# <target> a generated source defining `std::span<const k8s::embedded_text>
# ns::fn()` with each file's name and text (k8s/embedded_text.hpp), rebuilt
# when a file changes: manifests the binary carries (the CRD bootstrap's CRDs).
function(c5c3_embed_text target)
  cmake_parse_arguments(E "" "NAME" "FILES" ${ARGN})
  string(REPLACE "::" "_" _stem "${E_NAME}")
  set(_out ${CMAKE_CURRENT_BINARY_DIR}/${_stem}_embedded.cpp)
  list(JOIN E_FILES "|" _inputs)
  add_custom_command(OUTPUT ${_out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${_out} -DNAME=${E_NAME} "-DINPUTS=${_inputs}"
            -P ${PROJECT_SOURCE_DIR}/cmake/EmbedText.cmake
    DEPENDS ${E_FILES} ${PROJECT_SOURCE_DIR}/cmake/EmbedText.cmake
    COMMENT "Embedding ${E_NAME}" VERBATIM)
  target_sources(${target} PRIVATE ${_out})
endfunction()
