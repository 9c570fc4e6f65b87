// Giving the heap's free memory back (actors/operator/memory_trim.hpp): when
// a trim is worth it, and that a trim returns freed memory to the system.
#include "actors/operator/memory_trim.hpp"

#include <boost/test/unit_test.hpp>

#include <memory>
#include <vector>

// g++ names its sanitizers by macro, clang by __has_feature.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define C5C3_CLANG_SANITIZER 1
#endif
#endif
#ifndef C5C3_CLANG_SANITIZER
#define C5C3_CLANG_SANITIZER 0
#endif

using namespace c5c3::operator_;

BOOST_AUTO_TEST_SUITE(memory_trim)

BOOST_AUTO_TEST_CASE(a_trim_when_a_quarter_of_the_heap_and_8_MiB_are_free) {
  constexpr std::size_t mib = 1u << 20;
  struct row {
    std::size_t free_bytes, arena_bytes;
    bool trim;
  };
  for (const auto& r : {row{0, 0, false}, row{7 * mib, 8 * mib, false}, row{8 * mib, 32 * mib, true},
                        row{8 * mib, 33 * mib, false}, row{100 * mib, 400 * mib, true},
                        row{99 * mib, 400 * mib, false}, row{500 * mib, 600 * mib, true}})
    BOOST_TEST(should_trim(r.free_bytes, r.arena_bytes) == r.trim, r.free_bytes << " of " << r.arena_bytes);
}

// Blocks freed in the middle of the heap (every 16th kept, so the heap's top
// does not shrink by itself) are free for glibc but resident until trimmed.
// Under a sanitizer the allocator is the sanitizer's, not glibc's: neither
// mallinfo2 nor malloc_trim sees its heap, and only the call is made.
BOOST_AUTO_TEST_CASE(a_trim_gives_memory_freed_in_the_middle_of_the_heap_back) {
  std::vector<std::unique_ptr<char[]>> blocks;
  for (int i = 0; i < 16 * 1024; ++i) {
    blocks.emplace_back(new char[4096]);
    for (int b = 0; b < 4096; b += 512) blocks.back()[b] = static_cast<char>(i);  // resident
  }
  for (std::size_t i = 0; i < blocks.size(); ++i)
    if (i % 16 != 0) blocks[i].reset();
  auto h = heap_now();
  auto gave = trim_heap();
  BOOST_TEST_MESSAGE("free " << h.free_bytes << " of " << h.arena_bytes << " B; the trim gave back " << gave << " B");
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || C5C3_CLANG_SANITIZER
  BOOST_TEST(gave < (1u << 30));
#else
  BOOST_TEST(h.free_bytes >= 48u << 20);  // 60 MiB freed
  BOOST_TEST(should_trim(h.free_bytes, h.arena_bytes));
  BOOST_TEST(gave >= 32u << 20);
#endif
}

BOOST_AUTO_TEST_SUITE_END()
