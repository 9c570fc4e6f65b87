// The fuzz targets' bodies, one function each, so that two programs share
// them: the libFuzzer binaries of tools/fuzz (clang, -fsanitize=fuzzer) and
// fuzz_corpus_test, which replays every committed input (seed corpora and the
// crashes fuzzing found) under the ordinary sanitizer build. A body returns 0;
// it aborts (through check()) when a property of the code under test breaks,
// and must never abort on malformed input alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace c5c3::fuzz {

int json_object(const std::uint8_t* data, std::size_t size);
int watch_decoder(const std::uint8_t* data, std::size_t size);
int kubeconfig(const std::uint8_t* data, std::size_t size);
int selectors(const std::uint8_t* data, std::size_t size);
int cel(const std::uint8_t* data, std::size_t size);
int protobuf(const std::uint8_t* data, std::size_t size);
int http_request(const std::uint8_t* data, std::size_t size);

// A broken property: say which and abort (libFuzzer saves the input).
inline void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz property violated: %s\n", what);
  std::abort();
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace c5c3::fuzz
