"""e2e: the operator, the emulator and the simulated K-ORC as separate processes, a REAL Keystone.

Issues 12, 13 and 14, "Proof with a real Keystone": Debian's keystone on loopback (tools/keystone-loopback) behind
`c5c3-sim world --keystone-url`, checked with the openstack client (role assignment list, endpoint list,
service and region show) and keystoneauth1 (the delivered clouds.yaml scoping a token):
  - a user, a project and an assignment of `member`: the grant is listed in Keystone with the reported ids;
    the delivered clouds.yaml authenticates; after passwordGeneration 2 the new password works and the old one
    is refused (issue 12); a project name made in Keystone by the test reads ProjectCollision and the project is
    left untouched by the order and its deletion (issue 12);
  - an application credential of the user on the project: its delivered clouds.yaml authenticates through
    keystoneauth1 (v3applicationcredential, scoped to the project); credentialGeneration 2 with the operator
    killed (-9) once the new credential is minted in Keystone and before the switch, then restarted: no second
    mint, the switch, the old credential refused and deleted after the grace period; deletion removes them all
    (issue 14);
    the user's password cloud scopes a token to the project only once the assignment exists;
  - a role outside allowedRoles (admin) reads RoleNotAllowed and nothing appears in Keystone;
  - two orders racing for the same user, project and role (reader): at most one K-ORC RoleAssignment and
    one Keystone grant at every poll, exactly one at the end, the other order DuplicateRoleAssignment;
  - a user, a project and an assignment made while Keystone is down converge once it is back, with one
    user, one project and one grant;
  - deleting the user while an assignment names it holds (ReferencedByRoleAssignments, still in Keystone);
    deleting the assignments releases it; nothing of the orders is left in Keystone;
  - a catalog entry with public and internal endpoints is listed by `openstack endpoint list`; dropping the
    internal row removes exactly that endpoint; deletion removes the service and its endpoints, keeps RegionOne;
all of it while the emulator answers the OPERATOR's requests (its own token) with the fault rules of the
earlier kinds (5xx, 429, a 409 on status writes, cut watches, 410 on a resume, connection resets), each
of which must fire.

Usage: operator_keystone_e2e.py C5C3_SIM C5C3_OPERATOR SOURCE_DIR
Debian's /usr/bin/python3 with python3-kubernetes, python3-keystoneauth1 and python3-openstackclient.
"""
import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

import yaml
from keystoneauth1 import exceptions as ks_exceptions
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3
from kubernetes import client, config

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from clouds_token import token as clouds_token  # noqa: E402
from e2e import Procs, apply_samples, condition, eventually, log  # noqa: E402

GRP, VER, NS = "c5c3.io", "v1alpha1", "tenant-a"
OP_TOKEN = "c5c3-operator-e2e-token"
RA_LABEL = "c5c3.io/keystoneroleassignment-name"

# The operator's requests only (matched by its token); each fires a bounded number of times.
FAULTS = [
    {"id": "list-500", "client": OP_TOKEN, "verb": "list", "status": 500, "times": 3},
    {"id": "get-503", "client": OP_TOKEN, "verb": "get", "status": 503, "retryAfterSeconds": 1, "times": 3},
    {"id": "create-429", "client": OP_TOKEN, "verb": "create", "status": 429, "retryAfterSeconds": 1, "times": 3},
    {"id": "status-409", "client": OP_TOKEN, "verb": "update", "resource": "keystoneroleassignments/status",
     "status": 409, "times": 2},
    {"id": "patch-reset", "client": OP_TOKEN, "verb": "patch", "resetConnection": True, "times": 3},
    {"id": "watch-cut", "client": OP_TOKEN, "verb": "watch", "cutWatchAfterEvents": 2, "times": 4},
    {"id": "watch-410", "client": OP_TOKEN, "verb": "watch", "expireResume": True, "times": 2},
]


