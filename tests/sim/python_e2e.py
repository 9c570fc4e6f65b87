"""e2e: Debian's python3-kubernetes lists and watches through the emulator."""
import sys
import threading

from kubernetes import client, config, watch


def main(kubeconfig):
    config.load_kube_config(config_file=kubeconfig)
    v1 = client.CoreV1Api()
    names = [n.metadata.name for n in v1.list_namespace().items]
    assert "default" in names, names
    v1.create_namespaced_config_map("default", client.V1ConfigMap(
        metadata=client.V1ObjectMeta(name="py-a", labels={"app": "py"}), data={"k": "v"}))
    cms = v1.list_namespaced_config_map("default", label_selector="app=py")
    assert [c.metadata.name for c in cms.items] == ["py-a"], cms
    rv = cms.metadata.resource_version

    def writer():
        v1.create_namespaced_config_map("default", client.V1ConfigMap(
            metadata=client.V1ObjectMeta(name="py-b", labels={"app": "py"})))
        v1.patch_namespaced_config_map("py-b", "default", {"data": {"x": "y"}})
        v1.delete_namespaced_config_map("py-b", "default")

    t = threading.Thread(target=writer)
    t.start()
    seen = []
    w = watch.Watch()
    for ev in w.stream(v1.list_namespaced_config_map, "default", label_selector="app=py",
                       resource_version=rv, timeout_seconds=20):
        seen.append((ev["type"], ev["object"].metadata.name))
        if len(seen) == 3:
            w.stop()
    t.join()
    assert seen == [("ADDED", "py-b"), ("MODIFIED", "py-b"), ("DELETED", "py-b")], seen
    try:
        v1.read_namespaced_config_map("py-b", "default")
        raise AssertionError("py-b still there")
    except client.exceptions.ApiException as e:
        assert e.status == 404, e
    print("python e2e: ok")


if __name__ == "__main__":
    main(sys.argv[1])
