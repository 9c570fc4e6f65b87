// What the ControlPlane actors add to protocol/control_plane.hpp (local
// messages, kept here so protocol/ stays untouched):
//
//   order host -> directory / ControlPlane actor : (cp_host_atom, caf::actor host)
//                 registers a host for control_plane_changed; answered ok_atom
//   anyone     -> directory : (cp_lookup_atom, control_plane_ref) -> caf::actor
//                 the ControlPlane actor, spawned on first use
//   tests      -> ControlPlane actor : probe_atom -> control_plane_probe
//   tests      -> directory : probe_atom -> control_plane_directory_probe
//   order host -> directory : (cp_forget_atom, order_key) the order left the
//                 host (protocol/control_plane.hpp)
//   directory  -> ControlPlane actor : (cp_forget_atom, order_key) an order
//                 left it; (cp_failed_atom, caf::error) the ControlPlane
//                 subscription was refused; retire_atom: no order refers to it
//
// The directory also forwards admission_request and endpoints_request to the
// actor of the ControlPlane they name, so orders need only the directory.
#pragma once

#include "protocol/control_plane.hpp"

#include <caf/allowed_unsafe_message_type.hpp>
#include <caf/atom.hpp>

#include <vector>

namespace c5c3::c5c3::controlplane {

using protocol::cp_forget_atom;
using protocol::cp_host_atom;
using cp_lookup_atom = caf::atom_constant<caf::atom("cp_lookup")>;
using cp_failed_atom = caf::atom_constant<caf::atom("cp_failed")>;

struct control_plane_probe {
  bool synced = false;   // the ControlPlane informer's initial list is in
  bool present = false;  // the ControlPlane exists
  bool gone = false;     // it existed and was deleted
  std::vector<protocol::order_key> orders;  // orders that asked for admission
  std::size_t hosts = 0;
  std::size_t fan_outs = 0;  // control_plane_changed rounds sent
};

struct control_plane_directory_probe {
  std::vector<protocol::control_plane_ref> actors;  // ControlPlanes with a live actor
  std::size_t orders = 0;       // orders (per host, or per order actor without one) that asked for admission
  std::size_t subscribed = 0;   // 1 once the one ControlPlane subscription is made
  std::size_t retired = 0;      // actors retired since the start
};

}  // namespace c5c3::c5c3::controlplane

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::c5c3::controlplane::control_plane_probe)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::c5c3::controlplane::control_plane_directory_probe)