class Keystone:
    """The real Keystone through the openstack client (admin, secrets in the environment only)."""

    def __init__(self, env):
        self.env = env
        self.os_env = {k: v for k, v in os.environ.items() if not k.startswith("OS_")}
        self.os_env.update({"OS_AUTH_URL": env["KEYSTONE_AUTH_URL"], "OS_USERNAME": "admin",
                            "OS_PASSWORD": env["KEYSTONE_ADMIN_PASSWORD"], "OS_PROJECT_NAME": "admin",
                            "OS_USER_DOMAIN_NAME": "Default", "OS_PROJECT_DOMAIN_NAME": "Default",
                            "OS_IDENTITY_API_VERSION": "3", "OS_INTERFACE": "public"})

    def openstack(self, *args, ok=True):
        r = subprocess.run(["/usr/bin/openstack", *args, "-f", "json"], env=self.os_env, capture_output=True,
                           text=True, timeout=120)
        if ok and r.returncode != 0:
            raise AssertionError(f"openstack {' '.join(args)}: {r.stderr.strip()}")
        return json.loads(r.stdout) if r.returncode == 0 and r.stdout.strip() else None

    def assignments(self, user_id, project_id, role=None):
        args = ["role", "assignment", "list", "--user", user_id, "--project", project_id]
        return self.openstack(*args, *(["--role", role] if role else [])) or []

    def admin_session(self):
        """The admin's keystoneauth session (fast enough to poll)."""
        if not hasattr(self, "admin"):
            self.admin = ks_session.Session(auth=v3.Password(
                auth_url=self.env["KEYSTONE_AUTH_URL"], username="admin", password=self.env["KEYSTONE_ADMIN_PASSWORD"],
                project_name="admin", user_domain_name="Default", project_domain_name="Default"))
        return self.admin

    def grants(self, user_id, project_id, role_id):
        """The grants of the role."""
        r = self.admin_session().get(f'{self.env["KEYSTONE_AUTH_URL"]}/role_assignments?user.id={user_id}'
                           f'&scope.project.id={project_id}&role.id={role_id}')
        return r.json()["role_assignments"]

    def app_credentials(self, user_id):
        """The ids of the user's application credentials, as the admin lists them."""
        r = self.admin_session().get(f'{self.env["KEYSTONE_AUTH_URL"]}/users/{user_id}/application_credentials')
        return sorted(c["id"] for c in r.json()["application_credentials"])

    def named(self, what, name):
        return [x for x in self.openstack(what, "list") or [] if x.get("Name") == name]

    def endpoints(self, service_id):
        return sorted((e["Interface"], e["URL"]) for e in self.openstack("endpoint", "list", "--service", service_id)
                      or [])

    def exists(self, what, ident):
        return self.openstack(what, "show", ident, ok=False) is not None

    def scoped_token(self, clouds_yaml, project=None):
        """What the delivered clouds.yaml's user gets scoped to `project` (None: the document's own auth, an
        unscoped token): ok, refused or error."""
        cloud = next(iter(yaml.safe_load(clouds_yaml)["clouds"].values()))["auth"]
        scope = {"project_name": project, "project_domain_name": "Default"} if project else {}
        auth = v3.Password(auth_url=self.env["KEYSTONE_AUTH_URL"],  # the document's is in-cluster
                           username=cloud["username"], password=cloud["password"],
                           user_domain_name=cloud.get("user_domain_name", "Default"), **scope)
        try:
            ks_session.Session(auth=auth).get_token()
            return "ok"
        except ks_exceptions.Unauthorized:
            return "refused"
        except Exception as e:  # noqa: BLE001 - reported, not raised
            return "error: " + type(e).__name__


