// /openapi/v2 as protobuf (gnostic openapi_v2.Document), the only form
// kubectl 1.32 asks for (Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf).
// kubectl reads it only when a kind is missing from /openapi/v3 (to learn
// whether the server validates fields, then to validate client-side); a kind
// missing from the document is skipped, as kubectl does for kinds it cannot
// find. The document carries swagger and info only: kinds the server serves
// are in /openapi/v3, where kubectl looks first.
#include "sim/openapi/openapi.hpp"

namespace c5c3::sim::openapi {

namespace {

void varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

// A length-delimited field (wire type 2).
void bytes_field(std::string& out, std::uint32_t number, std::string_view value) {
  varint(out, (std::uint64_t{number} << 3) | 2);
  varint(out, value.size());
  out.append(value);
}

}  // namespace

std::string openapi_v2_protobuf(const k8s::json_value& v2) {
  std::string info;
  bytes_field(info, 1, k8s::get_string(v2, {"info", "title"}));    // Info.title
  bytes_field(info, 2, k8s::get_string(v2, {"info", "version"}));  // Info.version
  std::string doc;
  bytes_field(doc, 1, k8s::get_string(v2, {"swagger"}));  // Document.swagger
  bytes_field(doc, 2, info);                              // Document.info
  return doc;
}

}  // namespace c5c3::sim::openapi
