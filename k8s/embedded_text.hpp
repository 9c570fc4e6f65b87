// A text file carried in the binary (cmake's c5c3_embed_text): its file name
// and its whole text, e.g. a CRD manifest of deploy/crds.
#pragma once

#include <span>
#include <string_view>

namespace c5c3::k8s {

struct embedded_text {
  std::string_view file;
  std::string_view text;
};

}  // namespace c5c3::k8s
