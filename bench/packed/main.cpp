// bench_packed [LIST.json ...]: per kind, the bytes of an object as JSON, as a
// frozen document (what a cache held before) and packed (what the cluster
// actor's caches hold now), and the microseconds to pack one and to unpack
// one, beside a parse of its JSON. Each file is a kubectl list (`kubectl get
// KIND -A -o json`, managedFields are dropped as the informers drop them);
// without files, 2,000 synthetic RabbitMQVhost children. Objects are packed
// as a cache packs them: in order, the dictionary made again at the
// packer's thresholds and everything held packed again with it.
#include "bench/packed/synthetic.hpp"
#include "k8s/json.hpp"
#include "k8s/packed_object.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace c5c3::k8s;
using clock_type = std::chrono::steady_clock;

namespace {

std::vector<object> from_list(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  auto doc = parse_json(ss.str());
  std::vector<object> out;
  if (!doc || !doc->IsObject() || !doc->HasMember("items")) {
    std::fprintf(stderr, "%s: not a kubectl list\n", path.c_str());
    return out;
  }
  for (auto& item : (*doc)["items"].GetArray()) {
    if (auto* md = member(item, "metadata")) remove_member(*md, "managedFields");
    out.push_back(*object::parse(to_json(item)));
  }
  return out;
}

double micros(clock_type::duration d, std::size_t n) {
  return std::chrono::duration<double, std::micro>(d).count() / static_cast<double>(n);
}

void measure(const std::string& kind, const std::vector<object>& objects) {
  if (objects.empty()) return;
  std::size_t json = 0, frozen = 0;
  std::vector<std::string> texts;
  for (const auto& o : objects) {
    texts.push_back(o.to_json());
    json += texts.back().size();
    frozen += usage_of(o.json()).capacity + 56;  // the block's header (compact_json.hpp)
  }
  // As a cache packs: in order, repacking at each new dictionary.
  object_packer packer;
  std::vector<packed_object> held;
  auto t0 = clock_type::now();
  for (const auto& o : objects) {
    held.push_back(packer.pack(o));
    if (packer.due(held.size())) {
      auto old = packer.renew();
      for (auto& p : held) p = packer.repack(p, old);
    }
  }
  auto t1 = clock_type::now();
  // Steady state: packing again with the final dictionary, and unpacking.
  std::size_t packed = 0;
  for (const auto& o : objects) packed += packer.pack(o).allocated();
  auto t2 = clock_type::now();
  std::size_t check = 0;
  for (const auto& p : held) check += packer.unpack(p).name().size();
  auto t3 = clock_type::now();
  for (const auto& t : texts) check += object::parse(t)->name().size();
  auto t4 = clock_type::now();
  const double n = static_cast<double>(objects.size());
  std::printf("%-16s %7zu %8.0f %8.0f %8.0f %6.1fx %8.2f %8.2f %8.2f %8.2f %7zu\n", kind.c_str(), objects.size(),
              json / n, frozen / n, packed / n, static_cast<double>(frozen) / static_cast<double>(packed),
              micros(t1 - t0, objects.size()), micros(t2 - t1, objects.size()), micros(t3 - t2, objects.size()),
              micros(t4 - t3, objects.size()), packer.dictionary_size());
  if (check == 0) std::printf("(no names)\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::vector<object>> by_kind;
  if (argc < 2) {
    by_kind["User (synthetic)"] = c5c3::bench::synthetic_users(2000);
  } else {
    for (int i = 1; i < argc; ++i)
      for (auto& o : from_list(argv[i])) by_kind[std::string(o.kind())].push_back(std::move(o));
  }
  std::printf("%-16s %7s %8s %8s %8s %7s %8s %8s %8s %8s %7s\n", "kind", "objects", "JSON B", "frozen B", "packed B",
              "saved", "fill us", "pack us", "unpack us", "parse us", "dict B");
  for (const auto& [kind, objects] : by_kind) measure(kind, objects);
  return 0;
}
