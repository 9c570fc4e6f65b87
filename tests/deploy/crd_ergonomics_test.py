#!/usr/bin/env python3
"""Unit: what kubectl shows of deploy/crds: printer columns (apis.md 1.1-1.8, the Go
operator's CRDs), short names and categories, a description on every property
(kubectl explain), a status subresource with conditions (kubectl wait).

The root `metadata` has none on purpose: kube-apiserver refuses anything but
name and generateName restrictions there and serves ObjectMeta's own text.
"""

import glob
import os

import yaml

from deploylib import ROOT, check, main

READY = ("Ready", "string", ".status.conditions[?(@.type=='Ready')].status")
CP = ("ControlPlane", "string", ".spec.controlPlaneRef.name")
AGE = ("Age", "date", ".metadata.creationTimestamp")

# kind: (short names, categories, printer columns as (name, type, jsonPath)).
ORDERS = ["c5c3", "c5c3-orders"]
EXPECTED = {
    "ControlPlane": (["cp"], ["c5c3"], [
        READY,
        ("AdminCredential", "string", ".status.conditions[?(@.type=='AdminCredentialReady')].status"),
        ("Region", "string", ".spec.region"), AGE]),
    "RabbitMQVhost": (["rmqvhost"], ORDERS, [
        READY, CP, ("Vhost", "string", ".status.vhost"),
        ("Generation", "integer", ".status.passwordGeneration"),
        ("NextRotation", "string", ".status.nextRotation"), AGE]),
    "KeystoneUser": (["ksuser"], ORDERS, [
        READY, CP, ("Generation", "integer", ".status.passwordGeneration"), AGE]),
    "KeystoneProject": (["ksproject"], ORDERS, [
        READY, CP, ("Project", "string", ".status.projectName"), AGE]),
    "KeystoneRoleAssignment": (["ksra"], ORDERS, [
        READY, CP, ("User", "string", ".spec.userRef.name"), ("Project", "string", ".spec.projectRef.name"),
        ("Role", "string", ".spec.role"), AGE]),
    "KeystoneCatalogEntry": (["kscatalog"], ORDERS, [
        READY, CP, ("Type", "string", ".spec.serviceType"), AGE]),
    "KeystoneApplicationCredential": (["ksappcred"], ORDERS, [
        READY, CP, ("User", "string", ".spec.userRef.name"), ("Project", "string", ".spec.projectRef.name"),
        ("Generation", "integer", ".status.credentialGeneration"),
        ("NextRotation", "string", ".status.nextRotation"), AGE]),
}


def undescribed(schema, path, out):
    if "description" not in schema and path != ".metadata":
        out.append(path or "(root)")
    for key, child in (schema.get("properties") or {}).items():
        undescribed(child, f"{path}.{key}", out)
    if isinstance(schema.get("items"), dict):
        undescribed(schema["items"], path + "[]", out)
    if isinstance(schema.get("additionalProperties"), dict):
        undescribed(schema["additionalProperties"], path + "{}", out)
    return out


def test():
    seen = set()
    for path in sorted(glob.glob(os.path.join(ROOT, "deploy/crds/c5c3.io_*.yaml"))):
        with open(path) as f:
            crd = yaml.safe_load(f)
        names = crd["spec"]["names"]
        kind = names["kind"]
        check(kind in EXPECTED, f"{path}: {kind} is not in this test's table")
        seen.add(kind)
        short, categories, columns = EXPECTED[kind]
        check(names.get("shortNames") == short, f"{kind}: short names {names.get('shortNames')}, want {short}")
        check(names.get("categories") == categories, f"{kind}: categories {names.get('categories')}, want {categories}")
        for v in crd["spec"]["versions"]:
            got = [(c["name"], c["type"], c["jsonPath"]) for c in v.get("additionalPrinterColumns", [])]
            check(got == columns, f"{kind} {v['name']}: printer columns {got}, want {columns}")
            check("status" in (v.get("subresources") or {}), f"{kind} {v['name']}: no status subresource")
            schema = v["schema"]["openAPIV3Schema"]
            cond = schema["properties"]["status"]["properties"].get("conditions", {})
            check(cond.get("x-kubernetes-list-map-keys") == ["type"], f"{kind}: status.conditions is not a map keyed by type")
            missing = undescribed(schema, "", [])
            check(not missing, f"{kind} {v['name']}: no description on {missing}")
    check(seen == set(EXPECTED), f"deploy/crds lacks {sorted(set(EXPECTED) - seen)}")


if __name__ == "__main__":
    main(test)
