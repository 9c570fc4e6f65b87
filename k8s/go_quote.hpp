// Go's strconv.Quote (fmt's %q of a string): a double-quoted literal with
// Go's escapes; valid UTF-8 kept, other bytes as \xNN. kube-apiserver's
// messages and the operator's clouds.yaml documents render strings this way.
#pragma once

#include <string>
#include <string_view>

namespace c5c3::k8s {

std::string go_quote(std::string_view s);

}  // namespace c5c3::k8s