def main(sim, operator, src):
    workdir = tempfile.mkdtemp(prefix="c5c3-keystone-e2e-")
    ks_dir = os.path.join(workdir, "keystone")
    loopback = os.path.join(src, "tools", "keystone-loopback")

    def keystone_start():
        out = subprocess.run([loopback, "start", ks_dir], check=True, capture_output=True, text=True).stdout
        return dict(line.split("=", 1) for line in out.split())

    env = keystone_start()
    procs = Procs(workdir)
    ok = False
    try:
        kubeconfig = os.path.join(workdir, "kubeconfig")
        token_file = os.path.join(workdir, "tokens.csv")
        with open(token_file, "w") as f:
            f.write(f'{OP_TOKEN},c5c3-operator,c5c3-operator,"system:masters"\n')
        procs.start("apiserver", [sim, "apiserver", "--listen", "127.0.0.1:0", "--kubeconfig-out", kubeconfig,
                                  "--token-file", token_file,
                                  "--crds", os.path.join(src, "deploy", "crds"),
                                  "--crds", os.path.join(src, "sim", "crds")], "listening on")
        admin_file = os.path.join(workdir, "keystone-admin-password")
        with open(admin_file, "w") as f:
            f.write(env["KEYSTONE_ADMIN_PASSWORD"])
        os.chmod(admin_file, 0o600)
        world = procs.start("world", [sim, "world", "--kubeconfig", kubeconfig, "--keystone-url",
                                      env["KEYSTONE_URL"], "--keystone-admin-password-file", admin_file])
        with open(kubeconfig) as f:
            kc = yaml.safe_load(f)
        for u in kc["users"]:
            u["user"] = {"token": OP_TOKEN}
        op_kubeconfig = os.path.join(workdir, "operator.kubeconfig")
        with open(op_kubeconfig, "w") as f:
            yaml.safe_dump(kc, f)
        config.load_kube_config(config_file=kubeconfig)
        sim_request("/sim/faults", "POST", FAULTS)
        def start_operator(name="operator"):
            return procs.start(name, [operator, "--kubeconfig", op_kubeconfig, "--namespace", "c5c3-system",
                                      "--metrics-bind-address", "127.0.0.1:0",
                                      "--health-probe-bind-address", "127.0.0.1:0"])

        ops = {"operator": start_operator(), "world": world, "start_operator": start_operator}
        run_scenario(kubeconfig, src, Keystone(env), lambda: subprocess.run([loopback, "stop", ks_dir], check=True),
                     keystone_start, ops)
        fired = sim_request("/sim/faults")["counters"]
        log(f"fault rules fired: {fired}")
        assert all(fired.get(r["id"], 0) > 0 for r in FAULTS), f"every fault rule fires: {fired}"
        ok = True
    finally:
        if not ok:
            procs.dump()
        procs.stop()
        subprocess.run([loopback, "stop", ks_dir], check=False)
        if ok:  # kept for a look when it failed
            shutil.rmtree(workdir, ignore_errors=True)
    print("operator keystone e2e: ok")


def sim_request(path, method="GET", body=None):
    """The emulator's /sim API as the admin (the kubernetes client's default configuration)."""
    return client.ApiClient().call_api(path, method, body=body, response_type="object", _return_http_data_only=True,
                                       auth_settings=["BearerToken"],
                                       header_params={"Content-Type": "application/json"})


