"""real: server-side field validation and metadata.generation / resourceVersion, compared on the
real kube-apiserver and the emulator.

1. Field validation, over HTTP (to see the Warning headers) and through kubectl: an unknown field
   and a duplicate field, in a built-in kind (ConfigMap) and in a custom resource (RabbitMQVhost),
   with fieldValidation Strict, Warn and Ignore, on create, update, patch and server-side apply.
   Strict refuses with kube's message, Warn admits with Warning headers, Ignore drops the field
   silently. Status, message, warnings and the stored object must be the same on both servers.
2. After every write verb (create, update, no-op update, patches, status writes, server-side apply,
   adding a finalizer, a delete the finalizer holds, releasing it): the answer's status, generation,
   whether the resourceVersion moved, and whether a GET agrees, the same on both servers.

Usage: api_semantics_real.py C5C3_SIM SOURCE_DIR
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Http, kubectl, on_both_servers, report_differences, run_main  # noqa: E402

NS = "semantics"
CMS = f"/api/v1/namespaces/{NS}/configmaps"
VHS = f"/apis/c5c3.io/v1alpha1/namespaces/{NS}/rabbitmqvhosts"
CM_TYPE = '"apiVersion":"v1","kind":"ConfigMap"'
VH_TYPE = '"apiVersion":"c5c3.io/v1alpha1","kind":"RabbitMQVhost"'
VH_SPEC = '"spec":{"controlPlaneRef":{"name":"cp","namespace":"semantics"}'


def normalize(value):
    text = json.dumps(value, sort_keys=True)
    text = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<uid>", text)
    text = re.sub(r'"resourceVersion": "\d+"', '"resourceVersion": "<rv>"', text)
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", "<time>", text)
    return json.loads(text)


def stripped(obj):
    """The object without what the servers legitimately differ in (managedFields' times stay
    normalized, so managers and field sets are compared)."""
    return normalize(obj) if isinstance(obj, dict) else obj


def validation_cases():
    """(name, method, path, body, content type); each runs with ?fieldValidation=Strict|Warn|Ignore."""
    cases = []
    for mode in ("Strict", "Warn", "Ignore"):
        m = mode.lower()
        cases += [
            (f"{mode} create configmap unknown", "POST", CMS,
             f'{{{CM_TYPE},"metadata":{{"name":"u-{m}"}},"data":{{"a":"1"}},"bogus":1}}', "application/json"),
            (f"{mode} create configmap unknown nested", "POST", CMS,
             f'{{{CM_TYPE},"metadata":{{"name":"n-{m}","bogusMeta":"x"}}}}', "application/json"),
            (f"{mode} create configmap duplicate", "POST", CMS,
             f'{{{CM_TYPE},"metadata":{{"name":"d-{m}"}},"data":{{"a":"1"}},"data":{{"b":"2"}}}}',
             "application/json"),
            (f"{mode} create cr unknown (typo in spec)", "POST", VHS,
             f'{{{VH_TYPE},"metadata":{{"name":"u-{m}"}},{VH_SPEC},"passwordGeneraton":2}}}}', "application/json"),
            (f"{mode} create cr duplicate", "POST", VHS,
             f'{{{VH_TYPE},"metadata":{{"name":"d-{m}"}},{VH_SPEC},"passwordGeneration":2,'
             f'"passwordGeneration":3}}}}', "application/json"),
            (f"{mode} create cr unknown metadata", "POST", VHS,
             f'{{{VH_TYPE},"metadata":{{"name":"m-{m}","bogusMeta":1}},{VH_SPEC}}}}}', "application/json"),
            (f"{mode} update configmap unknown", "PUT", CMS + "/base",
             f'{{{CM_TYPE},"metadata":{{"name":"base"}},"data":{{"a":"1"}},"bogus":1}}', "application/json"),
            (f"{mode} merge patch configmap unknown", "PATCH", CMS + "/base",
             '{"bogus":1,"data":{"b":"1"}}', "application/merge-patch+json"),
            (f"{mode} strategic patch configmap unknown", "PATCH", CMS + "/base",
             '{"bogus":1}', "application/strategic-merge-patch+json"),
            (f"{mode} merge patch cr unknown", "PATCH", VHS + "/base",
             '{"spec":{"passwordGeneraton":2}}', "application/merge-patch+json"),
            (f"{mode} merge patch cr duplicate", "PATCH", VHS + "/base",
             '{"spec":{"passwordGeneration":2,"passwordGeneration":3}}', "application/merge-patch+json"),
            (f"{mode} apply cr unknown", "PATCH", VHS + f"/a-{m}?fieldManager=t",
             f'{{{VH_TYPE},"metadata":{{"name":"a-{m}"}},{VH_SPEC},"passwordGeneraton":2}}}}',
             "application/apply-patch+yaml"),
            (f"{mode} apply configmap unknown", "PATCH", CMS + f"/a-{m}?fieldManager=t",
             f'{{{CM_TYPE},"metadata":{{"name":"a-{m}"}},"bogus":1}}', "application/apply-patch+yaml"),
        ]
    return cases


def run_validation(http):
    http.request("POST", CMS, f'{{{CM_TYPE},"metadata":{{"name":"base"}},"data":{{"a":"1"}}}}')
    http.request("POST", VHS, f'{{{VH_TYPE},"metadata":{{"name":"base"}},{VH_SPEC}}}}}')
    out = {}
    for name, method, path, body, ctype in validation_cases():
        mode = name.split()[0]
        sep = "&" if "?" in path else "?"
        status, headers, payload = http.request(method, f"{path}{sep}fieldValidation={mode}", body, ctype)
        warnings = sorted(headers.get_all("Warning") or [])
        if isinstance(payload, dict) and payload.get("kind") == "Status":
            result = {k: payload.get(k) for k in ("status", "reason", "message", "code")}
            # A refused patch quotes the value it could not decode (the patched object as Go
            # serializes it, or Go's rendering of a strategic patch): compared without it.
            result["message"] = re.sub(r'patch: Invalid value: ".*": strict decoding error',
                                       'patch: Invalid value: "<value>": strict decoding error', result["message"] or "")
        else:
            result = stripped(payload)
        out[name] = {"status": status, "warnings": warnings, "result": result}
    return out


def kubectl_validation(kubeconfig):
    """kubectl's --validate (strict is its default) on files with an unknown field."""
    out = {}
    cm = f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: k-{{m}}\n  namespace: {NS}\nbogus: 1\n"
    vh = (f"apiVersion: c5c3.io/v1alpha1\nkind: RabbitMQVhost\nmetadata:\n  name: k-{{m}}\n  namespace: {NS}\n"
          f"spec:\n  controlPlaneRef: {{{{name: cp, namespace: {NS}}}}}\n  passwordGeneraton: 2\n")
    for mode in ("default", "strict", "warn", "ignore"):
        flag = [] if mode == "default" else [f"--validate={mode}"]
        for kind, text in (("configmap", cm), ("cr", vh)):
            for verb in ("create", "apply"):
                r = kubectl(kubeconfig, verb, *flag, "-f", "-", stdin=text.format(m=f"{mode}-{verb}"))
                out[f"kubectl {verb} {kind} --validate={mode}"] = (r.returncode, r.stdout, r.stderr)
    return out


