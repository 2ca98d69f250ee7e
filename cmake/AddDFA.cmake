# Thin project wrappers around the MLIR CMake helpers (CIRCT's AddCIRCT idiom).
#
# All dfa libraries link MLIR and LLVM as the shared libMLIR.so / libLLVM.so
# that Debian ships: links take seconds instead of minutes, and every tool
# shares one copy of the dialect registrations.

# add_dfa_library(name sources... [LINK_LIBS libs...] [DEPENDS targets...])
function(add_dfa_library name)
  cmake_parse_arguments(ARG "EXCEPTIONS" "" "LINK_LIBS;DEPENDS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS} MLIR LLVM)
  add_dependencies(${name} dfa-headers ${ARG_DEPENDS})
  if(NOT ARG_EXCEPTIONS)
    # Debian's LLVM is built without exceptions; match it.
    target_compile_options(${name} PRIVATE -fno-exceptions)
  endif()
endfunction()

# add_dfa_tool(name sources... [LINK_LIBS libs...])
# Tool mains are compiled with exceptions: CLI11 reports parse errors by
# throwing. Nothing throws across the library boundary.
function(add_dfa_tool name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
  target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBS} MLIR LLVM)
  add_dependencies(${name} dfa-headers)
  # Installed, a tool still finds libMLIR.so, which Debian keeps outside
  # the default search path (libmlir-19: /usr/lib/llvm-19/lib).
  set_target_properties(${name} PROPERTIES INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
  install(TARGETS ${name} RUNTIME DESTINATION bin)
endfunction()
