// YAML <-> JSON as Kubernetes reads manifests and kubeconfig files
// (sigs.k8s.io/yaml semantics: YAML 1.1 scalars, so unquoted yes/no/on/off are
// booleans; quoted scalars are always strings).
#pragma once

#include "k8s/json.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::k8s {

// One YAML document as JSON; nullopt (and `error`) on a syntax error.
std::optional<json_document> yaml_to_json(std::string_view text, std::string* error = nullptr);

// Every document of a `---` separated stream; empty documents are skipped.
std::optional<std::vector<json_document>> yaml_documents_to_json(std::string_view text,
                                                                 std::string* error = nullptr);

// Reads a file holding one or more YAML (or JSON) documents.
std::optional<std::vector<json_document>> read_yaml_file(const std::string& path,
                                                         std::string* error = nullptr);

// Block-style YAML of a JSON value; strings that would read back as another
// type are quoted.
std::string json_to_yaml(const json_value& v);

}  // namespace c5c3::k8s