def run_generations(http):
    """Each write verb on a RabbitMQVhost (generation tracked) and a ConfigMap (none)."""
    steps = []
    state = {"rv": None}

    def step(name, method, path, body=None, ctype="application/json", get=None):
        status, _, payload = http.request(method, path, body, ctype)
        md = payload.get("metadata", {}) if isinstance(payload, dict) else {}
        rv = md.get("resourceVersion")
        g_status, _, now = http.request("GET", get) if get else (None, None, None)
        now_md = now.get("metadata", {}) if isinstance(now, dict) and now.get("kind") != "Status" else {}
        steps.append((name, {
            "status": status,
            "kind": payload.get("kind") if isinstance(payload, dict) else None,
            "generation": md.get("generation"),
            "rv moved": None if rv is None or state["rv"] is None else rv != state["rv"],
            "deleting": "deletionTimestamp" in md,
            "finalizers": md.get("finalizers"),
            "get status": g_status,
            "get agrees": None if not now_md else (now_md.get("resourceVersion") == rv,
                                                   now_md.get("generation") == md.get("generation")),
        }))
        if rv is not None:
            state["rv"] = rv

    vh = VHS + "/gen"
    body = f'{{{VH_TYPE},"metadata":{{"name":"gen"}},{VH_SPEC}}}}}'
    step("cr create", "POST", VHS, body, get=vh)
    step("cr create dry-run", "POST", VHS + "?dryRun=All",
         f'{{{VH_TYPE},"metadata":{{"name":"gen-dry"}},{VH_SPEC}}}}}', get=VHS + "/gen-dry")
    _, _, cur = http.request("GET", vh)
    step("cr update no-op", "PUT", vh, json.dumps(cur), get=vh)
    cur["spec"]["passwordGeneration"] = 2
    step("cr update spec", "PUT", vh, json.dumps(cur), get=vh)
    step("cr patch labels", "PATCH", vh, '{"metadata":{"labels":{"a":"b"}}}', "application/merge-patch+json", vh)
    step("cr patch no-op", "PATCH", vh, '{"metadata":{"labels":{"a":"b"}}}', "application/merge-patch+json", vh)
    step("cr patch spec dry-run", "PATCH", vh + "?dryRun=All", '{"spec":{"passwordGeneration":7}}',
         "application/merge-patch+json", vh)
    step("cr patch spec", "PATCH", vh, '{"spec":{"passwordGeneration":3}}', "application/merge-patch+json", vh)
    step("cr status patch", "PATCH", vh + "/status", '{"status":{"observedGeneration":3}}',
         "application/merge-patch+json", vh)
    _, _, cur = http.request("GET", vh)
    cur["status"]["observedGeneration"] = 4
    step("cr status update", "PUT", vh + "/status", json.dumps(cur), get=vh)
    step("cr status patch ignores spec", "PATCH", vh + "/status", '{"spec":{"passwordGeneration":9}}',
         "application/merge-patch+json", vh)
    apply = f'{{{VH_TYPE},"metadata":{{"name":"gen"}},{VH_SPEC},"passwordGeneration":4}}}}'
    step("cr apply spec", "PATCH", vh + "?fieldManager=semantics&force=true", apply,
         "application/apply-patch+yaml", vh)
    step("cr apply same", "PATCH", vh + "?fieldManager=semantics", apply, "application/apply-patch+yaml", vh)
    step("cr json patch finalizer", "PATCH", vh, '[{"op":"add","path":"/metadata/finalizers","value":["x.io/f"]}]',
         "application/json-patch+json", vh)
    step("cr delete held", "DELETE", vh, get=vh)
    step("cr delete again", "DELETE", vh, get=vh)
    step("cr patch spec while deleting", "PATCH", vh, '{"spec":{"passwordGeneration":5}}',
         "application/merge-patch+json", vh)
    step("cr release finalizer", "PATCH", vh, '{"metadata":{"finalizers":null}}', "application/merge-patch+json", vh)
    step("cr delete gone", "DELETE", vh)

    cm = CMS + "/gen"
    step("cm create", "POST", CMS, f'{{{CM_TYPE},"metadata":{{"name":"gen","finalizers":["x.io/f"]}},'
                                   '"data":{"a":"1"}}', get=cm)
    step("cm patch data", "PATCH", cm, '{"data":{"a":"2"}}', "application/merge-patch+json", cm)
    step("cm patch no-op", "PATCH", cm, '{"data":{"a":"2"}}', "application/merge-patch+json", cm)
    step("cm delete held", "DELETE", cm, get=cm)
    # Not compared: a DELETE with propagationPolicy Orphan of an object a finalizer holds. The
    # real server adds the finalizer "orphan" for a garbage collector (none runs there); the
    # emulator's own collector orphans the dependents at once and adds none.
    step("cm release finalizer", "PATCH", cm, '[{"op":"remove","path":"/metadata/finalizers"}]',
         "application/json-patch+json", cm)
    step("cm create plain", "POST", CMS, f'{{{CM_TYPE},"metadata":{{"name":"plain"}}}}', get=CMS + "/plain")
    step("cm delete plain", "DELETE", CMS + "/plain", get=CMS + "/plain")
    return steps


