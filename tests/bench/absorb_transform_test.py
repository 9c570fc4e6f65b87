"""bench/rabbitmqvhost/absorb.py: write-log records (with their requests) into replay writes."""
import json
import os
import sys
import tempfile
import unittest

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench")
sys.path[:0] = [BENCH, os.path.join(BENCH, "rabbitmqvhost")]
import absorb  # noqa: E402

ORDERS = "/apis/c5c3.io/v1alpha1/namespaces/tenant-a/rabbitmqvhosts"


def record(method, target, body, ctype="application/json", agent="c5c3-operator", code=200, resource="secrets"):
    return {"userAgent": agent, "client": "admin", "code": code, "dryRun": False, "resource": resource,
            "method": method, "target": target, "contentType": ctype,
            "body": body if isinstance(body, str) else json.dumps(body)}


class TransformTest(unittest.TestCase):
    def test_status_put_names_the_object_and_leaves_its_resource_version_to_the_replay(self):
        body = {"apiVersion": "c5c3.io/v1alpha1", "kind": "RabbitMQVhost",
                "metadata": {"name": "o1", "namespace": "tenant-a", "resourceVersion": "41"}, "status": {"a": 1}}
        w = absorb.transform(record("PUT", f"{ORDERS}/o1/status", body))
        self.assertEqual(w["key"], "/apis/c5c3.io/v1alpha1/namespaces/@RUN@-tenant-a/rabbitmqvhosts/o1")
        self.assertEqual(w["target"], "/apis/c5c3.io/v1alpha1/namespaces/@RUN@-tenant-a/rabbitmqvhosts/o1/status")
        sent = json.loads(w["body"])
        self.assertEqual(sent["metadata"], {"name": "o1", "namespace": "@RUN@-tenant-a", "resourceVersion": "@RV@"})
        self.assertEqual(sent["status"], {"a": 1})
        self.assertFalse(w["setup"])

    def test_create_is_keyed_by_the_collection_and_the_body_name(self):
        w = absorb.transform(record("POST", "/api/v1/namespaces/openstack/secrets",
                                    {"metadata": {"name": "s1", "namespace": "openstack"}}))
        self.assertEqual(w["key"], "/api/v1/namespaces/@RUN@-openstack/secrets/s1")
        self.assertEqual(w["target"], "/api/v1/namespaces/@RUN@-openstack/secrets")
        self.assertEqual(json.loads(w["body"])["metadata"]["namespace"], "@RUN@-openstack")

    def test_json_patch_test_of_the_resource_version_is_filled_by_the_replay(self):
        patch = [{"op": "test", "path": "/metadata/resourceVersion", "value": "7"},
                 {"op": "add", "path": "/metadata/finalizers", "value": ["f"]}]
        w = absorb.transform(record("PATCH", f"{ORDERS}/o1", patch, "application/json-patch+json"))
        self.assertEqual(json.loads(w["body"]), [{"op": "test", "path": "/metadata/resourceVersion", "value": "@RV@"},
                                                 {"op": "add", "path": "/metadata/finalizers", "value": ["f"]}])
        self.assertEqual(w["contentType"], "application/json-patch+json")

    def test_apply_keeps_its_query_and_content_type_and_may_be_yaml(self):
        w = absorb.transform(record("PATCH", "/api/v1/namespaces/tenant-a/secrets/d?fieldManager=m&force=true",
                                    "metadata:\n  name: d\n  namespace: tenant-a\n", "application/apply-patch+yaml"))
        self.assertEqual(w["target"], "/api/v1/namespaces/@RUN@-tenant-a/secrets/d?fieldManager=m&force=true")
        self.assertEqual(json.loads(w["body"]), {"metadata": {"name": "d", "namespace": "@RUN@-tenant-a"}})
        self.assertEqual(w["contentType"], "application/apply-patch+yaml")


class ReplayFileTest(unittest.TestCase):
    def test_setup_first_then_the_operators_successful_writes(self):
        log = [record("POST", "/api/v1/namespaces/openstack/secrets", {"metadata": {"name": "s1"}}),
               record("POST", "/api/v1/namespaces/openstack/secrets", {"metadata": {"name": "s1"}}, code=409),
               record("PUT", "/apis/rabbitmq.com/v1beta1/namespaces/openstack/vhosts/v/status", {"status": {}},
                      agent="c5c3-sim-world", resource="vhosts/status"),
               record("PUT", f"{ORDERS}/o1/status", {"metadata": {"name": "o1", "resourceVersion": "3"}},
                      resource="rabbitmqvhosts/status")]
        originals = {ORDERS: [{"apiVersion": "c5c3.io/v1alpha1", "kind": "RabbitMQVhost",
                               "metadata": {"name": "o1", "namespace": "tenant-a"}, "spec": {}}]}
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "writes.ndjson")
            stats = absorb.replay_file(log, originals, path)
            with open(path) as f:
                lines = [json.loads(line) for line in f]
        self.assertEqual([(w["setup"], w["method"], w["target"]) for w in lines], [
            (True, "POST", "/api/v1/namespaces"),
            (True, "POST", "/api/v1/namespaces"),
            (True, "POST", "/apis/c5c3.io/v1alpha1/namespaces/@RUN@-tenant-a/rabbitmqvhosts"),
            (False, "POST", "/api/v1/namespaces/@RUN@-openstack/secrets"),
            (False, "PUT", "/apis/c5c3.io/v1alpha1/namespaces/@RUN@-tenant-a/rabbitmqvhosts/o1/status")])
        self.assertEqual(sorted(json.loads(w["body"])["metadata"]["name"] for w in lines[:2]),
                         ["@RUN@-openstack", "@RUN@-tenant-a"])
        self.assertEqual(lines[2]["key"], "/apis/c5c3.io/v1alpha1/namespaces/@RUN@-tenant-a/rabbitmqvhosts/o1")
        self.assertEqual(stats["writes"], 2)
        self.assertEqual(stats["failed"], 1)
        self.assertEqual(stats["others"], {"c5c3-sim-world": 1})
        self.assertEqual(stats["method"], {"POST": 1, "PUT": 1})
        self.assertEqual(stats["resource"], {"secrets": 1, "rabbitmqvhosts/status": 1})


if __name__ == "__main__":
    unittest.main()
