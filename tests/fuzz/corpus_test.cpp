// Every committed fuzz input through its target's body, under the ordinary
// sanitizer build: the seed corpora (tests/fuzz/<target>/corpus) and the
// inputs fuzzing found to crash (tests/fuzz/<target>/crashes), which stay as
// regression tests once fixed. A body aborts when a property breaks.
#include "tests/fuzz/targets/fuzz_targets.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

using body = int (*)(const std::uint8_t*, std::size_t);

struct target {
  const char* name;
  body run;
};

const std::vector<target> targets = {
    {"json_object", c5c3::fuzz::json_object}, {"watch_decoder", c5c3::fuzz::watch_decoder},
    {"kubeconfig", c5c3::fuzz::kubeconfig},   {"selectors", c5c3::fuzz::selectors},
    {"cel", c5c3::fuzz::cel},                 {"protobuf", c5c3::fuzz::protobuf},
    {"http_request", c5c3::fuzz::http_request},
};

fs::path fuzz_dir() {
  const char* d = std::getenv("C5C3_FUZZ_DIR");
  BOOST_REQUIRE_MESSAGE(d && *d, "C5C3_FUZZ_DIR is not set");
  return d;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::size_t replay(const target& t, const fs::path& dir) {
  std::size_t n = 0;
  if (!fs::is_directory(dir)) return n;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    BOOST_TEST_CHECKPOINT(t.name << ": " << f.string());
    auto bytes = read(f);
    BOOST_TEST(t.run(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()) == 0);
    ++n;
  }
  return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fuzz_corpus)

BOOST_AUTO_TEST_CASE(every_committed_input_passes_its_target) {
  for (const auto& t : targets) {
    BOOST_TEST_CONTEXT(t.name) {
      auto seeds = replay(t, fuzz_dir() / t.name / "corpus");
      BOOST_TEST(seeds >= 3u, "each target has a seed corpus");
      replay(t, fuzz_dir() / t.name / "crashes");
      // The empty input too.
      BOOST_TEST(t.run(nullptr, 0) == 0);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
