// The protobuf request decoder of the emulator (sim/apiserver/protobuf_body):
// whatever it decodes is a JSON object that serializes and parses again.
#include "k8s/json.hpp"
#include "sim/apiserver/protobuf_body.hpp"
#include "tests/fuzz/targets/fuzz_targets.hpp"

namespace c5c3::fuzz {

int protobuf(const std::uint8_t* data, std::size_t size) {
  auto r = sim::decode_protobuf_object(as_text(data, size));
  if (r.object) {
    check(r.object->IsObject(), "a decoded body is a JSON object");
    check(r.error.empty(), "a decoded body carries no error");
    check(k8s::parse_json(k8s::to_json(*r.object)).has_value(), "a decoded body serializes to JSON");
  }
  return 0;
}

}  // namespace c5c3::fuzz
