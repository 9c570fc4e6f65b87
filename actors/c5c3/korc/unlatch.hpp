// The K-ORC transport-error unlatch (apis.md 3.2; korc_unlatch.go of the
// reference). K-ORC skips an object whose Progressing condition is False at
// the current generation; a terminal InvalidConfiguration whose message reads
// as a transport failure (K-ORC could not reach Keystone) is handed back to it
// by removing Progressing with a status merge patch that carries the
// resourceVersion, then stamping c5c3.io/korc-transport-unlatched-at. The
// first latch is cleared at once; each further one waits out 30 s plus a
// jitter derived from the object's uid, so the children of one ControlPlane
// are not all handed back in one burst. A clear the API server refuses for
// good reads TransportErrorRetryFailed; one it can retry from is deferred to
// the next pass, the latch and K-ORC's own message staying.
#pragma once

#include "actors/c5c3/scaffold/child_write.hpp"
#include "actors/c5c3/scaffold/pass_result.hpp"
#include "actors/runtime/runner/snapshot.hpp"
#include "k8s/object.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::c5c3::korc {

inline constexpr std::string_view annotation_unlatched_at = "c5c3.io/korc-transport-unlatched-at";
inline constexpr std::string_view reason_transport_error_retry_failed = "TransportErrorRetryFailed";
// korcTransportUnlatchBackoff, and the share of it the uid spreads over.
inline constexpr duration unlatch_backoff = std::chrono::seconds(30);
inline constexpr double unlatch_jitter = 0.5;

// The failure class of a K-ORC message, most specific first (classifyKORCMessage):
// CatalogEndpointMismatch, CredentialDrift, TLSVerificationFailed ("x509"),
// AuthenticationFailed ("401", "Unauthorized"), EndpointUnreachable (no such
// host, connection refused, dial tcp, i/o timeout; and, beyond the reference,
// a connection Keystone dropped mid-request: connection reset, broken pipe, a
// message ending in Go's EOF, which the reference leaves latched until K-ORC's
// resync); "" none.
std::string classify_message(std::string_view message);

// A terminal InvalidConfiguration at the current generation whose message
// classifies as EndpointUnreachable.
bool transport_latched(const k8s::object& obj);

// The uid's place in [0, jitter x backoff).
duration unlatch_offset(std::string_view uid);
// When the latch may be cleared: now without a stamp (or an unreadable one,
// or one in the future); otherwise the stamp plus the backoff plus the offset.
k8s::time_point unlatch_due_at(const k8s::object& obj, k8s::time_point now);

enum class unlatch_step {
  not_latched,  // nothing to clear
  waiting,      // latched, inside the backoff: the caller reports the terminal error
  clearing,     // the writes hand it back to K-ORC
  deferred,     // the clear met an answer the next pass can retry from
  failed,       // the clear was refused: TransportErrorRetryFailed
};

struct unlatch_plan {
  unlatch_step step = unlatch_step::not_latched;
  std::vector<child_write> writes;  // clearing: the status merge patch, then the stamp
  std::string message;              // failed: what failed on which object
  c5c3::requeue requeue;            // waiting: when it is due
};

// `failures`: the pass's reported write failures (the clear and the stamp
// are marked report_failure).
unlatch_plan plan_unlatch(const k8s::object& obj, const std::vector<runtime::write_failure>& failures,
                          k8s::time_point now);

}  // namespace c5c3::c5c3::korc
