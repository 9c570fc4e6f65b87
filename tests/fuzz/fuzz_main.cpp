// The libFuzzer entry point of one target (C5C3_FUZZ_TARGET names its body).
#include "tests/fuzz/targets/fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return c5c3::fuzz::C5C3_FUZZ_TARGET(data, size);
}
