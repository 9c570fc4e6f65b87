#include "actors/runtime/controller_metrics.hpp"

namespace c5c3::runtime {

const std::vector<double>& reconcile_time_buckets() {
  static const std::vector<double> b{0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35,
                                     0.4,   0.45, 0.5,   0.6,  0.7, 0.8,  0.9, 1.0,  1.25, 1.5,
                                     1.75,  2.0,  2.5,   3.0,  3.5, 4.0,  4.5, 5,    6,    7,
                                     8,     9,    10,    15,   20,  25,   30,  40,   50,   60};
  return b;
}

const std::vector<double>& workqueue_duration_buckets() {
  static const std::vector<double> b = metrics::exponential_buckets(10e-9, 10, 12);
  return b;
}

namespace {
metrics::counter& reconcile_total(metrics::registry& reg, const std::string& c, const char* r) {
  return reg
      .counter("controller_runtime_reconcile_total", "Total number of reconciliations per controller",
               {"controller", "result"})
      .with({c, r});
}
}  // namespace

controller_metrics::controller_metrics(metrics::registry& reg, const std::string& c)
    : controller(c),
      reconcile_success(reconcile_total(reg, c, "success")),
      reconcile_error(reconcile_total(reg, c, "error")),
      reconcile_requeue(reconcile_total(reg, c, "requeue")),
      reconcile_requeue_after(reconcile_total(reg, c, "requeue_after")),
      reconcile_errors(reg.counter("controller_runtime_reconcile_errors_total",
                                   "Total number of reconciliation errors per controller",
                                   {"controller"})
                           .with({c})),
      reconcile_time(reg.histogram("controller_runtime_reconcile_time_seconds",
                                   "Length of time per reconciliation per controller",
                                   {"controller"}, reconcile_time_buckets())
                         .with({c})),
      max_concurrent_reconciles(
          reg.gauge("controller_runtime_max_concurrent_reconciles",
                    "Maximum number of concurrent reconciles per controller", {"controller"})
              .with({c})),
      active_workers(reg.gauge("controller_runtime_active_workers",
                               "Number of currently used workers per controller", {"controller"})
                         .with({c})),
      depth(reg.gauge("workqueue_depth", "Current depth of workqueue", {"name", "controller"})
                .with({c, c})),
      adds(reg.counter("workqueue_adds_total", "Total number of adds handled by workqueue",
                       {"name", "controller"})
               .with({c, c})),
      queue_duration(
          reg.histogram("workqueue_queue_duration_seconds",
                        "How long in seconds an item stays in workqueue before being requested",
                        {"name", "controller"}, workqueue_duration_buckets())
              .with({c, c})),
      work_duration(reg.histogram("workqueue_work_duration_seconds",
                                  "How long in seconds processing an item from workqueue takes.",
                                  {"name", "controller"}, workqueue_duration_buckets())
                        .with({c, c})),
      retries(reg.counter("workqueue_retries_total", "Total number of retries handled by workqueue",
                          {"name", "controller"})
                  .with({c, c})),
      order_actors(reg.gauge("c5c3_order_actors", "Number of live order actors per controller",
                             {"controller"})
                       .with({c})),
      orders_parked(reg.gauge("c5c3_orders_parked",
                              "Converged orders whose actor is parked until an event or a timer wakes it",
                              {"controller"})
                        .with({c})),
      child_echoes(reg.counter("c5c3_child_echoes_total",
                               "Events of an order's children that woke no pass: the echoes of its own writes",
                               {"controller"})
                       .with({c})),
      host_mailbox_depth(reg.gauge("c5c3_mailbox_depth",
                                   "Messages waiting in an actor's mailbox when it last handled one",
                                   {"controller", "actor"})
                             .with({c, "order_host"})),
      order_mailbox_depth(reg.gauge("c5c3_mailbox_depth",
                                    "Messages waiting in an actor's mailbox when it last handled one",
                                    {"controller", "actor"})
                              .with({c, "order"})) {
  auto& family = reg.counter("c5c3_pass_wakes_total", "Wake-ups of an order that queued a pass, by what woke it",
                             {"controller", "cause"});
  for (std::size_t i = 0; i < protocol::wake_causes.size(); ++i)
    wakes_[i] = &family.with({c, std::string(protocol::wake_causes[i])});
}

rest_client_metrics::rest_client_metrics(metrics::registry& reg)
    : requests_(reg.counter("rest_client_requests_total",
                            "Number of HTTP requests, partitioned by status code, method, and host.",
                            {"code", "method", "host"})) {}

void rest_client_metrics::request(int code, std::string_view method, std::string_view host) {
  requests_.with({code > 0 ? std::to_string(code) : std::string("<error>"), std::string(method),
                  std::string(host)})
      .inc();
}

}  // namespace c5c3::runtime
