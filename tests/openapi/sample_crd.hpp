// A CustomResourceDefinition resembling c5c3's RabbitMQVhost (apis.md 1.3):
// namespaced, status subresource, short name and categories, the printer
// columns Ready, ControlPlane, Vhost, Generation, NextRotation and Age, and a
// second served version without printer columns.
#pragma once

#include "k8s/object.hpp"

#include <boost/test/unit_test.hpp>

namespace c5c3::test {

inline k8s::object sample_crd() {
  auto crd = k8s::object::parse(R"({
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "rabbitmqvhosts.c5c3.io", "creationTimestamp": "2026-11-30T00:00:00Z"},
    "spec": {
      "group": "c5c3.io",
      "names": {"kind": "RabbitMQVhost", "listKind": "RabbitMQVhostList", "plural": "rabbitmqvhosts",
                "singular": "rabbitmqvhost", "shortNames": ["rmqvhost"], "categories": ["c5c3", "c5c3-orders"]},
      "scope": "Namespaced",
      "versions": [
        {"name": "v1alpha1", "served": true, "storage": true,
         "subresources": {"status": {}},
         "additionalPrinterColumns": [
           {"name": "Ready", "type": "string", "jsonPath": ".status.conditions[?(@.type=='Ready')].status"},
           {"name": "ControlPlane", "type": "string", "jsonPath": ".spec.controlPlaneRef.name"},
           {"name": "Vhost", "type": "string", "jsonPath": ".status.vhost", "priority": 1},
           {"name": "Generation", "type": "integer", "jsonPath": ".status.passwordGeneration"},
           {"name": "NextRotation", "type": "string", "jsonPath": ".status.nextRotation",
            "description": "When the password rotates next."},
           {"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"}],
         "schema": {"openAPIV3Schema": {
           "description": "RabbitMQVhost orders one vhost and one user on the ControlPlane's RabbitMQ.",
           "type": "object",
           "properties": {
             "apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object"},
             "spec": {"description": "Desired state of the RabbitMQVhost.", "type": "object",
               "required": ["controlPlaneRef"],
               "properties": {
                 "controlPlaneRef": {"description": "ControlPlane the order is served by.", "type": "object",
                   "required": ["name"],
                   "properties": {"name": {"type": "string", "minLength": 1, "description": "Name of the ControlPlane."},
                                  "namespace": {"type": "string", "nullable": true}}},
                 "passwordGeneration": {"type": "integer", "format": "int64", "minimum": 1, "default": 1},
                 "deletionPolicy": {"type": "string", "enum": ["Retain", "Delete"], "default": "Retain"}}},
             "status": {"type": "object", "properties": {
               "conditions": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["type"],
                 "items": {"type": "object", "required": ["type", "status"],
                           "properties": {"type": {"type": "string"}, "status": {"type": "string"}}}},
               "vhost": {"type": "string"}, "passwordGeneration": {"type": "integer"},
               "nextRotation": {"type": "string", "format": "date-time"}}}}}}},
        {"name": "v1alpha2", "served": true, "storage": false,
         "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}},
        {"name": "v1alpha0", "served": false, "storage": false,
         "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]}})");
  BOOST_REQUIRE(crd);
  return *crd;
}

}  // namespace c5c3::test
