// bench_watch_decode [EVENTS] [CHUNK]: what the io thread spends on one watch
// event of a synthetic RabbitMQVhost child (bench/packed/synthetic.hpp), a
// MODIFIED event as the API server streams it: the stream split into events
// (json_stream_splitter, fed CHUNK bytes at a time, default 16,384: a TLS
// record's worth) and each event decoded into an object (parse_watch_event,
// managedFields dropped as the operator drops them). Prints nanoseconds per
// event for each step, the best of 9 rounds (the least disturbed). Never run
// as a test.
#include "bench/packed/synthetic.hpp"
#include "k8s/client/watch_decoder.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using clock_type = std::chrono::steady_clock;

namespace {

double nanos(clock_type::duration d, std::size_t n) {
  return std::chrono::duration<double, std::nano>(d).count() / static_cast<double>(n);
}

}  // namespace

int main(int argc, char** argv) {
  const int events = argc > 1 ? std::atoi(argv[1]) : 20000;
  const std::size_t chunk = argc > 2 ? static_cast<std::size_t>(std::atol(argv[2])) : 16384;
  if (events <= 0 || chunk == 0) {
    std::fprintf(stderr, "usage: bench_watch_decode [EVENTS > 0] [CHUNK > 0]\n");
    return 2;
  }
  std::string stream;
  for (const auto& o : c5c3::bench::synthetic_users(events))
    stream += R"({"type":"MODIFIED","object":)" + o.to_json() + "}\n";
  double best_split = 1e18, best_parse = 1e18;
  std::size_t names = 0;
  for (int round = 0; round < 9; ++round) {
    c5c3::k8s::json_stream_splitter splitter;
    std::vector<std::string> texts;
    std::string error;
    auto t0 = clock_type::now();
    for (std::size_t at = 0; at < stream.size(); at += chunk)
      for (auto& t : splitter.feed(std::string_view(stream).substr(at, chunk), &error)) texts.push_back(std::move(t));
    auto t1 = clock_type::now();
    for (const auto& t : texts) names += c5c3::k8s::parse_watch_event(t, &error, true, true)->obj.name().size();
    auto t2 = clock_type::now();
    if (texts.size() != static_cast<std::size_t>(events) || !error.empty()) {
      std::fprintf(stderr, "split %zu of %d events: %s\n", texts.size(), events, error.c_str());
      return 1;
    }
    best_split = std::min(best_split, nanos(t1 - t0, texts.size()));
    best_parse = std::min(best_parse, nanos(t2 - t1, texts.size()));
  }
  std::printf("%d events of %zu bytes, fed %zu bytes at a time; ns per event, best of 9 rounds\n", events,
              stream.size() / static_cast<std::size_t>(events), chunk);
  std::printf("split %8.0f\nparse %8.0f\ntotal %8.0f\n", best_split, best_parse, best_split + best_parse);
  return names == 0;
}
