#include "protocol/registry.hpp"

#include "protocol/api_error.hpp"
#include "protocol/cluster_io.hpp"
#include "protocol/clusters.hpp"
#include "protocol/control_plane.hpp"
#include "protocol/order.hpp"
#include "protocol/timer_relay.hpp"
#include "protocol/shard.hpp"
#include "protocol/subscription.hpp"

#include <caf/actor_system_config.hpp>

namespace c5c3::protocol {

void register_types(caf::actor_system_config& cfg) {
  // cluster_io.hpp
  cfg.add_message_type<k8s::gvk>("c5c3::k8s::gvk");
  cfg.add_message_type<resource_ref>("c5c3::protocol::resource_ref");
  cfg.add_message_type<write_options>("c5c3::protocol::write_options");
  cfg.add_message_type<get_request>("c5c3::protocol::get_request");
  cfg.add_message_type<list_request>("c5c3::protocol::list_request");
  cfg.add_message_type<patch_request>("c5c3::protocol::patch_request");
  cfg.add_message_type<delete_request>("c5c3::protocol::delete_request");
  // subscription.hpp
  cfg.add_message_type<subscribe_request>("c5c3::protocol::subscribe_request");
  cfg.add_message_type<subscription_id>("c5c3::protocol::subscription_id");
  cfg.add_message_type<unsubscribe_request>("c5c3::protocol::unsubscribe_request");
  cfg.add_message_type<rescope_request>("c5c3::protocol::rescope_request");
  cfg.add_message_type<informer_synced>("c5c3::protocol::informer_synced");
  cfg.add_message_type<kind_availability>("c5c3::protocol::kind_availability");
  cfg.add_message_type<cluster_engaged>("c5c3::protocol::cluster_engaged");
  cfg.add_message_type<cluster_disengaged>("c5c3::protocol::cluster_disengaged");
  // clusters.hpp
  cfg.add_message_type<watch_request>("c5c3::protocol::watch_request");
  cfg.add_message_type<cluster_health>("c5c3::protocol::cluster_health");
  // control_plane.hpp
  cfg.add_message_type<control_plane_ref>("c5c3::protocol::control_plane_ref");
  cfg.add_message_type<admission_request>("c5c3::protocol::admission_request");
  cfg.add_message_type<namespace_assignment>("c5c3::protocol::namespace_assignment");
  cfg.add_message_type<endpoints_request>("c5c3::protocol::endpoints_request");
  cfg.add_message_type<control_plane_endpoints>("c5c3::protocol::control_plane_endpoints");
  cfg.add_message_type<control_plane_changed>("c5c3::protocol::control_plane_changed");
  // order.hpp
  cfg.add_message_type<order_key>("c5c3::protocol::order_key");
  cfg.add_message_type<wake_order>("c5c3::protocol::wake_order");
  cfg.add_message_type<timer_tick>("c5c3::protocol::timer_tick");
  cfg.add_message_type<timer_relay>("c5c3::protocol::timer_relay");
  cfg.add_message_type<pass_report>("c5c3::protocol::pass_report");
  cfg.add_message_type<order_probe>("c5c3::protocol::order_probe");
  cfg.add_message_type<limiter_probe>("c5c3::protocol::limiter_probe");
  cfg.add_message_type<host_probe>("c5c3::protocol::host_probe");
  cfg.add_message_type<parked_order>("c5c3::protocol::parked_order");
  // shard.hpp
  cfg.add_message_type<shard_view>("c5c3::protocol::shard_view");
  // api_error.hpp
  cfg.add_error_category(api_error_category,
                         [](std::uint8_t code, caf::atom_value, const caf::message& ctx) {
                           return describe(caf::error(code, api_error_category, ctx));
                         });
}

}  // namespace c5c3::protocol
