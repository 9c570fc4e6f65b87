// bench_apiserver: requests per second and latency of the API server emulator
// (get, list, create, server-side apply), watch events delivered per second
// to parallel watchers while one writer updates objects, and memory per stored
// object. The emulator runs in this process; every request goes over a real
// socket (TLS by default, --plain-http for plain TCP). Prints one table.
#include "bench/apiserver/load.hpp"
#include "bench/apiserver/report.hpp"
#include "sim/apiserver/apiserver.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#ifndef C5C3_SOURCE_DIR
#define C5C3_SOURCE_DIR "."
#endif

namespace fs = std::filesystem;
using namespace c5c3;
using namespace c5c3::bench;

namespace {

struct options {
  bool plain_http = false;
  double duration_s = 5;  // of each timed phase
  int connections = 4;
  int threads = 1;
  int watchers = 10;
  int list_size = 1000;
  int apply_objects = 100;
  int watch_objects = 100;
  std::size_t watch_history = sim::apiserver_options{}.watch_history;
  int memory_secrets = 5000;
  int memory_crs = 1000;
  std::string crd = C5C3_SOURCE_DIR "/deploy/crds/c5c3.io_rabbitmqvhosts.yaml";
  bool data_dir = false;  // persist to a fresh temporary --data-dir
  bool openapi = true;    // time /openapi/v3
};

void usage() {
  std::cout << "usage: bench_apiserver [options]\n"
               "  --plain-http          plain TCP instead of TLS\n"
               "  --duration S          seconds of each timed phase (default 5)\n"
               "  --connections N       parallel keep-alive connections (default 4)\n"
               "  --threads N           client I/O threads (default 1)\n"
               "  --watchers N          parallel watch streams (default 10)\n"
               "  --list-size N         Secrets in the listed namespace (default 1000)\n"
               "  --apply-objects N     Secrets the apply phase cycles through (default 100)\n"
               "  --watch-objects N     Secrets the watch writer cycles through (default 100)\n"
               "  --watch-history N     watch events the emulator keeps (its default 1000); a watcher further\n"
               "                        behind gets 410 Expired and its stream ends\n"
               "  --memory-secrets N    Secrets stored for the memory figure (default 5000)\n"
               "  --memory-crs N        RabbitMQVhosts stored for the memory figure (default 1000; 0 skips)\n"
               "  --crd FILE            the RabbitMQVhost CRD (default deploy/crds/c5c3.io_rabbitmqvhosts.yaml)\n"
               "  --data-dir            persist state in a fresh temporary data dir (every write is saved)\n"
               "  --no-openapi          skip the /openapi/v3 rows\n";
}

options parse_options(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    std::string v;
    if (auto eq = a.find('='); eq != std::string::npos) {
      v = a.substr(eq + 1);
      a.resize(eq);
    }
    auto value = [&]() -> std::string {
      if (!v.empty()) return v;
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    auto count = [&] {
      int n = std::stoi(value());
      if (n < 0) throw std::runtime_error(a + " must not be negative");
      return n;
    };
    if (a == "--help" || a == "-h") {
      usage();
      std::exit(0);
    } else if (a == "--plain-http") {
      o.plain_http = true;
    } else if (a == "--duration") {
      o.duration_s = std::stod(value());
    } else if (a == "--connections") {
      o.connections = std::max(1, count());
    } else if (a == "--threads") {
      o.threads = std::max(1, count());
    } else if (a == "--watchers") {
      o.watchers = std::max(1, count());
    } else if (a == "--list-size") {
      o.list_size = count();
    } else if (a == "--apply-objects") {
      o.apply_objects = std::max(1, count());
    } else if (a == "--watch-objects") {
      o.watch_objects = std::max(1, count());
    } else if (a == "--watch-history") {
      o.watch_history = static_cast<std::size_t>(std::max(1, count()));
    } else if (a == "--memory-secrets") {
      o.memory_secrets = count();
    } else if (a == "--memory-crs") {
      o.memory_crs = count();
    } else if (a == "--crd") {
      o.crd = value();
    } else if (a == "--data-dir") {
      o.data_dir = true;
    } else if (a == "--no-openapi") {
      o.openapi = false;
    } else {
      throw std::runtime_error("unknown option " + a + " (see --help)");
    }
  }
  return o;
}

// ~1 KiB of Secret data: 936 base64 characters (702 bytes decoded).
const std::string& payload() {
  static const std::string p = [] {
    std::string s;
    for (int i = 0; i < 234; ++i) s += "YmVu";
    return s;
  }();
  return p;
}

std::string secret_json(const std::string& ns, const std::string& name) {
  return fmt::format(R"({{"apiVersion":"v1","kind":"Secret","metadata":{{"name":"{}","namespace":"{}"}},)"
                     R"("type":"Opaque","data":{{"payload":"{}"}}}})",
                     name, ns, payload());
}

std::string vhost_json(const std::string& ns, const std::string& name) {
  return fmt::format(R"({{"apiVersion":"c5c3.io/v1alpha1","kind":"RabbitMQVhost","metadata":{{"name":"{}",)"
                     R"("namespace":"{}"}},"spec":{{"controlPlaneRef":{{"name":"control-plane"}}}}}})",
                     name, ns);
}

request create_secret(const std::string& ns, const std::string& name) {
  return {"POST", "/api/v1/namespaces/" + ns + "/secrets", "application/json", secret_json(ns, name)};
}

std::chrono::milliseconds phase_duration(const options& o) {
  return std::chrono::milliseconds(static_cast<std::int64_t>(o.duration_s * 1000));
}

// Untimed set-up requests; any failure ends the benchmark.
load_result setup(const endpoint& ep, int connections, std::uint64_t n, std::function<request(std::uint64_t)> make,
                  const char* what) {
  load_spec s;
  s.connections = connections;
  s.requests = n;
  s.make = std::move(make);
  auto r = run_load(ep, s);
  if (r.failed) throw std::runtime_error(fmt::format("set-up '{}' failed: {}", what, r.first_failure));
  return r;
}

std::string fixed(double v, int digits) { return fmt::format("{:.{}f}", v, digits); }

void add_load_row(table& t, const std::string& name, int conns, load_result r, const std::string& note) {
  double rate = r.seconds > 0 ? static_cast<double>(r.ok) / r.seconds : 0;
  auto p50 = percentile(r.latency_ms, 50);
  auto p99 = percentile(r.latency_ms, 99);
  std::string n = note;
  if (!r.first_failure.empty()) n += (n.empty() ? "" : "; ") + std::string("first error: ") + r.first_failure.substr(0, 120);
  t.add({name, std::to_string(conns), std::to_string(r.ok), std::to_string(r.failed), fixed(r.seconds, 2),
         fixed(rate, 0) + " req/s", fixed(p50, 2), fixed(p99, 2), n});
}

std::int64_t body_resource_version(const std::string& body) {
  constexpr std::string_view key = "\"resourceVersion\":\"";
  auto at = body.find(key);
  if (at == std::string::npos) return 0;
  return std::strtoll(body.c_str() + at + key.size(), nullptr, 10);
}

// RSS growth per object while `n` objects are created (write log cleared, free
// heap returned before both readings).
struct memory_figure {
  load_result load;
  std::uint64_t rss_before = 0, rss_after = 0;
  std::uint64_t data_before = 0, data_after = 0;
  double stored_json_bytes = 0;
};

memory_figure measure_memory(sim::apiserver& srv, const endpoint& ep, int connections, int n,
                             const std::string& resource, std::function<request(std::uint64_t)> make) {
  memory_figure m;
  srv.clear_write_log();
  trim_heap();
  m.rss_before = resident_bytes();
  m.data_before = data_bytes();
  m.load = setup(ep, connections, static_cast<std::uint64_t>(n), std::move(make), "store objects");
  srv.clear_write_log();
  trim_heap();
  m.rss_after = resident_bytes();
  m.data_after = data_bytes();
  auto objs = srv.list_objects(resource, "bench-mem");
  std::uint64_t bytes = 0;
  for (const auto& o : objs) bytes += o.to_json().size();
  m.stored_json_bytes = objs.empty() ? 0 : static_cast<double>(bytes) / static_cast<double>(objs.size());
  return m;
}

void add_memory_row(table& t, const std::string& name, int n, const memory_figure& m) {
  auto delta = static_cast<double>(m.rss_after) - static_cast<double>(m.rss_before);
  double per = n > 0 ? delta / n : 0;
  t.add({name, "-", std::to_string(m.load.ok), std::to_string(m.load.failed), fixed(m.load.seconds, 2),
         fixed(per, 0) + " B/object", "-", "-",
         fmt::format("RSS {:.1f} -> {:.1f} MiB for {} objects; VmData +{:.0f} B/object; stored JSON {:.0f} B each",
                     static_cast<double>(m.rss_before) / 1048576.0, static_cast<double>(m.rss_after) / 1048576.0, n,
                     n > 0 ? (static_cast<double>(m.data_after) - static_cast<double>(m.data_before)) / n : 0.0,
                     m.stored_json_bytes)});
}

int run(const options& o) {
  sim::apiserver_options so;
  so.plain_http = o.plain_http;
  so.watch_history = o.watch_history;
  fs::path crd_dir;
  bool with_crd = o.memory_crs > 0 && fs::exists(o.crd);
  if (with_crd) {
    crd_dir = fs::temp_directory_path() / fmt::format("bench_apiserver_{}", ::getpid());
    fs::create_directories(crd_dir);
    fs::copy_file(o.crd, crd_dir / fs::path(o.crd).filename(), fs::copy_options::overwrite_existing);
    so.crd_dirs.push_back(crd_dir.string());
  }
  fs::path data_dir;
  if (o.data_dir) {
    data_dir = fs::temp_directory_path() / fmt::format("bench_apiserver_data_{}", ::getpid());
    fs::remove_all(data_dir);
    so.data_dir = data_dir.string();
  }
  sim::apiserver srv(so);
  srv.start();
  if (with_crd) fs::remove_all(crd_dir);
  auto ep = endpoint_from_url(srv.url(), srv.ca_pem(), srv.token());
  auto conns = o.connections;
  auto dur = phase_duration(o);
  std::string load_before = load_average();

  table t({"benchmark", "conns", "ok", "errors", "seconds", "rate", "p50 ms", "p99 ms", "notes"});

  const std::vector<std::string> namespaces = {"bench-mem", "bench-get", "bench-list", "bench-create",
                                               "bench-apply", "bench-watch"};
  setup(ep, 1, namespaces.size(), [&](std::uint64_t i) {
    return request{"POST", "/api/v1/namespaces", "application/json",
                   fmt::format(R"({{"apiVersion":"v1","kind":"Namespace","metadata":{{"name":"{}"}}}})", namespaces[i])};
  }, "namespaces");
  // Warm-up: touch the request paths once before anything is measured.
  setup(ep, conns, 200, [](std::uint64_t) { return request{"GET", "/api/v1/namespaces/bench-get", "", ""}; },
        "warm-up");

  // Memory first, while the heap has not yet been grown by large list answers.
  if (o.memory_secrets > 0) {
    auto m = measure_memory(srv, ep, conns, o.memory_secrets, "secrets", [](std::uint64_t i) {
      return create_secret("bench-mem", fmt::format("mem-{}", i));
    });
    add_memory_row(t, "memory per Secret (~1 KiB data)", o.memory_secrets, m);
  }
  if (with_crd) {
    auto crd = srv.get_object("customresourcedefinitions.apiextensions.k8s.io", "", "rabbitmqvhosts.c5c3.io");
    if (!crd) throw std::runtime_error("the RabbitMQVhost CRD was not created from " + o.crd);
    auto m = measure_memory(srv, ep, conns, o.memory_crs, "rabbitmqvhosts.c5c3.io", [](std::uint64_t i) {
      return request{"POST", "/apis/c5c3.io/v1alpha1/namespaces/bench-mem/rabbitmqvhosts", "application/json",
                     vhost_json("bench-mem", fmt::format("vhost-{}", i))};
    });
    add_memory_row(t, "memory per RabbitMQVhost (CR)", o.memory_crs, m);
  }

  auto timed = [&](int connections, std::function<request(std::uint64_t)> make) {
    srv.clear_write_log();
    load_spec s;
    s.connections = connections;
    s.threads = o.threads;
    s.duration = dur;
    s.make = std::move(make);
    return run_load(ep, s);
  };

  // /openapi/v3: the index (every group/version's hash) and one document
  if (o.openapi) {
    add_load_row(t, "GET /openapi/v3 (index)", conns,
                 timed(conns, [](std::uint64_t) { return request{"GET", "/openapi/v3", "", ""}; }), "");
    add_load_row(t, "GET /openapi/v3/api/v1", conns,
                 timed(conns, [](std::uint64_t) { return request{"GET", "/openapi/v3/api/v1", "", ""}; }), "");
  }

  // get of one Secret
  setup(ep, 1, 1, [](std::uint64_t) { return create_secret("bench-get", "one"); }, "get object");
  add_load_row(t, "get Secret", conns, timed(conns, [](std::uint64_t) {
                 return request{"GET", "/api/v1/namespaces/bench-get/secrets/one", "", ""};
               }), "");

  // list of list_size Secrets in one namespace
  if (o.list_size > 0) {
    setup(ep, conns, static_cast<std::uint64_t>(o.list_size),
          [](std::uint64_t i) { return create_secret("bench-list", fmt::format("list-{}", i)); }, "list objects");
    auto stored = srv.list_objects("secrets", "bench-list").size();
    if (stored != static_cast<std::size_t>(o.list_size))
      throw std::runtime_error(fmt::format("bench-list holds {} Secrets, not {}", stored, o.list_size));
    std::atomic<std::uint64_t> body_bytes{0};
    load_spec s;
    s.connections = conns;
    s.threads = o.threads;
    s.duration = dur;
    s.make = [](std::uint64_t) { return request{"GET", "/api/v1/namespaces/bench-list/secrets", "", ""}; };
    s.on_reply = [&](const reply& r) { body_bytes = r.body->size(); };
    srv.clear_write_log();
    auto r = run_load(ep, s);
    add_load_row(t, fmt::format("list {} Secrets", o.list_size), conns, std::move(r),
                 fmt::format("{:.2f} MiB a list", static_cast<double>(body_bytes.load()) / 1048576.0));
  }

  // create
  add_load_row(t, "create Secret", conns, timed(conns, [](std::uint64_t i) {
                 return create_secret("bench-create", fmt::format("create-{}", i));
               }), "POST, a new name each");

  // server-side apply, cycling through apply_objects Secrets that already exist
  auto apply = [n = o.apply_objects](std::uint64_t i) {
    auto name = fmt::format("apply-{}", i % static_cast<std::uint64_t>(n));
    return request{"PATCH", "/api/v1/namespaces/bench-apply/secrets/" + name + "?fieldManager=bench&force=true",
                   "application/apply-patch+yaml",
                   fmt::format(R"({{"apiVersion":"v1","kind":"Secret","metadata":{{"name":"{}","namespace":)"
                               R"("bench-apply","labels":{{"round":"r{}"}}}},"data":{{"payload":"{}"}}}})",
                               name, i, payload())};
  };
  setup(ep, conns, static_cast<std::uint64_t>(o.apply_objects), apply, "apply objects");
  add_load_row(t, "server-side apply Secret", conns,
               timed(conns, [apply, n = static_cast<std::uint64_t>(o.apply_objects)](std::uint64_t i) {
                 return apply(i + n);
               }),
               fmt::format("label changes on {} objects", o.apply_objects));

  // watch: `watchers` streams on one namespace, one writer patching objects
  setup(ep, conns, static_cast<std::uint64_t>(o.watch_objects),
        [](std::uint64_t i) { return create_secret("bench-watch", fmt::format("watch-{}", i)); }, "watch objects");
  auto from = srv.current_resource_version();
  {
    watch_group watchers(ep, fmt::format("/api/v1/namespaces/bench-watch/secrets?watch=1&resourceVersion={}", from),
                         o.watchers);
    if (!watchers.wait_ready(bench_clock::now() + std::chrono::seconds(20)))
      throw std::runtime_error("watch streams did not start: " + watchers.failure());
    std::mutex mu;
    std::unordered_map<std::int64_t, bench_clock::time_point> sent_at;
    bench_clock::time_point first_sent = bench_clock::time_point::max();
    load_spec s;
    s.connections = 1;
    s.duration = dur;
    s.make = [n = static_cast<std::uint64_t>(o.watch_objects)](std::uint64_t i) {
      return request{"PATCH", fmt::format("/api/v1/namespaces/bench-watch/secrets/watch-{}", i % n),
                     "application/merge-patch+json", fmt::format(R"({{"metadata":{{"labels":{{"round":"r{}"}}}}}})", i)};
    };
    s.on_reply = [&](const reply& r) {
      std::lock_guard lock(mu);
      if (r.sent < first_sent) first_sent = r.sent;
      if (r.status == 200) sent_at[body_resource_version(*r.body)] = r.sent;
    };
    srv.clear_write_log();
    auto writer = run_load(ep, s);
    auto expected = writer.ok * static_cast<std::uint64_t>(o.watchers);
    // Until every event arrived, or nothing arrives for 2 s (a stream ended), at most 30 s.
    auto deadline = bench_clock::now() + std::chrono::seconds(30);
    auto seen = watchers.total_events();
    auto progress = bench_clock::now();
    while (seen < expected && bench_clock::now() < deadline &&
           bench_clock::now() - progress < std::chrono::seconds(2)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      if (auto now_seen = watchers.total_events(); now_seen != seen) {
        seen = now_seen;
        progress = bench_clock::now();
      }
    }
    watchers.stop();
    std::vector<double> lag;
    std::uint64_t delivered = 0;
    auto last = first_sent;
    for (const auto& stream : watchers.events())
      for (const auto& e : stream) {
        auto it = sent_at.find(e.resource_version);
        if (it == sent_at.end()) continue;
        ++delivered;
        lag.push_back(std::chrono::duration<double, std::milli>(e.at - it->second).count());
        if (e.at > last) last = e.at;
      }
    load_result events;
    events.ok = delivered;
    events.failed = expected > delivered ? expected - delivered : 0;
    events.seconds = std::chrono::duration<double>(last - first_sent).count();
    events.latency_ms = std::move(lag);
    events.first_failure = watchers.failure();
    add_load_row(t, fmt::format("watch writer (merge patch)"), 1, writer,
                 fmt::format("while {} watchers stream; watch history {} events", o.watchers, o.watch_history));
    double rate = events.seconds > 0 ? static_cast<double>(events.ok) / events.seconds : 0;
    auto p50 = percentile(events.latency_ms, 50);
    auto p99 = percentile(events.latency_ms, 99);
    t.add({fmt::format("watch events to {} watchers", o.watchers), std::to_string(o.watchers),
           std::to_string(events.ok), std::to_string(events.failed), fixed(events.seconds, 2),
           fixed(rate, 0) + " events/s", fixed(p50, 2), fixed(p99, 2),
           "latency: write sent -> event received; errors: events missing" +
               (events.first_failure.empty() ? std::string() : "; " + events.first_failure)});
  }

  srv.stop();
  std::string persisted;
  if (o.data_dir) {
    std::uintmax_t bytes = 0;
    for (auto& f : fs::directory_iterator(data_dir))
      if (f.is_regular_file()) bytes += f.file_size();
    persisted = fmt::format("data dir: {:.1f} MiB at the end\n", static_cast<double>(bytes) / 1048576.0);
    fs::remove_all(data_dir);
  }
  std::cout << fmt::format(
      "bench_apiserver: emulator in process, {} over 127.0.0.1, {} s per timed phase, {} client I/O thread(s), "
      "{} hardware threads{}\nload average before: {}\nload average after:  {}\n{}\n",
      o.plain_http ? "plain HTTP" : "TLS", o.duration_s, o.threads, std::thread::hardware_concurrency(),
      o.data_dir ? ", state persisted (--data-dir)" : "", load_before, load_average(), persisted);
  std::cout << t.render();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse_options(argc, argv));
  } catch (const std::exception& e) {
    std::cerr << "bench_apiserver: " << e.what() << "\n";
    return 1;
  }
}
