// The simulated K-ORC's pure steps: calls per kind, reads and their answers,
// conditions, the error classes, password changes, deletion, the guards.
#include "sim/world/korc_guard.hpp"
#include "sim/world/korc_step.hpp"

#include "fixtures.hpp"

#include <fmt/format.h>

using namespace c5c3::sim::world;
using namespace c5c3::sim::world::test;
namespace k8s = c5c3::k8s;

namespace {

const std::string admin_clouds =
    "clouds:\n  \"admin\":\n    auth:\n      auth_url: \"http://ks:5000/v3\"\n      username: \"admin\"\n"
    "      password: \"pw\"\n      project_name: \"admin\"\n      user_domain_name: \"Default\"\n"
    "      project_domain_name: \"Default\"\n";

k8s::object korc_obj(std::string_view kind, std::string_view name, std::string_view spec, std::string_view extra = "") {
  return obj(fmt::format(R"({{"apiVersion":"openstack.k-orc.cloud/v1alpha1","kind":"{}",
    "metadata":{{"name":"{}","namespace":"ns","uid":"u-{}","generation":1,"resourceVersion":"5"{}}},
    "spec":{{"managementPolicy":"managed","cloudCredentialsRef":{{"secretName":"cloud","cloudName":"admin"}},{}}}}})",
                         kind, name, name, extra, spec));
}

// An object that K-ORC already made Available with `id`.
k8s::object ready(std::string_view kind, std::string_view name, std::string_view id, std::string_view resource = "{}") {
  return obj(fmt::format(R"({{"apiVersion":"openstack.k-orc.cloud/v1alpha1","kind":"{}",
    "metadata":{{"name":"{}","namespace":"ns","uid":"u-{}","generation":1,"resourceVersion":"3"}},
    "spec":{{"cloudCredentialsRef":{{"secretName":"cloud","cloudName":"admin"}}}},
    "status":{{"id":"{}","resource":{},"conditions":[
      {{"type":"Available","status":"True","reason":"Success","message":"OpenStack resource is available","observedGeneration":1,"lastTransitionTime":"2026-12-01T00:00:00Z"}},
      {{"type":"Progressing","status":"False","reason":"Success","message":"OpenStack resource is up to date","observedGeneration":1,"lastTransitionTime":"2026-12-01T00:00:00Z"}}]}}}})",
                         kind, name, name, id, resource));
}

k8s::object cloud_secret(std::string_view finalizers = "") {
  auto s = secret("ns", "cloud", {{"clouds.yaml", admin_clouds}});
  if (finalizers.empty()) return s;
  auto b = s.edit();
  b.add_finalizer(finalizers);
  return std::move(b).freeze();
}

korc_snapshot snap(k8s::object subject, std::vector<k8s::object> refs = {}) {
  korc_snapshot s;
  s.subject = std::move(subject);
  s.now = t0();
  s.refs[korc_ref_key("Secret", "cloud")] = cloud_secret();
  for (auto& r : refs) s.refs[korc_ref_key(r.kind(), r.name())] = r;
  return s;
}

identity_answer answer(int status, std::string_view body) {
  identity_answer a;
  a.status = status;
  if (!body.empty()) a.body = obj(body);
  return a;
}

identity_answer failure(int status, std::string message) {
  identity_answer a;
  a.status = status;
  a.error = identity_error{status, std::move(message)};
  return a;
}

k8s::condition cond(const k8s::object& o, std::string_view type) {
  auto c = o.find_condition(type);
  BOOST_TEST_REQUIRE(c.has_value());
  return *c;
}

// The status write of a settle.
k8s::object status_write(const korc_settled& s) { return only(s.writes, write_verb::update_status); }

}  // namespace

