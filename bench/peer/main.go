// The controller-runtime side of the side by side (issue 19, bench/README.md "bench/peer").
//
// A manager with a no-op reconciler of RabbitMQVhost orders that caches, with
// controller-runtime's cache, exactly the kinds and label selections the C++
// operator's RabbitMQVhost controller caches (watches_of of
// actors/c5c3/rabbitmqvhost/declaration.cpp) and the operator-wide ones (the
// ControlPlanes, the CRDs, the target-cluster Secrets of the operator's
// namespace). Core kinds (Secret) are typed; custom resources are unstructured,
// as a Go operator that does not import the CRDs' Go types would cache them.
// Every informer strips metadata.managedFields (cache.TransformStripManagedFields,
// as the C++ informers do).
//
// It starts the manager, waits until every informer has synced and the object
// counts have not moved for --settle, and prints one JSON line: the counts per
// informer, VmRSS of /proc/self/status as it stands (the figure a Go operator
// runs at) and its peak VmHWM (the initial lists), then after runtime.GC +
// debug.FreeOSMemory (the least it can run at), and Go's heap in use. Then it
// exits. With --hold it prints only its sync time once synced and watches on
// until SIGTERM: its CPU beside the operator's through a convergence (P3).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/selection"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

const (
	labelName     = "c5c3.io/rabbitmqvhost-name" // the children's (rabbitmqvhost/constants.hpp)
	labelPartOf   = "app.kubernetes.io/part-of"  // the cluster operator's Secrets: part-of=rabbitmq
	labelTarget   = "c5c3.io/target-cluster"     // target-cluster kubeconfig Secrets
	orderGroupVer = "c5c3.io/v1alpha1"
)

// One informer: an object of its kind, its label selector, its namespace ("" all).
type informerSel struct {
	name      string
	obj       client.Object
	selector  labels.Selector
	namespace string
	count     atomic.Int64
}

func unstr(apiVersion, kind string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		panic(err)
	}
	u.SetGroupVersionKind(gv.WithKind(kind))
	return u
}

func exists(key string) labels.Selector {
	r, err := labels.NewRequirement(key, selection.Exists, nil)
	if err != nil {
		panic(err)
	}
	return labels.NewSelector().Add(*r)
}

func equals(key, value string) labels.Selector {
	return labels.SelectorFromSet(labels.Set{key: value})
}

// A field of /proc/self/status in KiB: "VmRSS", "VmHWM".
func statusKiB(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, field+":") {
			f := strings.Fields(line)
			v, _ := strconv.ParseInt(f[1], 10, 64)
			return v
		}
	}
	return 0
}

type counter struct{ n *atomic.Int64 }

func (c counter) OnAdd(any, bool)   { c.n.Add(1) }
func (c counter) OnUpdate(any, any) {}
func (c counter) OnDelete(any)      { c.n.Add(-1) }