def compare(what, real, emulated, differences):
    for key in real:
        if real[key] != emulated.get(key):
            differences.append(f"{what} '{key}' differs:\n  real:     {real[key]}\n  emulator: {emulated.get(key)}")


def main(sim, src):
    def body(both):
        results = {}
        for label, kc in (("real", both.real_kc), ("emulator", both.sim_kc)):
            kubectl(kc, "create", "namespace", NS, check=True)
            http = Http(kc)
            results[label] = (run_validation(http), kubectl_validation(kc), dict(run_generations(http)))
        (v_real, k_real, g_real), (v_sim, k_sim, g_sim) = results["real"], results["emulator"]

        # The real server is the oracle; these pin what the comparison relies on.
        assert v_real["Strict create cr unknown (typo in spec)"]["status"] == 400, v_real
        assert v_real["Warn create cr unknown (typo in spec)"]["warnings"], v_real
        assert k_real["kubectl create cr --validate=default"][0] != 0, "kubectl's default refuses a typo"

        differences = []
        compare("field validation", v_real, v_sim, differences)
        compare("kubectl", k_real, k_sim, differences)
        compare("generation/resourceVersion after", g_real, g_sim, differences)
        report_differences(differences, len(v_real) + len(k_real) + len(g_real))

    on_both_servers("c5c3-real-semantics-", sim, src, body)


if __name__ == "__main__":
    run_main(lambda: main(*sys.argv[1:3]))
