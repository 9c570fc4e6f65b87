#!/usr/bin/python3
"""A real client of the test's Keystone (keystoneauth1, from Debian).

Reads a JSON list of checks on stdin and prints one JSON answer per line:
  {"exists": "/v3/projects/<id>"}              -> "ok" (200) or "missing" (404)
  {"password": {"user": "...", "password_env": "VAR", "project": "..."}}
                                                -> "ok" (a token) or "refused" (401)
  {"appcred": {"id": "...", "secret_env": "VAR"}}  -> "ok" or "refused"/"missing"
  {"count": "/v3/projects?name=x", "key": "projects"} -> the number of items
The admin authenticates with KEYSTONE_AUTH_URL and KEYSTONE_ADMIN_PASSWORD.
Secrets come through the environment, never through argv or the output.
"""
import json
import os
import sys

from keystoneauth1 import exceptions, session
from keystoneauth1.identity import v3


def admin_session():
    auth = v3.Password(auth_url=os.environ["KEYSTONE_AUTH_URL"], username="admin",
                       password=os.environ["KEYSTONE_ADMIN_PASSWORD"], project_name="admin",
                       user_domain_name="Default", project_domain_name="Default")
    return session.Session(auth=auth)


def token_answer(auth):
    try:
        session.Session(auth=auth).get_token()
        return "ok"
    except exceptions.Unauthorized:
        return "refused"
    except exceptions.NotFound:
        return "missing"
    except Exception as e:  # noqa: BLE001 - reported, not raised
        return "error: " + type(e).__name__


def main():
    checks = json.load(sys.stdin)
    admin = admin_session()
    url = os.environ["KEYSTONE_AUTH_URL"].rsplit("/v3", 1)[0]
    for c in checks:
        if "exists" in c:
            r = admin.get(url + c["exists"], raise_exc=False)
            print(json.dumps("ok" if r.status_code == 200 else "missing" if r.status_code == 404 else r.status_code))
        elif "count" in c:
            r = admin.get(url + c["count"], raise_exc=False)
            print(json.dumps(len(r.json().get(c["key"], [])) if r.status_code == 200 else r.status_code))
        elif "password" in c:
            p = c["password"]
            kw = {"project_name": p["project"], "project_domain_name": "Default"} if p.get("project") else {}
            print(json.dumps(token_answer(v3.Password(auth_url=os.environ["KEYSTONE_AUTH_URL"], username=p["user"],
                                                      password=os.environ[p["password_env"]],
                                                      user_domain_name="Default", **kw))))
        elif "appcred" in c:
            a = c["appcred"]
            print(json.dumps(token_answer(v3.ApplicationCredential(
                auth_url=os.environ["KEYSTONE_AUTH_URL"], application_credential_id=a["id"],
                application_credential_secret=os.environ[a["secret_env"]]))))
        else:
            print(json.dumps("unknown check"))


if __name__ == "__main__":
    main()