def run_scenario(kubeconfig, src, ks, keystone_stop, keystone_start, ops):
    apply_samples(kubeconfig, src)
    api = client.CustomObjectsApi()
    core = client.CoreV1Api()
    cp = {"controlPlaneRef": {"name": "cp", "namespace": "openstack"}}

    def create(plural, kind, name, spec):
        api.create_namespaced_custom_object(GRP, VER, NS, plural, {
            "apiVersion": f"{GRP}/{VER}", "kind": kind, "metadata": {"name": name, "namespace": NS},
            "spec": {**cp, **spec}})

    def get(plural, name):
        try:
            return api.get_namespaced_custom_object(GRP, VER, NS, plural, name)
        except client.exceptions.ApiException as e:
            if e.status == 404:
                return None
            raise

    def ready(plural, name):
        o = get(plural, name)
        c = condition(o or {}, "Ready")
        return o if c and c["status"] == "True" else None

    def reason(plural, name, type_):
        c = condition(get(plural, name) or {}, type_)
        return c["reason"] if c else None

    def delete(plural, name):
        api.delete_namespaced_custom_object(GRP, VER, NS, plural, name)

    def assignment(name, role):
        create("keystoneroleassignments", "KeystoneRoleAssignment", name,
               {"userRef": {"name": "alice"}, "projectRef": {"name": "team"}, "role": role})

    def korc_assignments(*orders):
        items = api.list_namespaced_custom_object("openstack.k-orc.cloud", "v1alpha1", "openstack",
                                                  "roleassignments")["items"]
        return [o for o in items if (o["metadata"].get("labels") or {}).get(RA_LABEL) in orders]

    # The user and the project; before any assignment the user cannot scope a token to the project.
    create("keystoneusers", "KeystoneUser", "alice", {})
    create("keystoneprojects", "KeystoneProject", "team", {})
    user = eventually(lambda: ready("keystoneusers", "alice"), "alice Ready", 180)
    project = eventually(lambda: ready("keystoneprojects", "team"), "team Ready", 120)
    uid, pid = user["status"]["userID"], project["status"]["projectID"]
    secret = core.read_namespaced_secret("alice-credentials", NS)
    clouds = base64.b64decode(secret.data["clouds.yaml"]).decode()
    assert ks.scoped_token(clouds) == "ok", "the delivered clouds.yaml authenticates"
    assert ks.scoped_token(clouds, "team") == "refused", "no role on team yet: the scoped token is refused"
    shown = ks.openstack("project", "show", pid)
    assert (shown["id"], shown["name"]) == (pid, "team"), f"the reported projectID is team in Keystone: {shown}"
    log(f"user {uid} and project {pid} Ready; the delivered cloud authenticates, no token on team without a role")

    # Issue 12: passwordGeneration 2 delivers a new password that works; the old one is refused.
    api.patch_namespaced_custom_object(GRP, VER, NS, "keystoneusers", "alice", {"spec": {"passwordGeneration": 2}})

    def rotated():
        o = ready("keystoneusers", "alice")
        if not o or o["status"].get("passwordGeneration") != 2:
            return None
        new = base64.b64decode(core.read_namespaced_secret("alice-credentials", NS).data["clouds.yaml"]).decode()
        return new if new != clouds else None

    rotated_clouds = eventually(rotated, "alice at passwordGeneration 2 with a new clouds.yaml", 120)
    assert eventually(lambda: ks.scoped_token(rotated_clouds) == "ok", "the new password authenticates", 30)
    assert eventually(lambda: ks.scoped_token(clouds) == "refused", "the old password is refused", 30)
    assert get("keystoneusers", "alice")["status"]["userID"] == uid, "the rotation keeps the user"
    clouds = rotated_clouds
    log("passwordGeneration 2: the new password authenticates, the old one is refused")

    # Issue 12: a project name that exists in Keystone (made here) is ProjectCollision and left untouched.
    made = ks.openstack("project", "create", "preexisting", "--domain", "default", "--description", "not the order's")
    create("keystoneprojects", "KeystoneProject", "taken", {"projectName": "preexisting"})
    eventually(lambda: reason("keystoneprojects", "taken", "ProjectReady") == "ProjectCollision",
               "taken reads ProjectCollision", 120)
    delete("keystoneprojects", "taken")
    eventually(lambda: get("keystoneprojects", "taken") is None, "taken gone", 120)
    kept = ks.openstack("project", "show", made["id"])
    assert {k: kept[k] for k in ("id", "name", "description", "enabled")} == \
        {k: made[k] for k in ("id", "name", "description", "enabled")}, f"the project is untouched: {kept}"
    assert len(ks.named("project", "preexisting")) == 1, "no second project of that name"
    log("a pre-existing project: ProjectCollision, untouched by the order and its deletion")

    # An assignment of member: the grant in Keystone, the scoped token.
    assignment("ra-member", "member")
    ra = eventually(lambda: ready("keystoneroleassignments", "ra-member"), "ra-member Ready", 180)
    st = ra["status"]
    assert (st["userID"], st["projectID"]) == (uid, pid), st
    member = ks.named("role", "member")
    assert len(member) == 1 and member[0]["ID"] == st["roleID"], (member, st)
    rows = ks.assignments(uid, pid)
    assert [r["Role"] for r in rows] == [st["roleID"]], f"exactly the member grant on team: {rows}"
    assert eventually(lambda: ks.scoped_token(clouds, "team") == "ok", "alice scopes a token to team", 30)
    log("member assigned: listed by openstack role assignment list; alice's cloud scopes a token to team")

    credential_kill_and_restart(api, core, ks, uid, ops, create, get, ready, delete)

    # The scenarios that need only a Keystone that answers; they run while the Keystone outage's orders wait out
    # the operator's transport-error unlatch backoff (30 s and a jitter, actors/c5c3/korc/unlatch.hpp), below.
    def refused_role():
        # A role off the allowlist: refused, nothing in Keystone.
        assignment("ra-admin", "admin")
        eventually(lambda: reason("keystoneroleassignments", "ra-admin", "AssignmentReady") == "RoleNotAllowed",
                   "ra-admin RoleNotAllowed", 120)
        assert korc_assignments("ra-admin") == [], "no K-ORC RoleAssignment for a refused role"
        assert ks.assignments(uid, pid, "admin") == [], "no admin grant in Keystone"
        delete("keystoneroleassignments", "ra-admin")
        log("admin refused (RoleNotAllowed), nothing in Keystone")

    def race():
        # Two orders racing for reader: at most one K-ORC RoleAssignment and one grant at every poll.
        assignment("ra-race-a", "reader")
        assignment("ra-race-b", "reader")
        seen = []
        reader = ks.named("role", "reader")[0]["ID"]

        def race_settled():
            k = len(korc_assignments("ra-race-a", "ra-race-b"))
            g = len(ks.grants(uid, pid, reader))
            seen.append((k, g))
            assert k <= 1 and g <= 1, f"two owners of one grant: {k} K-ORC objects, {g} grants"
            won = [n for n in ("ra-race-a", "ra-race-b") if ready("keystoneroleassignments", n)]
            lost = [n for n in ("ra-race-a", "ra-race-b")
                    if reason("keystoneroleassignments", n, "AssignmentReady") == "DuplicateRoleAssignment"]
            return k == 1 and g == 1 and len(won) == 1 and len(lost) == 1

        eventually(race_settled, "one race winner, one DuplicateRoleAssignment", 180, tolerate=())
        assert len(ks.assignments(uid, pid, "reader")) == 1, "one reader grant listed by the openstack client"
        log(f"race: at most one owner and one grant at each of {len(seen)} polls, exactly one at the end")

    def catalog():
        # A catalog entry: its endpoints listed, a dropped row removed, the teardown keeps the Region.
        public = ("public", "https://dns.example.test/v2")
        internal = ("internal", "http://designate.openstack.svc:9001/v2")
        create("keystonecatalogentries", "KeystoneCatalogEntry", "dns",
               {"serviceType": "dns", "serviceName": "designate",
                "endpoints": [{"interface": i, "url": u} for i, u in (public, internal)]})
        entry = eventually(lambda: ready("keystonecatalogentries", "dns"), "dns Ready", 180)
        sid = entry["status"]["serviceID"]
        svc = ks.openstack("service", "show", sid)
        assert (svc["name"], svc["type"]) == ("designate", "dns"), svc
        assert ks.endpoints(sid) == sorted([public, internal]), ks.endpoints(sid)
        api.patch_namespaced_custom_object(GRP, VER, NS, "keystonecatalogentries", "dns",
                                           {"spec": {"endpoints": [{"interface": public[0], "url": public[1]}]}})
        eventually(lambda: ks.endpoints(sid) == [public], "the internal endpoint removed", 120)
        delete("keystonecatalogentries", "dns")
        eventually(lambda: get("keystonecatalogentries", "dns") is None, "dns gone", 180)
        assert not ks.exists("service", sid), "the service removed"
        left = [e for e in ks.openstack("endpoint", "list") or [] if e.get("Service Name") == "designate"]
        assert left == [], f"its endpoints removed: {left}"
        assert ks.exists("region", "RegionOne"), "the Region kept"
        log("catalog: endpoints listed, the dropped row removed, teardown kept RegionOne")

    # Keystone down while a user, a project and an assignment on it are made: they wait, then converge once.
    keystone_stop()
    create("keystoneusers", "KeystoneUser", "late-user", {})
    create("keystoneprojects", "KeystoneProject", "outage", {})
    create("keystoneroleassignments", "KeystoneRoleAssignment", "ra-late",
           {"userRef": {"name": "alice"}, "projectRef": {"name": "outage"}, "role": "member"})

    def korc_project_failed():
        for o in api.list_namespaced_custom_object("openstack.k-orc.cloud", "v1alpha1", "openstack",
                                                   "projects")["items"]:
            if ((o["spec"].get("resource") or {}).get("name")) != "outage":
                continue
            for c in (o.get("status") or {}).get("conditions") or []:
                if c.get("reason") in ("TransientError", "InvalidConfiguration"):
                    return f'{c["reason"]}: {c.get("message")}'
        return None

    failed = eventually(korc_project_failed, "K-ORC fails to reach Keystone for outage", 120)
    log(f"Keystone down: K-ORC says {failed!r}; outage reads "
        f"{reason('keystoneprojects', 'outage', 'ProjectReady')}")
    assert not ready("keystoneprojects", "outage") and not ready("keystoneroleassignments", "ra-late")
    assert not ready("keystoneusers", "late-user")
    waiting = condition(get("keystoneusers", "late-user") or {}, "UserReady")
    log(f"Keystone down: late-user reads {waiting and waiting['reason']}: {waiting and waiting['message']}")
    keystone_start()
    refused_role()
    race()
    catalog()
    late = eventually(lambda: ready("keystoneroleassignments", "ra-late"), "ra-late Ready after the outage", 240)
    assert len(ks.assignments(uid, late["status"]["projectID"])) == 1, "one grant after the outage"
    assert len(ks.named("project", "outage")) == 1, "no duplicate project after the outage"
    eventually(lambda: ready("keystoneusers", "late-user"), "late-user Ready after the outage", 240)
    assert len(ks.named("user", "late-user")) == 1, "no duplicate user after the outage"
    delete("keystoneusers", "late-user")
    log("Keystone outage: the orders waited and converged, no duplicates")

    # The user's hold while assignments name it, released when the last goes.
    delete("keystoneusers", "alice")
    eventually(lambda: reason("keystoneusers", "alice", "UserReady") == "ReferencedByRoleAssignments",
               "alice held by its assignments", 120)
    assert ks.exists("user", uid), "a held user stays in Keystone"
    for n in ("ra-member", "ra-race-a", "ra-race-b", "ra-late"):
        delete("keystoneroleassignments", n)
    eventually(lambda: get("keystoneusers", "alice") is None and get("keystoneusers", "late-user") is None,
               "alice released and gone, late-user gone", 180)
    assert ks.named("user", "late-user") == [], "late-user removed from Keystone"
    eventually(lambda: not ks.exists("user", uid), "alice gone from Keystone", 60)
    delete("keystoneprojects", "team")
    delete("keystoneprojects", "outage")
    eventually(lambda: not get("keystoneprojects", "team") and not get("keystoneprojects", "outage"),
               "projects gone", 180)
    assert ks.named("project", "team") == [] and ks.named("project", "outage") == [] and ks.named("user", "alice") == []
    assert not ks.exists("project", pid), "team's project removed from Keystone by its id"
    assert ks.exists("role", "member") and ks.exists("role", "reader"), "imported roles are kept"
    log("hold: alice held while assigned, released by the last assignment's deletion; nothing left")


