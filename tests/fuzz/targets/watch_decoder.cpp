// The watch stream decoder (k8s/client/watch_decoder): the bytes in chunks
// whose boundaries the input chooses, each finished JSON text parsed as an
// event. Splitting must not depend on where the chunks end, and a text the
// splitter returns needs no second check of its nesting.
#include "k8s/client/watch_decoder.hpp"
#include "tests/fuzz/targets/fuzz_targets.hpp"

#include <string>
#include <vector>

namespace c5c3::fuzz {

int watch_decoder(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte picks the chunk size (1..32).
  std::size_t step = static_cast<std::size_t>(data[0] % 32) + 1;
  auto text = as_text(data + 1, size - 1);
  k8s::json_stream_splitter chunked, whole;
  std::vector<std::string> a, b;
  std::string err_a, err_b;
  bool failed_a = false;
  for (std::size_t at = 0; at < text.size() && !failed_a; at += step) {
    std::string e;
    for (auto& t : chunked.feed(text.substr(at, step), &e)) a.push_back(std::move(t));
    if (!e.empty()) failed_a = true;
  }
  for (auto& t : whole.feed(text, &err_b)) b.push_back(std::move(t));
  bool failed_b = !err_b.empty();
  check(failed_a == failed_b, "an error does not depend on chunk boundaries");
  if (!failed_a) check(a == b, "the JSON texts do not depend on chunk boundaries");
  for (const auto& t : a) {
    std::string e;
    auto ev = k8s::parse_watch_event(t, &e);
    if (ev && ev->type != k8s::watch_event_type::error) (void)ev->obj.name();
    // The splitter held the text's nesting to max_json_depth, so parsing it
    // without a second look at the depth decides the same.
    std::string e2;
    auto fast = k8s::parse_watch_event(t, &e2, false, true);
    check(fast.has_value() == ev.has_value() && e2 == e, "the splitter's texts parse as checked ones do");
  }
  return 0;
}

}  // namespace c5c3::fuzz
