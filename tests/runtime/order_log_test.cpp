// Logging once per change (actors/runtime/order_log.hpp): what a repeated
// error, a new one, a recovery and a refused write write, at which level,
// with which keys; and that -v and --log-level filter them.
#include "actors/runtime/order_log.hpp"
#include "tests/captured_log.hpp"

#include <boost/test/unit_test.hpp>

#include <regex>
#include <string>
#include <vector>

using namespace c5c3;
namespace klog = c5c3::k8s::log;

namespace {

struct captured : c5c3::testing::captured_log {
  klog::logger logger(klog::level min = klog::level::info, int v = 0) {
    return klog::logger({min, v, sink(), {}}).named("controller").with({{"controller", "gadget"}});
  }
};

const protocol::order_key key{"east", "team-a", "g1"};
const std::string error_level = R"("level":"error")", warn_level = R"("level":"warn")",
                  info_level = R"("level":"info")", debug_level = R"("level":"debug")";

}  // namespace

BOOST_AUTO_TEST_SUITE(order_log)

BOOST_AUTO_TEST_CASE(change_memory_table) {
  runtime::change_memory m;
  BOOST_TEST(m.changed("a", "x"));   // new topic
  BOOST_TEST(!m.changed("a", "x"));  // same text
  BOOST_TEST(m.changed("a", "y"));   // new text
  BOOST_TEST(m.changed("b", "y"));   // topics are apart
  BOOST_TEST(m.size() == 2u);
  BOOST_TEST(m.forget("a"));
  BOOST_TEST(!m.forget("a"));
  BOOST_TEST(m.changed("a", "y"));  // forgotten: a change again
}

BOOST_AUTO_TEST_CASE(reconcile_ids_are_fresh_uuids) {
  const std::regex uuid("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
  auto a = runtime::new_reconcile_id();
  auto b = runtime::new_reconcile_id();
  BOOST_TEST(std::regex_match(a, uuid), a);
  BOOST_TEST(std::regex_match(b, uuid), b);
  BOOST_TEST(a != b);
}

BOOST_AUTO_TEST_CASE(a_pass_error_is_logged_once_per_change_with_the_keys) {
  captured out;
  runtime::order_log l(out.logger(), key);
  l.begin("11111111-1111-4111-8111-111111111111");
  l.pass_error("cluster east: transport error");
  l.begin();
  l.pass_error("cluster east: transport error");  // the same: not again
  BOOST_TEST(out.count({"Reconciler error"}) == 1);
  BOOST_TEST(out.count({"Reconciler error", error_level, R"("controller":"gadget")", R"("namespace":"team-a")",
                        R"("name":"g1")", R"("cluster":"east")",
                        R"("reconcileID":"11111111-1111-4111-8111-111111111111")",
                        R"("error":"cluster east: transport error")"}) == 1);
  l.pass_error("ControlPlane team-a/cp not found");  // a new text
  BOOST_TEST(out.count({"Reconciler error", error_level}) == 2);
  // Success after a failure: one recovery line; later successes say nothing at -v 0.
  l.pass_ok();
  l.pass_ok();
  BOOST_TEST(out.count({"Reconciler recovered", info_level}) == 1);
  BOOST_TEST(out.lines.size() == 3u);
  // The same failure once more after the recovery is a change again.
  l.pass_error("ControlPlane team-a/cp not found");
  BOOST_TEST(out.count({"Reconciler error", error_level}) == 3);
}

BOOST_AUTO_TEST_CASE(verbosity_raises_the_detail) {
  captured out;
  runtime::order_log l(out.logger(klog::level::info, 4), key);
  l.begin();
  l.pass_error("boom");
  l.begin();
  l.pass_error("boom");
  l.begin();
  l.pass_ok();
  l.begin();
  l.pass_ok();
  BOOST_TEST(out.count({"Reconciler error", error_level}) == 1);
  BOOST_TEST(out.count({"Reconciler error", debug_level, R"("error":"boom")"}) == 1);  // the repeat, at V(2)
  BOOST_TEST(out.count({"Reconciling", debug_level}) == 4);                           // V(4)
  BOOST_TEST(out.count({"Reconciler recovered", info_level}) == 1);
  BOOST_TEST(out.count({"Reconciled", debug_level}) == 1);
}

BOOST_AUTO_TEST_CASE(refused_writes_once_per_object_and_levels_filter) {
  captured out;
  runtime::order_log l(out.logger(), key);
  l.begin();
  auto secret = klog::ref("Secret", "team-a", "g1-credentials");
  auto vhost = klog::ref("Vhost", "cp-ns", "g1-1234abcd-vhost");
  l.write_refused("apply", secret, "403 Forbidden: secrets is forbidden");
  l.write_refused("apply", secret, "403 Forbidden: secrets is forbidden");
  l.write_refused("create", vhost, "403 Forbidden: vhosts is forbidden");
  BOOST_TEST(out.count({"Write refused", warn_level}) == 2);
  BOOST_TEST(out.count({"Write refused", R"("verb":"apply")",
                        R"("object":{"kind":"Secret","namespace":"team-a","name":"g1-credentials"})"}) == 1);
  l.write_accepted("apply", secret);
  l.write_refused("apply", secret, "403 Forbidden: secrets is forbidden");  // refused again after a success
  BOOST_TEST(out.count({"Write refused", warn_level}) == 3);
  l.cluster_unreachable("GET /api: transport error: timeout");
  l.cluster_unreachable("GET /api: transport error: timeout");
  l.cluster_reachable();
  BOOST_TEST(out.count({"Cluster unreachable", warn_level}) == 1);
  BOOST_TEST(out.count({"Cluster reachable again", info_level}) == 1);

  // --log-level error: warnings and info go, errors stay.
  captured quiet;
  runtime::order_log q(quiet.logger(klog::level::error), key);
  q.write_refused("apply", secret, "403");
  q.cluster_unreachable("timeout");
  q.pass_error("boom");
  BOOST_TEST(quiet.lines.size() == 1u);
  BOOST_TEST(quiet.count({"Reconciler error"}) == 1);
}

BOOST_AUTO_TEST_CASE(other_topics_once_per_change) {
  captured out;
  runtime::change_memory m;
  auto lg = out.logger();
  BOOST_TEST(runtime::log_once(m, lg, klog::level::warn, "kubeconfig edge", "Target kubeconfig rejected", "bad CA"));
  BOOST_TEST(!runtime::log_once(m, lg, klog::level::warn, "kubeconfig edge", "Target kubeconfig rejected", "bad CA"));
  BOOST_TEST(runtime::log_recovered(m, lg, "kubeconfig edge", "Target kubeconfig accepted"));
  BOOST_TEST(!runtime::log_recovered(m, lg, "kubeconfig edge", "Target kubeconfig accepted"));
  BOOST_TEST(out.lines.size() == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
