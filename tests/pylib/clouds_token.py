"""A token from a delivered clouds.yaml through keystoneauth1, as a client of the cloud would get one.

The cloud's auth_type picks the plugin: v3applicationcredential (application_credential_id and _secret) or the
password (username, password, user_domain_name, and project_name when the document scopes to a project).
`auth_url` overrides the document's (an in-cluster URL the test cannot reach); None keeps it.

As a program (for the C++ tests): clouds_token.py CLOUDS_YAML_FILE prints `ok <project name>` and exits 0,
prints `refused` and exits 3 when Keystone refuses the credentials (401, or 404 for an application credential
it no longer knows), or exits 1 with the error.
"""
import sys

import yaml
from keystoneauth1 import exceptions as ks_exceptions
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3


def token(clouds_yaml, auth_url=None):
    """("ok", project name or None) or ("refused", None)."""
    cloud = next(iter(yaml.safe_load(clouds_yaml)["clouds"].values()))
    auth = dict(cloud["auth"])
    url = auth_url or auth["auth_url"]
    if cloud.get("auth_type") == "v3applicationcredential":
        plugin = v3.ApplicationCredential(auth_url=url, application_credential_id=auth["application_credential_id"],
                                          application_credential_secret=auth["application_credential_secret"])
    else:
        scope = {k: auth[k] for k in ("project_name", "project_domain_name") if k in auth}
        plugin = v3.Password(auth_url=url, username=auth["username"], password=auth["password"],
                             user_domain_name=auth.get("user_domain_name", "Default"), **scope)
    session = ks_session.Session(auth=plugin)
    try:
        session.get_token()
    except (ks_exceptions.Unauthorized, ks_exceptions.NotFound):  # a deleted application credential is a 404
        return "refused", None
    access = plugin.get_access(session)
    return "ok", access.project_name


def main(path):
    with open(path) as f:
        verdict, project = token(f.read())
    print(verdict if verdict != "ok" else f"ok {project}")
    return 0 if verdict == "ok" else 3


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
