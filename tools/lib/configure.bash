# Shell helper for the tools that configure a build directory (tools/build,
# tools/tsan, tools/fuzz). Source it.

# configure SOURCE_DIR BUILD_DIR CMAKE_ARGS...: cmake's configure step, quiet.
# A directory configured before with another C++ compiler than the one
# CMAKE_ARGS name (-DCMAKE_CXX_COMPILER=...) starts afresh: CMake would drop
# its cache by itself, and with it every other option given on the same line
# (a ThreadSanitizer directory would come back without ThreadSanitizer).
configure() {
  local src=$1 dir=$2 a want=
  shift 2
  for a in "$@"; do [[ $a == -DCMAKE_CXX_COMPILER=* ]] && want=${a#-DCMAKE_CXX_COMPILER=}; done
  if [[ -n $want && -f $dir/CMakeCache.txt ]]; then
    local have
    have=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$dir/CMakeCache.txt")
    if [[ $(command -v "$have" 2>/dev/null || echo "$have") != $(command -v "$want" 2>/dev/null || echo "$want") ]]; then
      echo "configure: $dir was configured with $have, now $want: configuring afresh" >&2
      rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
    fi
  fi
  cmake -S "$src" -B "$dir" -G Ninja "$@" >/dev/null
}
