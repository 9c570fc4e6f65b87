#include "actors/runtime/http_service.hpp"

#include "k8s/client/http.hpp"
#include "protocol/api_error.hpp"
#include "protocol/service.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/stateful_actor.hpp>

#include <map>
#include <memory>
#include <thread>
#include <tuple>

namespace c5c3::runtime {

namespace {

struct io_thread {
  boost::asio::io_context io;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work{io.get_executor()};
  std::thread thread{[this] { io.run(); }};
  ~io_thread() {
    work.reset();
    io.stop();
    if (thread.joinable()) {
      if (thread.get_id() == std::this_thread::get_id())
        thread.detach();
      else
        thread.join();
    }
  }
};

// Back from the io thread: the answer to request `id`.
struct service_done {
  std::uint64_t id = 0;
  k8s::rest_result result;
};

}  // namespace
}  // namespace c5c3::runtime

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::runtime::service_done)

namespace c5c3::runtime {
namespace {

struct service_state {
  static inline const char* name = "c5c3.http_service";
  std::unique_ptr<io_thread> engine = std::make_unique<io_thread>();
  using pool_key = std::tuple<bool, std::string, std::string, std::string, bool>;
  std::map<pool_key, std::shared_ptr<k8s::http_transport>> pools;
  std::map<std::uint64_t, caf::response_promise> pending;
  std::uint64_t next = 0;

  ~service_state() {
    pools.clear();
    engine.reset();
  }
};

caf::error transport_error(std::string message) {
  return protocol::make_error(protocol::api_errc::transport, std::move(message));
}

// "https://host:port/a/b?c" -> the server part and the target "/a/b?c".
bool split_url(const std::string& url, std::string& server, std::string& target) {
  auto scheme = url.find("://");
  if (scheme == std::string::npos) return false;
  auto slash = url.find('/', scheme + 3);
  server = slash == std::string::npos ? url : url.substr(0, slash);
  target = slash == std::string::npos ? "/" : url.substr(slash);
  return true;
}

caf::behavior http_service(caf::stateful_actor<service_state>* self, int /*unused*/) {
  return {
      [self](protocol::service_request& r) -> caf::result<protocol::service_response> {
        auto& st = self->state;
        std::string server, target, why;
        if (!split_url(r.url, server, target)) return transport_error("not an absolute URL: " + r.url);
        auto url = k8s::parse_server_url(server, &why);
        if (!url) return transport_error(r.url + ": " + why);
        service_state::pool_key key{url->tls, url->host, url->port, r.ca_pem, r.insecure_skip_verify};
        auto& pool = st.pools[key];
        if (!pool) {
          k8s::tls_options tls;
          tls.ca_pem = r.ca_pem;
          tls.insecure_skip_verify = r.insecure_skip_verify;
          auto made = k8s::http_transport::create(st.engine->io, *url, tls);
          if (!made.ok()) {
            st.pools.erase(key);
            return transport_error(r.url + ": " + made.error());
          }
          pool = made.value();
        }
        k8s::rest_request req;
        req.method = r.method;
        req.target = target;
        if (!r.body.empty()) req.content_type = r.content_type;
        req.body = std::move(r.body);
        req.accept = "application/json";
        req.authorization = std::move(r.authorization);
        req.headers = std::move(r.headers);
        req.timeout = r.timeout;
        auto id = st.next++;
        auto rp = self->make_response_promise<protocol::service_response>();
        st.pending.emplace(id, rp);
        caf::weak_actor_ptr me{self->ctrl()};
        pool->send(std::move(req), [me, id](k8s::rest_result res) {
          if (auto strong = caf::actor_cast<caf::actor>(me.lock()))
            caf::anon_send(strong, service_done{id, std::move(res)});
        });
        return rp;
      },
      [self](service_done& d) {
        auto it = self->state.pending.find(d.id);
        if (it == self->state.pending.end()) return;
        auto rp = std::move(it->second);
        self->state.pending.erase(it);
        if (!d.result.ok()) return void(rp.deliver(transport_error(d.result.error().message)));
        auto& v = d.result.value();
        rp.deliver(protocol::service_response{v.status, std::move(v.body), v.retry_after});
      },
  };
}

}  // namespace

caf::actor spawn_http_service(caf::actor_system& sys) { return sys.spawn(http_service, 0); }

}  // namespace c5c3::runtime
