// Request bodies in Kubernetes' protobuf encoding
// (Content-Type: application/vnd.kubernetes.protobuf), as kubectl 1.32's
// typed clients send them for built-in kinds (`kubectl create configmap`,
// `create namespace`, `create secret`, `create serviceaccount`).
//
// The envelope is k8s.io/apimachinery runtime.Unknown after the 4-byte magic
// "k8s\0": typeMeta (1: apiVersion, kind), raw (2), contentEncoding (3),
// contentType (4). `raw` is the kind's generated.proto message; this decoder
// knows ConfigMap, Namespace, Secret, ServiceAccount, Service, the RBAC kinds and TokenRequest (with
// the ObjectMeta fields a client sets), and the DeleteOptions a typed client's
// DELETE carries (helm uninstall), and turns them into the JSON the API would take.
#pragma once

#include "k8s/json.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace c5c3::sim {

struct protobuf_decode_result {
  std::optional<k8s::json_document> object;  // set when decoded
  bool known_kind = false;                    // false: a kind this decoder does not know
  std::string error;                          // why decoding failed
};

// Decodes a protobuf-encoded object; `error` set on malformed input,
// `known_kind` false for a well-formed envelope of a kind it does not know.
protobuf_decode_result decode_protobuf_object(std::string_view body);

}  // namespace c5c3::sim