def credential_kill_and_restart(api, core, ks, uid, ops, create, get, ready, delete):
    """Issue 14: a KeystoneApplicationCredential of alice on team; its delivered clouds.yaml authenticates as the
    application credential scoped to team; credentialGeneration 2 with the operator killed (-9) after the new
    credential is minted in Keystone and before the switch, then restarted: no second mint, the rotation completes,
    the old credential is deleted after the grace period."""
    label = "c5c3.io/keystoneapplicationcredential-name=creds"

    def korc_credentials():
        return api.list_namespaced_custom_object("openstack.k-orc.cloud", "v1alpha1", "openstack",
                                                 "applicationcredentials", label_selector=label)["items"]

    def delivered():
        return base64.b64decode(core.read_namespaced_secret("creds-credentials", NS).data["clouds.yaml"]).decode()

    def available(o):
        c = condition(o, "Available")
        return c and c["status"] == "True"

    create("keystoneapplicationcredentials", "KeystoneApplicationCredential", "creds",
           {"userRef": {"name": "alice"}, "projectRef": {"name": "team"},
            "rotation": {"interval": "1h", "gracePeriod": "5s"}})
    first = eventually(lambda: ready("keystoneapplicationcredentials", "creds"), "creds Ready", 180)["status"]
    first_clouds = delivered()
    assert clouds_token(first_clouds, ks.env["KEYSTONE_AUTH_URL"]) == ("ok", "team"), \
        "the delivered clouds.yaml authenticates as the application credential, scoped to team"
    assert ks.app_credentials(uid) == [first["credentialID"]], ks.app_credentials(uid)

    # K-ORC paused: the operator mints generation 2 (its Secret and K-ORC object) and waits for it.
    world, operator = ops["world"], ops["operator"]
    world.send_signal(signal.SIGSTOP)
    try:
        api.patch_namespaced_custom_object(GRP, VER, NS, "keystoneapplicationcredentials", "creds",
                                           {"spec": {"credentialGeneration": 2}})
        eventually(lambda: len(korc_credentials()) == 2, "the operator mints credential-v2", 60)
        operator.send_signal(signal.SIGSTOP)  # before the switch
    finally:
        world.send_signal(signal.SIGCONT)
    minted = eventually(lambda: [o for o in korc_credentials() if available(o) and
                                 (o.get("status") or {}).get("id") != first["credentialID"]],
                        "credential-v2 minted in Keystone", 60)[0]
    second_id = minted["status"]["id"]
    assert ks.app_credentials(uid) == sorted([first["credentialID"], second_id]), ks.app_credentials(uid)
    assert get("keystoneapplicationcredentials", "creds")["status"]["credentialGeneration"] == 1, "not switched yet"
    operator.kill()
    operator.wait()
    log("operator killed (-9) after credential-v2 was minted in Keystone, before the switch; restarting it")
    ops["operator"] = ops["start_operator"]("operator-restarted")

    def switched():
        k, listed = len(korc_credentials()), ks.app_credentials(uid)
        assert k <= 2 and len(listed) <= 2, f"a second mint: {k} K-ORC objects, {listed} in Keystone"
        o = ready("keystoneapplicationcredentials", "creds")
        return o if o and o["status"]["credentialGeneration"] == 2 and \
            o["status"]["credentialID"] == second_id else None

    eventually(switched, "the rotation completes after the restart", 180, tolerate=())
    assert clouds_token(delivered(), ks.env["KEYSTONE_AUTH_URL"]) == ("ok", "team"), "the new credential works"

    def superseded_deleted():
        listed = ks.app_credentials(uid)
        assert len(listed) <= 2 and set(listed) <= {first["credentialID"], second_id}, listed
        return listed == [second_id] and len(korc_credentials()) == 1

    eventually(superseded_deleted, "the old credential deleted after the grace period", 120, tolerate=())
    assert clouds_token(first_clouds, ks.env["KEYSTONE_AUTH_URL"]) == ("refused", None), "the old one is refused"
    log("kill -9 mid-rotation: no second mint, the switch after the restart, the old credential deleted after grace")

    delete("keystoneapplicationcredentials", "creds")
    eventually(lambda: get("keystoneapplicationcredentials", "creds") is None, "creds gone", 180)
    assert ks.app_credentials(uid) == [] and korc_credentials() == [], "every credential gone with the order"


if __name__ == "__main__":
    main(*sys.argv[1:4])