BOOST_AUTO_TEST_CASE(create_calls_per_kind) {
  struct row {
    std::string kind, spec;
    korc_resolved resolved;
    std::string secret;
    identity_call want;
  };
  const std::vector<row> rows{
      {"Domain", R"("resource":{"description":"d"})", {}, "",
       {"POST", "/v3/domains", R"({"domain":{"name":"x","description":"d","enabled":true}})"}},
      {"Project", R"("resource":{"name":"p","domainRef":"dom","enabled":false,"tags":["a"]})", {{"domainRef", {"D1"}}}, "",
       {"POST", "/v3/projects", R"({"project":{"name":"p","domain_id":"D1","enabled":false,"tags":["a"]}})"}},
      {"Role", R"("resource":{})", {}, "", {"POST", "/v3/roles", R"({"role":{"name":"x"}})"}},
      {"User", R"("resource":{"domainRef":"dom","passwordRef":"pw"})", {{"domainRef", {"D1"}}}, "s3cret",
       {"POST", "/v3/users", R"({"user":{"name":"x","domain_id":"D1","enabled":true,"password":"s3cret"}})"}},
      {"Service", R"("resource":{"type":"image"})", {}, "",
       {"POST", "/v3/services", R"({"service":{"name":"x","type":"image","enabled":true}})"}},
      {"Endpoint", R"("resource":{"interface":"public","url":"https://i","serviceRef":"s","regionRef":"r"})",
       {{"serviceRef", {"S1"}}, {"regionRef", {"RegionOne"}}}, "",
       {"POST", "/v3/endpoints",
        R"({"endpoint":{"interface":"public","url":"https://i","service_id":"S1","region_id":"RegionOne","enabled":true}})"}},
      {"Region", R"("resource":{"name":"RegionTwo"})", {}, "", {"POST", "/v3/regions", R"({"region":{"id":"RegionTwo"}})"}},
      {"Region", R"("resource":{"name":"Sub","parentRegionRef":"top"})", {{"parentRegionRef", {"RegionOne"}}}, "",
       {"POST", "/v3/regions", R"({"region":{"id":"Sub","parent_region_id":"RegionOne"}})"}},
      {"RoleAssignment", R"("resource":{"roleRef":"r","userRef":"u","projectRef":"p"})",
       {{"roleRef", {"R1"}}, {"userRef", {"U1"}}, {"projectRef", {"P1"}}}, "", {"PUT", "/v3/projects/P1/users/U1/roles/R1", ""}},
      {"ApplicationCredential",
       R"("resource":{"userRef":"u","secretRef":"s","roleRefs":["r"],"expiresAt":"2026-12-08T00:00:00Z"})",
       {{"userRef", {"U1"}}, {"roleRefs", {"R1"}}}, "v4lue",
       {"POST", "/v3/users/U1/application_credentials",
        R"({"application_credential":{"name":"x","unrestricted":false,"secret":"v4lue","roles":[{"id":"R1"}],"expires_at":"2026-12-08T00:00:00Z"}})"}},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.kind) {
      auto c = korc_create_call(korc_obj(r.kind, "x", r.spec), r.resolved, r.secret);
      BOOST_TEST(c.method == r.want.method);
      BOOST_TEST(c.path == r.want.path);
      if (r.want.body.empty()) {
        BOOST_TEST(c.body.empty());
      } else {
        BOOST_TEST(k8s::json_equal(obj(c.body).json(), obj(r.want.body).json()), c.body);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(first_pass_adds_the_finalizer_and_guards_the_credentials) {
  auto s = snap(korc_obj("Role", "r", R"("resource":{})"));
  auto plan = reconcile_korc(s);
  BOOST_TEST_REQUIRE(plan.before.size() == 2u);
  BOOST_TEST(plan.before[0].obj.has_finalizer("openstack.k-orc.cloud/role"));
  BOOST_TEST(plan.before[1].obj.kind() == "Secret");
  BOOST_TEST(plan.before[1].obj.has_finalizer("openstack.k-orc.cloud/role"));
  BOOST_TEST_REQUIRE(plan.read.has_value());  // the adoption lookup by name
  BOOST_TEST(plan.read->path == "/v3/roles?name=r");
  BOOST_TEST(plan.cloud->username == "admin");

  // Without the credentials Secret it waits for it, and nothing talks to Keystone.
  s.refs.clear();
  plan = reconcile_korc(s);
  BOOST_TEST(!plan.read.has_value());
  BOOST_TEST(!plan.cloud.has_value());
  auto st = status_write(settle_korc(s, plan, {}));
  BOOST_TEST(cond(st, "Progressing").message == "Waiting for Secret/cloud to be created");
  BOOST_TEST(cond(st, "Progressing").status == "True");
  BOOST_TEST(cond(st, "Available").status == "False");
  BOOST_TEST(cond(st, "Available").reason == "Progressing");
  BOOST_TEST(cond(st, "Available").observed_generation == 1);
}

BOOST_AUTO_TEST_CASE(managed_create_waits_for_references_then_creates_and_records) {
  const auto user = korc_obj("User", "u", R"("resource":{"name":"alice","domainRef":"dom","passwordRef":"pw"})",
                             R"(,"finalizers":["openstack.k-orc.cloud/user"])");
  auto s = snap(user);
  s.refs[korc_ref_key("Secret", "cloud")] = cloud_secret("openstack.k-orc.cloud/user");
  // Domain missing, then not ready.
  auto plan = reconcile_korc(s);
  BOOST_TEST(!plan.read.has_value());  // adoption needs the domain
  BOOST_TEST(plan.calls.empty());
  BOOST_TEST(plan.progress.messages.front() == "Waiting for Domain/dom to be created");
  s.refs[korc_ref_key("Domain", "dom")] = korc_obj("Domain", "dom", R"("resource":{})");
  plan = reconcile_korc(s);
  BOOST_TEST(plan.progress.messages.front() == "Waiting for Domain/dom to be ready");
  // Ready: adoption lookup in the domain, then the create with the password; the domain gets a guard.
  s.refs[korc_ref_key("Domain", "dom")] = ready("Domain", "dom", "D1");
  s.refs[korc_ref_key("Secret", "pw")] = secret("ns", "pw", {{"password", "s3cret"}});
  plan = reconcile_korc(s);
  BOOST_TEST_REQUIRE(plan.read.has_value());
  BOOST_TEST(plan.read->path == "/v3/users?name=alice&domain_id=D1");
  s.observed = answer(200, R"({"users":[]})");
  plan = reconcile_korc(s);
  BOOST_TEST_REQUIRE(plan.calls.size() == 1u);
  BOOST_TEST(plan.calls[0].body.find("s3cret") != std::string::npos);
  BOOST_TEST_REQUIRE(plan.before.size() == 1u);
  BOOST_TEST(plan.before[0].obj.kind() == "Domain");
  BOOST_TEST(plan.before[0].obj.has_finalizer("openstack.k-orc.cloud/user"));
  auto st = status_write(settle_korc(
      s, plan, {std::nullopt, {answer(201, R"({"user":{"id":"U1","name":"alice","domain_id":"D1","enabled":true}})")}}));
  BOOST_TEST(st.get_string({"status", "id"}) == "U1");
  BOOST_TEST(st.get_string({"status", "resource", "appliedPasswordRef"}) == "pw");
  BOOST_TEST(st.get_string({"status", "resource", "domainID"}) == "D1");
  BOOST_TEST(cond(st, "Available").status == "True");
  BOOST_TEST(cond(st, "Progressing").reason == "Success");
  BOOST_TEST(cond(st, "Progressing").message == "OpenStack resource is up to date");
  BOOST_TEST(st.get_string({"status", "lastSyncTime"}) == "2026-12-01T00:00:00Z");
}

BOOST_AUTO_TEST_CASE(create_errors_are_transient_or_terminal) {
  struct row {
    int status;
    std::string message, reason, progressing;
    bool transient;
  };
  const std::string refused = "Post \"http://ks/v3/roles\": dial tcp 127.0.0.1:5000: connect: connection refused";
  const std::vector<row> rows{
      {503, "got 503", "TransientError", "True", true},
      {429, "got 429", "TransientError", "True", true},
      {409, "got 409", "InvalidConfiguration", "False", false},
      {0, refused, "InvalidConfiguration", "False", false},
  };
  auto s = snap(korc_obj("Role", "r", R"("resource":{})", R"(,"finalizers":["openstack.k-orc.cloud/role"])"));
  s.refs[korc_ref_key("Secret", "cloud")] = cloud_secret("openstack.k-orc.cloud/role");
  s.observed = answer(200, R"({"roles":[]})");
  auto plan = reconcile_korc(s);
  BOOST_TEST_REQUIRE(plan.calls.size() == 1u);
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.status) {
      auto settled = settle_korc(s, plan, {std::nullopt, {failure(r.status, r.message)}});
      auto st = status_write(settled);
      auto p = cond(st, "Progressing");
      BOOST_TEST(p.reason == r.reason);
      BOOST_TEST(p.status == r.progressing);
      BOOST_TEST(p.message == (r.transient ? r.message : "invalid configuration creating resource: " + r.message));
      BOOST_TEST(settled.transient == r.transient);
      BOOST_TEST(cond(st, "Available").status == "False");
      BOOST_TEST(cond(st, "Available").message == p.message);
    }
  }
  // Authentication failing is transient whatever the cause.
  auto settled = settle_korc(s, plan, {identity_error{0, refused}, {}});
  BOOST_TEST(cond(status_write(settled), "Progressing").reason == "TransientError");
  BOOST_TEST(settled.transient);
}

BOOST_AUTO_TEST_CASE(imports_by_filter_and_id) {
  const auto probe = korc_obj("Project", "probe", R"("import":{"filter":{"name":"p","domainRef":"dom"}})",
                              R"(,"finalizers":["openstack.k-orc.cloud/project"])");
  auto unmanaged = probe.edit();
  unmanaged.set_string({"spec", "managementPolicy"}, "unmanaged");
  auto s = snap(std::move(unmanaged).freeze(), {ready("Domain", "dom", "D1")});
  s.refs[korc_ref_key("Secret", "cloud")] = cloud_secret("openstack.k-orc.cloud/project");
  auto plan = reconcile_korc(s);
  BOOST_TEST_REQUIRE(plan.read.has_value());
  BOOST_TEST(plan.read->path == "/v3/projects?name=p&domain_id=D1");
  BOOST_TEST(plan.before.empty());  // an import filter does not guard its domain
  struct row {
    std::string answer;
    bool failed;
    std::string available, message;
    bool requeued;
  };
  const std::vector<row> rows{
      {R"({"projects":[]})", false, "False", "Waiting for OpenStack resource to be created externally", true},
      {"", true, "False", "Waiting for OpenStack resource to be created externally", true},  // list errors are swallowed
      {R"({"projects":[{"id":"P1","name":"p","domain_id":"D1"},{"id":"P2","name":"p","domain_id":"D1"}]})", false, "False",
       "found more than one matching OpenStack resource during import", false},
      {R"({"projects":[{"id":"P1","name":"p","domain_id":"D1"},{"id":"P9","name":"p","domain_id":"D9"}]})", false, "True",
       "OpenStack resource is available", false},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.answer) {
      s.observed = r.failed ? failure(0, "Get \"x\": EOF") : answer(200, r.answer);
      auto p = reconcile_korc(s);
      BOOST_TEST(p.calls.empty());  // an import never writes to Keystone
      auto settled = settle_korc(s, p, {});
      auto st = status_write(settled);
      BOOST_TEST(cond(st, "Available").status == r.available);
      BOOST_TEST(cond(st, "Available").message == r.message);
      BOOST_TEST(settled.requeue_after.has_value() == r.requeued);
      BOOST_TEST(korc_waiting_external(st) == r.requeued);
      if (r.available == "True") BOOST_TEST(st.get_string({"status", "id"}) == "P1");
    }
  }
  // By id: a missing one is terminal.
  auto by_id = korc_obj("Role", "r", R"("managementPolicy":"unmanaged","import":{"id":"abc"})",
                        R"(,"finalizers":["openstack.k-orc.cloud/role"])");
  auto t = snap(by_id);
  t.refs[korc_ref_key("Secret", "cloud")] = cloud_secret("openstack.k-orc.cloud/role");
  BOOST_TEST(reconcile_korc(t).read->path == "/v3/roles/abc");
  t.observed = failure(404, "got 404");
  auto st = status_write(settle_korc(t, reconcile_korc(t), {}));
  BOOST_TEST(cond(st, "Progressing").reason == "UnrecoverableError");
  BOOST_TEST(cond(st, "Progressing").message == "referenced resource does not exist in OpenStack");
  BOOST_TEST(korc_terminal_error(st).has_value());
}

BOOST_AUTO_TEST_CASE(an_up_to_date_object_is_left_alone_until_its_progressing_goes) {
  auto done = ready("Role", "r", "R1", R"({"name":"r"})");
  BOOST_TEST(reconcile_korc(snap(done)).skip);
  // A latched terminal error stays ...
  auto latched = done.edit();
  k8s::set_condition(latched, {"Progressing", "False", "InvalidConfiguration", "invalid configuration creating resource: x", "", 1}, t0());
  auto l = std::move(latched).freeze();
  BOOST_TEST(reconcile_korc(snap(l)).skip);
  // ... until the condition is removed (the orders' unlatch) or the generation moves.
  auto unlatched = l.edit();
  k8s::json_value only_available(rapidjson::kArrayType);
  only_available.PushBack(k8s::copy_json((*l.get({"status", "conditions"}))[0], unlatched.alloc()), unlatched.alloc());
  unlatched.set({"status", "conditions"}, std::move(only_available));
  BOOST_TEST(!reconcile_korc(snap(std::move(unlatched).freeze())).skip);
  auto moved = l.edit();
  moved.set_int({"metadata", "generation"}, 2);
  BOOST_TEST(!reconcile_korc(snap(std::move(moved).freeze())).skip);
  // A resync period brings it back once due.
  auto resync = done.edit();
  resync.set_string({"spec", "resyncPeriod"}, "10m");
  resync.set_string({"status", "lastSyncTime"}, "2026-11-30T23:55:00Z");
  auto r = std::move(resync).freeze();
  std::optional<std::chrono::nanoseconds> remaining;
  BOOST_TEST(!korc_should_reconcile(r, t0(), &remaining));
  BOOST_TEST((remaining == std::chrono::minutes(5)));
  BOOST_TEST(korc_should_reconcile(r, t0() + std::chrono::minutes(6), nullptr));
}

BOOST_AUTO_TEST_CASE(password_and_attribute_updates) {
  auto user = ready("User", "u", "U1", R"({"name":"u","appliedPasswordRef":"pw-v1"})");
  auto b = user.edit();
  b.set_string({"spec", "resource", "passwordRef"}, "pw-v2");
  b.set_string({"spec", "resource", "description"}, "new");
  b.set_int({"metadata", "generation"}, 2);
  b.add_finalizer("openstack.k-orc.cloud/user");
  auto s = snap(std::move(b).freeze(), {secret("ns", "pw-v2", {{"password", "second"}})});
  s.refs[korc_ref_key("Secret", "cloud")] = cloud_secret("openstack.k-orc.cloud/user");
  auto plan = reconcile_korc(s);
  BOOST_TEST(plan.read->path == "/v3/users/U1");
  s.observed = answer(200, R"({"user":{"id":"U1","name":"u","domain_id":"default","enabled":true,"description":""}})");
  plan = reconcile_korc(s);
  BOOST_TEST_REQUIRE(plan.calls.size() == 2u);
  BOOST_TEST(plan.calls[0].path == "/v3/users/U1");
  BOOST_TEST(plan.calls[0].body == R"({"user":{"password":"second"}})");
  BOOST_TEST(plan.calls[1].body == R"({"user":{"description":"new"}})");
  auto st = status_write(settle_korc(s, plan, {std::nullopt, {answer(200, "{}"), answer(200, "{}")}}));
  BOOST_TEST(st.get_string({"status", "resource", "appliedPasswordRef"}) == "pw-v2");
  BOOST_TEST(cond(st, "Progressing").message == "Resource status will be refreshed");
  BOOST_TEST(cond(st, "Available").status == "True");
  // The password applied, the attributes refused: the applied ref still moves.
  st = status_write(settle_korc(s, plan, {std::nullopt, {answer(200, "{}"), failure(409, "got 409")}}));
  BOOST_TEST(st.get_string({"status", "resource", "appliedPasswordRef"}) == "pw-v2");
  BOOST_TEST(cond(st, "Progressing").message == "invalid configuration updating resource: got 409");
}

BOOST_AUTO_TEST_CASE(externally_deleted_resources) {
  auto managed = ready("Project", "p", "P1");
  auto b = managed.edit();
  b.remove({"status", "conditions"});
  b.add_finalizer("openstack.k-orc.cloud/project");
  auto s = snap(std::move(b).freeze());
  s.refs[korc_ref_key("Secret", "cloud")] = cloud_secret("openstack.k-orc.cloud/project");
  s.observed = failure(404, "got 404");
  auto st = status_write(settle_korc(s, reconcile_korc(s), {}));
  BOOST_TEST(st.get({"status", "id"}) == nullptr);
  BOOST_TEST(cond(st, "Progressing").message == "OpenStack resource was deleted externally; will recreate on next reconcile");
  auto u = s.subject.edit();
  u.set_string({"spec", "managementPolicy"}, "unmanaged");
  s.subject = std::move(u).freeze();
  st = status_write(settle_korc(s, reconcile_korc(s), {}));
  BOOST_TEST(cond(st, "Progressing").message == "resource has been deleted from OpenStack");
  BOOST_TEST(cond(st, "Available").status == "False");
}

BOOST_AUTO_TEST_CASE(deletion) {
  auto terminating = [](std::string_view kind, std::string_view extra_spec, std::string finalizers) {
    auto o = ready(kind, "x", "X1", R"({"name":"x"})").edit();
    o.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:00:00Z");
    for (std::size_t at = 0; !finalizers.empty();) {
      at = finalizers.find(',');
      o.add_finalizer(finalizers.substr(0, at));
      finalizers = at == std::string::npos ? "" : finalizers.substr(at + 1);
    }
    if (!extra_spec.empty()) {
      auto spec = obj(extra_spec);
      for (auto& m : spec.json().GetObject())
        o.set({"spec", k8s::as_string_view(m.name)}, k8s::copy_json(m.value, o.alloc()));
    }
    return std::move(o).freeze();
  };
  // Still referenced: waits for the other finalizer, deletes nothing.
  auto s = snap(terminating("Project", "", "openstack.k-orc.cloud/project,openstack.k-orc.cloud/roleassignment"));
  s.observed = answer(200, R"({"project":{"id":"X1","name":"x"}})");
  auto plan = reconcile_korc(s);
  BOOST_TEST(plan.calls.empty());
  BOOST_TEST(cond(status_write(settle_korc(s, plan, {})), "Progressing").message ==
             "Waiting for finalizer openstack.k-orc.cloud/roleassignment to be removed");
  // Managed: the delete, then the confirmation releases the finalizer.
  s = snap(terminating("Project", "", "openstack.k-orc.cloud/project"));
  s.observed = answer(200, R"({"project":{"id":"X1","name":"x"}})");
  plan = reconcile_korc(s);
  BOOST_TEST_REQUIRE(plan.calls.size() == 1u);
  BOOST_TEST(plan.calls[0].method == "DELETE");
  BOOST_TEST(plan.calls[0].path == "/v3/projects/X1");
  auto settled = settle_korc(s, plan, {std::nullopt, {answer(204, "")}});
  BOOST_TEST(cond(status_write(settled), "Progressing").message == "Waiting for OpenStack resource to be deleted");
  BOOST_TEST(settled.requeue_after.has_value());
  s.observed = failure(404, "gone");
  plan = reconcile_korc(s);
  BOOST_TEST(plan.release);
  auto w = only(settle_korc(s, plan, {}).writes, write_verb::update);
  BOOST_TEST(!w.has_finalizer("openstack.k-orc.cloud/project"));
  // Detach and unmanaged: released without a call.
  for (auto spec : {R"({"managedOptions":{"onDelete":"detach"}})", R"({"managementPolicy":"unmanaged"})"}) {
    s = snap(terminating("Role", spec, "openstack.k-orc.cloud/role"));
    s.observed = answer(200, R"({"role":{"id":"X1","name":"x"}})");
    plan = reconcile_korc(s);
    BOOST_TEST(plan.release);
    BOOST_TEST(plan.calls.empty());
  }
  // An enabled managed Domain is disabled, then deleted.
  s = snap(terminating("Domain", "", "openstack.k-orc.cloud/domain"));
  s.observed = answer(200, R"({"domain":{"id":"X1","name":"x","enabled":true}})");
  plan = reconcile_korc(s);
  BOOST_TEST_REQUIRE(plan.calls.size() == 2u);
  BOOST_TEST(plan.calls[0].method == "PATCH");
  BOOST_TEST(plan.calls[1].method == "DELETE");
  // A RoleAssignment deletes its grant by the components it recorded.
  auto ra = terminating("RoleAssignment", "", "openstack.k-orc.cloud/roleassignment").edit();
  ra.remove({"status", "id"});
  ra.set({"status", "resource"}, k8s::copy_json(obj(R"({"roleID":"R","userID":"U","projectID":"P"})").json(), ra.alloc()));
  s = snap(std::move(ra).freeze());
  plan = reconcile_korc(s);
  BOOST_TEST(plan.read->path == "/v3/role_assignments?role.id=R&user.id=U&scope.project.id=P");
  s.observed = answer(200, R"({"role_assignments":[{"role":{"id":"R"},"user":{"id":"U"},"scope":{"project":{"id":"P"}}}]})");
  plan = reconcile_korc(s);
  BOOST_TEST_REQUIRE(plan.calls.size() == 1u);
  BOOST_TEST(plan.calls[0].path == "/v3/projects/P/users/U/roles/R");
}

BOOST_AUTO_TEST_CASE(conditions_keep_their_time_while_unchanged) {
  auto s = snap(korc_obj("Role", "r", R"("resource":{})", R"(,"finalizers":["openstack.k-orc.cloud/role"])"));
  s.refs.clear();
  auto first = status_write(settle_korc(s, reconcile_korc(s), {}));
  s.subject = first;
  s.now = t0() + std::chrono::minutes(5);
  auto again = settle_korc(s, reconcile_korc(s), {});
  BOOST_TEST(again.writes.empty());  // nothing changed: nothing written
  s.refs[korc_ref_key("Secret", "cloud")] = cloud_secret("openstack.k-orc.cloud/role");
  s.observed = answer(200, R"({"roles":[{"id":"R1","name":"r"}]})");
  auto adopted = status_write(settle_korc(s, reconcile_korc(s), {}));
  BOOST_TEST(adopted.get_string({"status", "id"}) == "R1");  // adopted by name
  BOOST_TEST(cond(adopted, "Available").last_transition_time == "2026-12-01T00:05:00Z");
}

BOOST_AUTO_TEST_CASE(guards_are_released_when_nothing_references) {
  auto domain = ready("Domain", "dom", "D1").edit();
  domain.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:00:00Z");
  domain.add_finalizer("openstack.k-orc.cloud/domain");
  domain.add_finalizer("openstack.k-orc.cloud/user");
  domain.add_finalizer("openstack.k-orc.cloud/project");
  auto d = std::move(domain).freeze();
  auto user = korc_obj("User", "u", R"("resource":{"domainRef":"dom"})");
  auto other = korc_obj("Project", "p", R"("resource":{"domainRef":"elsewhere"})");
  auto w = release_guards(d, {user, other});
  BOOST_TEST_REQUIRE(w.has_value());
  BOOST_TEST(w->obj.has_finalizer("openstack.k-orc.cloud/user"));    // alice's user holds it
  BOOST_TEST(!w->obj.has_finalizer("openstack.k-orc.cloud/project"));
  BOOST_TEST(w->obj.has_finalizer("openstack.k-orc.cloud/domain"));  // its own: K-ORC's delete removes it
  BOOST_TEST(!release_guards(d, {user, korc_obj("Project", "p2", R"("resource":{"domainRef":"dom"})")}).has_value());
  // A credentials Secret is held by every kind naming it.
  auto secret = cloud_secret("openstack.k-orc.cloud/role").edit();
  secret.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:00:00Z");
  auto s = std::move(secret).freeze();
  BOOST_TEST(!release_guards(s, {korc_obj("Role", "r", R"("resource":{})")}).has_value());
  auto released = release_guards(s, {user});
  BOOST_TEST_REQUIRE(released.has_value());
  BOOST_TEST(released->obj.finalizers().empty());
  BOOST_TEST(!release_guards(cloud_secret("openstack.k-orc.cloud/role"), {}).has_value());  // not being deleted
}
