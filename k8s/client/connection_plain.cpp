// Plain HTTP connections (a server URL with http://).
#include "k8s/client/detail/basic_connection.hpp"

namespace c5c3::k8s::detail {

namespace {

class plain_connection : public basic_connection<plain_connection> {
 public:
  plain_connection(net::io_context& io, server_url url)
      : basic_connection(io, std::move(url)), stream_(strand_) {}
  beast::tcp_stream& beast_stream() { return stream_; }
  template <class Handler>
  void handshake(Handler&& h) {
    h(beast::error_code{});
  }

 private:
  beast::tcp_stream stream_;
};

}  // namespace

std::shared_ptr<connection> make_plain_connection(net::io_context& io, const server_url& url) {
  return std::make_shared<plain_connection>(io, url);
}

}  // namespace c5c3::k8s::detail