func main() {
	operatorNamespace := flag.String("operator-namespace", "c5c3-system", "the operator's namespace (target-cluster Secrets)")
	settle := flag.Duration("settle", 5*time.Second, "how long the counts must stay still after sync")
	timeout := flag.Duration("timeout", 30*time.Minute, "give up after")
	hold := flag.Bool("hold", false, "once synced, print {\"synced_seconds\": S} and keep watching until SIGTERM "+
		"(bench_rabbitmqvhost.py --peer: the peer's CPU beside the operator's during a convergence)")
	flag.Parse()
	log.SetLogger(zap.New(zap.UseDevMode(false), zap.WriteTo(os.Stderr)))

	cfg, err := ctrl.GetConfig() // --kubeconfig (controller-runtime's flag)
	if err != nil {
		fail(err)
	}
	cfg.QPS, cfg.Burst = 200, 400

	order := unstr(orderGroupVer, "RabbitMQVhost")
	// The main cache: one selection per kind (controller-runtime's ByObject).
	main := []*informerSel{
		{name: "RabbitMQVhost", obj: order},
		{name: "Vhost " + labelName, obj: unstr("rabbitmq.com/v1beta1", "Vhost"), selector: exists(labelName)},
		{name: "User " + labelName, obj: unstr("rabbitmq.com/v1beta1", "User"), selector: exists(labelName)},
		{name: "Permission " + labelName, obj: unstr("rabbitmq.com/v1beta1", "Permission"), selector: exists(labelName)},
		{name: "PushSecret " + labelName, obj: unstr("external-secrets.io/v1alpha1", "PushSecret"), selector: exists(labelName)},
		{name: "Secret " + labelName, obj: &corev1.Secret{}, selector: exists(labelName)},
		{name: "RabbitmqCluster", obj: unstr("rabbitmq.com/v1beta1", "RabbitmqCluster")},
		{name: "SecretStore", obj: unstr("external-secrets.io/v1", "SecretStore")},
		{name: "ClusterSecretStore", obj: unstr("external-secrets.io/v1", "ClusterSecretStore")},
		{name: "ControlPlane", obj: unstr(orderGroupVer, "ControlPlane")},
		{name: "CustomResourceDefinition", obj: unstr("apiextensions.k8s.io/v1", "CustomResourceDefinition")},
	}
	// A second and third selection of Secrets need caches of their own (a
	// cache holds one selection per kind), as a Go operator would add them.
	extra := []*informerSel{
		{name: "Secret " + labelPartOf + "=rabbitmq", obj: &corev1.Secret{}, selector: equals(labelPartOf, "rabbitmq")},
		{name: "Secret " + labelTarget + " in " + *operatorNamespace, obj: &corev1.Secret{}, selector: exists(labelTarget),
			namespace: *operatorNamespace},
	}
	byObject := func(sels []*informerSel) map[client.Object]cache.ByObject {
		m := map[client.Object]cache.ByObject{}
		for _, s := range sels {
			b := cache.ByObject{Label: s.selector}
			if s.namespace != "" {
				b.Namespaces = map[string]cache.Config{s.namespace: {}}
			}
			m[s.obj] = b
		}
		return m
	}
	mgr, err := ctrl.NewManager(cfg, manager.Options{
		Scheme:                 clientgoscheme.Scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		LeaderElection:         false,
		Cache: cache.Options{
			ByObject:         byObject(main),
			DefaultTransform: cache.TransformStripManagedFields(),
		},
	})
	if err != nil {
		fail(err)
	}
	var caches []cache.Cache
	for _, s := range extra {
		c, err := cache.New(cfg, cache.Options{
			Scheme: mgr.GetScheme(), Mapper: mgr.GetRESTMapper(),
			ByObject:         byObject([]*informerSel{s}),
			DefaultTransform: cache.TransformStripManagedFields(),
		})
		if err != nil {
			fail(err)
		}
		if err := mgr.Add(c); err != nil {
			fail(err)
		}
		caches = append(caches, c)
	}
	// The no-op reconciler: RabbitMQVhost orders, woken by their labelled children.
	noop := reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
		return reconcile.Result{}, nil
	})
	byLabels := handler.EnqueueRequestsFromMapFunc(func(_ context.Context, o client.Object) []reconcile.Request {
		l := o.GetLabels()
		if l[labelName] == "" {
			return nil
		}
		return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: l["c5c3.io/rabbitmqvhost-namespace"], Name: l[labelName]}}}
	})
	b := ctrl.NewControllerManagedBy(mgr).Named("rabbitmqvhost").For(order)
	for _, s := range main[1:6] {
		b = b.Watches(s.obj, byLabels)
	}
	if err := b.Complete(noop); err != nil {
		fail(err)
	}

	ctx, cancel := context.WithTimeout(ctrl.SetupSignalHandler(), *timeout)
	defer cancel()
	go func() {
		if err := mgr.Start(ctx); err != nil {
			fail(err)
		}
	}()
	start := time.Now()
	register := func(c cache.Cache, s *informerSel) {
		inf, err := c.GetInformer(ctx, s.obj) // blocks until synced
		if err != nil {
			fail(fmt.Errorf("%s: %w", s.name, err))
		}
		if _, err := inf.AddEventHandler(counter{&s.count}); err != nil {
			fail(err)
		}
	}
	if !mgr.GetCache().WaitForCacheSync(ctx) {
		fail(fmt.Errorf("the manager's cache did not sync"))
	}
	for _, s := range main {
		register(mgr.GetCache(), s)
	}
	for i, s := range extra {
		if !caches[i].WaitForCacheSync(ctx) {
			fail(fmt.Errorf("cache %s did not sync", s.name))
		}
		register(caches[i], s)
	}
	synced := time.Since(start)
	if *hold {
		line, _ := json.Marshal(map[string]any{"synced_seconds": synced.Seconds()})
		fmt.Println(string(line))
		<-ctx.Done()
		os.Exit(0)
	}
	all := append(append([]*informerSel{}, main...), extra...)
	total := func() int64 {
		var n int64
		for _, s := range all {
			n += s.count.Load()
		}
		return n
	}
	last, still := total(), time.Now()
	for time.Since(still) < *settle {
		time.Sleep(200 * time.Millisecond)
		if n := total(); n != last {
			last, still = n, time.Now()
		}
	}
	counts := map[string]int64{}
	for _, s := range all {
		counts[s.name] = s.count.Load()
	}
	out := map[string]any{"synced_seconds": synced.Seconds(), "counts": counts, "orders": counts["RabbitMQVhost"],
		"objects": total(), "rss_kib": statusKiB("VmRSS"), "hwm_kib": statusKiB("VmHWM")}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	out["heap_inuse_kib"] = ms.HeapInuse / 1024
	runtime.GC()
	debug.FreeOSMemory()
	runtime.ReadMemStats(&ms)
	out["rss_after_gc_kib"] = statusKiB("VmRSS")
	out["heap_inuse_after_gc_kib"] = ms.HeapInuse / 1024
	out["heap_alloc_after_gc_kib"] = ms.HeapAlloc / 1024
	line, _ := json.Marshal(out)
	fmt.Println(string(line))
	os.Exit(0)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "peer:", err)
	os.Exit(1)
}
