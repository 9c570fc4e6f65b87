// stampOrderPush and orderPushFresh (apis.md 1.1 and 4): the document hash on
// a PushSecret, and whether ESO has pushed that document since it was stamped.
// ESO writes status.syncedResourceVersion only on a successful push, as
// "<generation>-<hash of labels and annotations>", so the stamp (an annotation
// change) moves the value ESO writes next.
#pragma once

#include "k8s/object.hpp"

#include <string>
#include <string_view>

namespace c5c3::c5c3 {

struct push_annotation_keys {
  std::string hash;            // e.g. c5c3.io/rabbitmqvhost-push-hash
  std::string synced_before;   // e.g. c5c3.io/rabbitmqvhost-push-synced-before
};

struct push_stamp {
  std::string hash;
  std::string synced_before;
  bool changed = false;  // the live PushSecret does not carry this hash yet
};

// The annotations the PushSecret carries for `hash`: kept when the live one
// (null: none yet) already carries the hash; otherwise the hash and the live
// status.syncedResourceVersion as it is before the stamp.
push_stamp stamp_order_push(const k8s::object* live, const push_annotation_keys& keys, std::string_view hash);

// Ready=True, annotation[hash] == hash, and status.syncedResourceVersion !=
// annotation[synced-before].
bool order_push_fresh(const k8s::object& live, const push_annotation_keys& keys, std::string_view hash);

// The PushSecret's (or a SecretStore's) status condition Ready is True.
bool external_secrets_ready(const k8s::object& obj);

}  // namespace c5c3::c5c3
