#include "actors/c5c3/korc/unlatch.hpp"

#include "actors/c5c3/korc/outcome.hpp"
#include "actors/c5c3/scaffold/crypto.hpp"

#include <fmt/format.h>

#include <cstdint>

namespace c5c3::c5c3::korc {
namespace {

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// Go's io.EOF and io.ErrUnexpectedEOF close a message when the peer dropped
// the connection mid-request (`Post "http://...": EOF`).
bool ends_in_eof(std::string_view m) {
  if (!m.ends_with("EOF")) return false;
  m.remove_suffix(3);
  return m.empty() || m.ends_with(": ") || m.ends_with("unexpected ");
}

const runtime::write_failure* failure_for(const std::vector<runtime::write_failure>& failures,
                                          const k8s::object& obj, std::string_view subresource) {
  for (const auto& f : failures)
    if (f.kind == obj.kind() && f.namespace_ == obj.namespace_() && f.name == obj.name() &&
        f.subresource == subresource)
      return &f;
  return nullptr;
}

// NotFound, Conflict and the answers of an overloaded or restarting API
// server: the next pass retries.
bool retryable(const runtime::write_failure& f) {
  using protocol::api_errc;
  if (!f.code) return false;
  switch (*f.code) {
    case api_errc::not_found:
    case api_errc::conflict:
    case api_errc::too_many_requests:
    case api_errc::server_error: return true;
    default: return false;
  }
}

k8s::object clear_patch(const k8s::object& obj) {
  k8s::object_builder b(obj.api_version(), obj.kind(), obj.namespace_(), obj.name());
  b.set_resource_version(obj.resource_version());
  auto conds = obj.conditions();
  std::erase_if(conds, [](const k8s::condition& c) { return c.type == condition_progressing; });
  k8s::write_conditions(b, conds);
  return std::move(b).freeze();
}

k8s::object stamp_patch(const k8s::object& obj, k8s::time_point now) {
  k8s::object_builder b(obj.api_version(), obj.kind(), obj.namespace_(), obj.name());
  b.set_annotation(annotation_unlatched_at, k8s::format_rfc3339(now));
  return std::move(b).freeze();
}

}  // namespace

std::string classify_message(std::string_view m) {
  if (contains(m, "No suitable endpoint could be found in the service catalog")) return "CatalogEndpointMismatch";
  if (contains(m, "identity:create_application_credential")) return "CredentialDrift";
  if (contains(m, "x509")) return "TLSVerificationFailed";
  if (contains(m, "401") || contains(m, "Unauthorized")) return "AuthenticationFailed";
  if (contains(m, "no such host") || contains(m, "connection refused") || contains(m, "dial tcp") ||
      contains(m, "i/o timeout") || contains(m, "connection reset") || contains(m, "broken pipe") ||
      ends_in_eof(m))
    return "EndpointUnreachable";
  return {};
}

bool transport_latched(const k8s::object& obj) {
  if (terminal_reason(obj) != reason_invalid_configuration) return false;
  return classify_message(obj.find_condition(condition_progressing)->message) == "EndpointUnreachable";
}

duration unlatch_offset(std::string_view uid) {
  auto hex = sha256_hex(uid);
  std::uint32_t first = static_cast<std::uint32_t>(std::stoul(hex.substr(0, 8), nullptr, 16));
  double frac = static_cast<double>(first) / 4294967296.0;
  return std::chrono::duration_cast<duration>(std::chrono::duration<double, std::nano>(
      frac * unlatch_jitter * static_cast<double>(unlatch_backoff.count())));
}

k8s::time_point unlatch_due_at(const k8s::object& obj, k8s::time_point now) {
  auto stamped = obj.annotation(annotation_unlatched_at);
  if (!stamped) return now;
  auto last = k8s::parse_rfc3339(*stamped);
  if (!last || *last > now) return now;
  return *last + std::chrono::duration_cast<k8s::clock::duration>(unlatch_backoff + unlatch_offset(obj.uid()));
}

unlatch_plan plan_unlatch(const k8s::object& obj, const std::vector<runtime::write_failure>& failures,
                          k8s::time_point now) {
  unlatch_plan p;
  if (!obj || !transport_latched(obj)) return p;
  if (const auto* f = failure_for(failures, obj, "status")) {
    if (retryable(*f)) {
      p.step = unlatch_step::deferred;
      p.requeue = korc_requeue_after;
      return p;
    }
    p.step = unlatch_step::failed;
    p.message = fmt::format("clearing the latched transport error on {} {}/{}: {}", obj.kind(), obj.namespace_(),
                            obj.name(), f->message);
    return p;
  }
  auto due = unlatch_due_at(obj, now);
  if (due > now) {
    p.step = unlatch_step::waiting;
    p.requeue = std::chrono::duration_cast<duration>(due - now);
    return p;
  }
  p.step = unlatch_step::clearing;
  auto clear = make_merge_patch(clear_patch(obj));
  clear.subresource = "status";
  clear.report_failure = true;
  auto stamp = make_merge_patch(stamp_patch(obj, now));
  // A stamp that does not land leaves the next clear unpaced; it is not the
  // retry that failed, so it is not reported as such.
  stamp.report_failure = true;
  p.writes = {std::move(clear), std::move(stamp)};
  return p;
}

}  // namespace c5c3::c5c3::korc
