# Debian's libcaf-dev ships no CMake config and no .pc file: locate headers and
# libraries by hand and expose CAF::core, CAF::io and CAF::openssl.
find_path(CAF_INCLUDE_DIR caf/config.hpp)
set(_caf_components core io openssl)
foreach(_c IN LISTS _caf_components)
  find_library(CAF_${_c}_LIBRARY NAMES caf_${_c})
endforeach()

if(CAF_INCLUDE_DIR AND EXISTS "${CAF_INCLUDE_DIR}/caf/config.hpp")
  file(STRINGS "${CAF_INCLUDE_DIR}/caf/config.hpp" _caf_ver REGEX "^#define CAF_VERSION [0-9]+")
  string(REGEX REPLACE "^#define CAF_VERSION ([0-9]+).*" "\\1" _caf_num "${_caf_ver}")
  math(EXPR _maj "${_caf_num} / 10000")
  math(EXPR _min "(${_caf_num} / 100) % 100")
  math(EXPR _pat "${_caf_num} % 100")
  set(CAF_VERSION "${_maj}.${_min}.${_pat}")
endif()

set(_caf_required CAF_INCLUDE_DIR)
foreach(_c IN LISTS CAF_FIND_COMPONENTS)
  list(APPEND _caf_required CAF_${_c}_LIBRARY)
  if(CAF_${_c}_LIBRARY)
    set(CAF_${_c}_FOUND TRUE)
  endif()
endforeach()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CAF REQUIRED_VARS ${_caf_required}
  VERSION_VAR CAF_VERSION HANDLE_COMPONENTS)

foreach(_c IN LISTS _caf_components)
  if(CAF_${_c}_LIBRARY AND NOT TARGET CAF::${_c})
    add_library(CAF::${_c} SHARED IMPORTED)
    set_target_properties(CAF::${_c} PROPERTIES
      IMPORTED_LOCATION "${CAF_${_c}_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${CAF_INCLUDE_DIR}")
  endif()
endforeach()
if(TARGET CAF::io)
  set_property(TARGET CAF::io APPEND PROPERTY INTERFACE_LINK_LIBRARIES CAF::core)
endif()
if(TARGET CAF::openssl)
  set_property(TARGET CAF::openssl APPEND PROPERTY INTERFACE_LINK_LIBRARIES CAF::io)
endif()
