// The 422 Status body kube-apiserver answers for an invalid custom resource.
#include "helpers.hpp"
#include "rabbitmqvhost_schema.hpp"

using namespace c5c3::sim::validation;
using namespace c5c3::sim::validation::testing;

BOOST_AUTO_TEST_SUITE(invalid_status)

BOOST_AUTO_TEST_CASE(one_error_plain_message) {
  std::vector<field_error> errs = {
      invalid("spec.rotation", go_quote("object"), "rotation.gracePeriod must be shorter than rotation.interval")};
  auto text = invalid_status_text("c5c3.io", "RabbitMQVhost", "rmv-06", errs);
  BOOST_TEST(text ==
             R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
             R"("message":"RabbitMQVhost.c5c3.io \"rmv-06\" is invalid: spec.rotation: Invalid value: \"object\": rotation.gracePeriod must be shorter than rotation.interval",)"
             R"("reason":"Invalid","details":{"name":"rmv-06","group":"c5c3.io","kind":"RabbitMQVhost",)"
             R"("causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"object\": rotation.gracePeriod must be shorter than rotation.interval","field":"spec.rotation"}]},)"
             R"("code":422})");
}

BOOST_AUTO_TEST_CASE(several_errors_bracketed_and_nil_escaped) {
  auto s = schema_yaml(kRabbitMQVhostSchema);
  auto obj = json(R"({"apiVersion":"c5c3.io/v1alpha1","kind":"RabbitMQVhost","metadata":{"name":"rmv-04"},
                      "spec":{"controlPlaneRef":{"name":"cp"},"deletionPolicy":"Drop","passwordGeneration":0}})");
  auto errs = validate(*s, obj);
  auto e = invalid_error("c5c3.io", "RabbitMQVhost", "rmv-04", errs);
  BOOST_TEST(e.code == 422);
  BOOST_TEST(e.reason == "Invalid");
  BOOST_TEST(e.message ==
             "RabbitMQVhost.c5c3.io \"rmv-04\" is invalid: ["
             "spec.deletionPolicy: Unsupported value: \"Drop\": supported values: \"Retain\", \"Delete\", "
             "spec.passwordGeneration: Invalid value: 0: spec.passwordGeneration in body should be greater than or equal to 1, "
             "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; "
             "correct the existing errors to complete validation]");
  BOOST_REQUIRE(e.causes.size() == 3u);
  BOOST_TEST(e.causes[0].reason == "FieldValueNotSupported");
  BOOST_TEST(e.causes[0].field == "spec.deletionPolicy");
  BOOST_TEST(e.causes[0].message == "Unsupported value: \"Drop\": supported values: \"Retain\", \"Delete\"");
  BOOST_TEST(e.causes[1].reason == "FieldValueInvalid");
  BOOST_TEST(e.causes[2].field == "<nil>");
  auto text = invalid_status_text("c5c3.io", "RabbitMQVhost", "rmv-04", errs);
  BOOST_TEST(text.find(R"("field":"\u003cnil\u003e")") != std::string::npos, text);
  auto body = invalid_status_body("c5c3.io", "RabbitMQVhost", "rmv-04", errs);
  BOOST_TEST(k8s::get_int(body, {"code"}).value_or(0) == 422);
  BOOST_TEST(k8s::get_string(body, {"details", "kind"}) == "RabbitMQVhost");
}

BOOST_AUTO_TEST_CASE(duplicate_messages_collapse_but_causes_stay) {
  std::vector<field_error> errs = {required("spec.a"), required("spec.a")};
  auto e = invalid_error("g.io", "K", "n", errs);
  BOOST_TEST(e.message == "K.g.io \"n\" is invalid: spec.a: Required value");
  BOOST_TEST(e.causes.size() == 2u);
  BOOST_TEST(invalid_error("", "Pod", "p", {}).message == "Pod \"p\" is invalid");
}

BOOST_AUTO_TEST_CASE(field_error_bodies) {
  BOOST_TEST(too_long("spec.url", 1024).to_string() == "spec.url: Too long: may not be more than 1024 bytes");
  BOOST_TEST(too_long("spec.c", 1).body() == "Too long: may not be more than 1 byte");
  BOOST_TEST(too_many("spec.l", 3, 2).to_string() == "spec.l: Too many: 3: must have at most 2 items");
  // kube-apiserver 1.34: "spec.import: Too many: 2: must have at most 1 item" (singular).
  BOOST_TEST(too_many("spec.import", 2, 1).body() == "Too many: 2: must have at most 1 item");
  BOOST_TEST(required("spec.x", "why").to_string() == "spec.x: Required value: why");
  BOOST_TEST(forbidden("spec.x", "no").to_string() == "spec.x: Forbidden: no");
  BOOST_TEST(duplicate("spec.l[1]", go_quote("a")).to_string() == "spec.l[1]: Duplicate value: \"a\"");
  BOOST_TEST(not_supported("spec.p", go_quote("Drop"), {"Retain", "Delete"}).body() ==
             "Unsupported value: \"Drop\": supported values: \"Retain\", \"Delete\"");
}

BOOST_AUTO_TEST_SUITE_END()
