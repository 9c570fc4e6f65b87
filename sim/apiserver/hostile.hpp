// Hostile answers (fault rules with `body`): the real answer of a request,
// spoiled on its way out, so that clients can be shown to survive what a
// broken proxy, a buggy server or a hostile one sends. Plain answers are
// spoiled whole; on a watch stream each chunk of event lines is.
//
//   truncated     cut at bodyBytes (default: half), Content-Length honest
//   huge          a padding member of bodyBytes (default 16 MiB) added, still valid JSON
//   wrongKind     kind/apiVersion (and the items') say ConfigMap / v1
//   missingField  bodyField (dotted, default "metadata") removed; in events, of the object
//   nonUtf8       invalid UTF-8 appended to every string value
//   garbage       not JSON at all (an HTML error page), the status kept
#pragma once

#include "k8s/server/http_server.hpp"
#include "sim/apiserver/apiserver.hpp"

#include <string>
#include <string_view>

namespace c5c3::sim {

// Whether `name` is one of the kinds above.
bool known_hostile_body(std::string_view name);

// The spoiled body of a plain answer, or of one chunk of watch event lines.
std::string spoil_body(const fault_rule& f, std::string body);
std::string spoil_stream_chunk(const fault_rule& f, std::string chunk);

// Passes everything to `inner`, spoiled as `f` says. A truncated watch ends
// after its first (cut) chunk.
class hostile_responder final : public k8s::http_responder {
 public:
  hostile_responder(k8s::http_responder& inner, fault_rule f) : inner_(inner), f_(std::move(f)) {}
  void send(k8s::http_response res) override;
  bool start_stream(int status, const k8s::http_headers& headers) override;
  bool write(std::string_view chunk) override;
  void end_stream() override { inner_.end_stream(); }
  bool peer_alive() override { return inner_.peer_alive(); }
  void reset_connection() override { inner_.reset_connection(); }
  bool stopping() const override { return inner_.stopping(); }

 private:
  k8s::http_responder& inner_;
  fault_rule f_;
};

}  // namespace c5c3::sim
