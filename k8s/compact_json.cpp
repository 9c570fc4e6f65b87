#include "k8s/compact_json.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace c5c3::k8s {
namespace {

using pool_allocator = rapidjson::MemoryPoolAllocator<rapidjson::CrtAllocator>;
static_assert(std::is_same_v<json_allocator, pool_allocator>);

// RapidJSON's layout (rapidjson/document.h, allocators.h, 64-bit with the
// 48-bit pointer optimisation): strings up to 13 bytes live inside the value,
// longer ones take their length plus a terminator; every pool allocation is
// rounded up to 8 bytes; a chunk starts with a 3-word header.
constexpr std::size_t inline_string_max = 13;
constexpr std::size_t chunk_header = 3 * sizeof(void*);
constexpr std::size_t align8(std::size_t n) { return (n + 7) & ~std::size_t{7}; }
constexpr std::size_t string_bytes(std::size_t n) { return n <= inline_string_max ? 0 : align8(n + 1); }

// Every pool's base allocator (stateless): one instance, none per document.
rapidjson::CrtAllocator* base_allocator() {
  static rapidjson::CrtAllocator a;
  return &a;
}

struct name_hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

class name_table {
 public:
  // The kept copy of `s`, or nullptr once the table is full.
  const char* intern(std::string_view s) {
    std::lock_guard lock(mu_);
    if (auto it = names_.find(s); it != names_.end()) return it->c_str();
    if (bytes_ + s.size() > max_interned_name_bytes) return nullptr;
    bytes_ += s.size();
    return names_.emplace(s).first->c_str();  // node-based: the address stays
  }
  std::size_t size() {
    std::lock_guard lock(mu_);
    return names_.size();
  }

 private:
  std::mutex mu_;
  std::unordered_set<std::string, name_hash, std::equal_to<>> names_;
  std::size_t bytes_ = 0;
};

// Never destroyed: objects may be released during static destruction.
name_table& names() {
  static auto* t = new name_table;
  return *t;
}

// The bytes a copy of `v` takes in its pool; the interned names of the
// members with long names, in the order Accept visits them (nullptr: copied).
std::size_t measure(const json_value& v, std::vector<const char*>& names_out) {
  std::size_t n = 0;
  if (v.IsString()) return string_bytes(v.GetStringLength());
  if (v.IsArray()) {
    n += align8(v.Size() * sizeof(json_value));
    for (const auto& item : v.GetArray()) n += measure(item, names_out);
  } else if (v.IsObject()) {
    n += align8(v.MemberCount() * sizeof(json_value::Member));
    for (const auto& m : v.GetObject()) {
      std::size_t len = m.name.GetStringLength();
      if (len > inline_string_max) {
        const char* kept = names().intern({m.name.GetString(), len});
        names_out.push_back(kept);
        if (!kept) n += string_bytes(len);
      }
      n += measure(m.value, names_out);
    }
  }
  return n;
}

// SAX handler of the copy: values into `d` (its allocator the pool), long
// member names as references to the table's copies.
struct copier {
  json_document& d;
  const std::vector<const char*>& kept;
  std::size_t next = 0;

  bool Null() { return d.Null(); }
  bool Bool(bool b) { return d.Bool(b); }
  bool Int(int i) { return d.Int(i); }
  bool Uint(unsigned u) { return d.Uint(u); }
  bool Int64(std::int64_t i) { return d.Int64(i); }
  bool Uint64(std::uint64_t u) { return d.Uint64(u); }
  bool Double(double x) { return d.Double(x); }
  bool String(const char* s, rapidjson::SizeType n, bool) { return d.String(s, n, true); }
  bool StartObject() { return d.StartObject(); }
  bool Key(const char* s, rapidjson::SizeType n, bool) {
    if (n > inline_string_max) {
      if (const char* k = kept.at(next++)) return d.Key(k, n, false);
    }
    return d.Key(s, n, true);
  }
  bool EndObject(rapidjson::SizeType n) { return d.EndObject(n); }
  bool StartArray() { return d.StartArray(); }
  bool EndArray(rapidjson::SizeType n) { return d.EndArray(n); }
};

}  // namespace

// The allocation behind a frozen_json: the root value first (usage_of finds
// the block from it), then the count and the pool's sizes, then the pool
// (its chunk header, then the values). A MemoryPoolAllocator over a buffer
// it was given frees nothing of that buffer, and its values need no
// destructor (kNeedFree is false), so the block is released as raw memory.
struct frozen_json::block {
  json_value root;
  std::atomic<std::uint32_t> refs{1};
  std::uint32_t used = 0;
  std::uint32_t capacity = 0;
  std::uint32_t padding_ = 0;
  char* pool() { return reinterpret_cast<char*>(this + 1); }
};
static_assert(sizeof(json_value) == 16);

frozen_json::frozen_json(const frozen_json& o) noexcept : b_(o.b_) {
  if (b_) b_->refs.fetch_add(1, std::memory_order_relaxed);
}

frozen_json& frozen_json::operator=(const frozen_json& o) noexcept {
  frozen_json copy(o);
  std::swap(b_, copy.b_);
  return *this;
}

frozen_json& frozen_json::operator=(frozen_json&& o) noexcept {
  frozen_json taken(std::move(o));
  std::swap(b_, taken.b_);
  return *this;
}

frozen_json::~frozen_json() {
  if (b_ && b_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    b_->~block();
    ::operator delete(b_);
  }
}

const json_value& frozen_json::operator*() const { return b_->root; }

frozen_json compact_copy(const json_value& v) {
  static_assert(sizeof(frozen_json::block) == 32);  // the pool behind it is 8-aligned
  std::vector<const char*> kept;
  std::size_t bytes = std::max<std::size_t>(measure(v, kept), 8);
  // The block's memory until a frozen_json owns it (a copy that throws,
  // bad_alloc, or is made again, larger, gives it back).
  struct raw {
    void* p;
    ~raw() { ::operator delete(p); }
  };
  for (;;) {
    const std::size_t size = chunk_header + bytes;
    raw mem{::operator new(sizeof(frozen_json::block) + size)};
    auto* b = new (mem.p) frozen_json::block;
    bool fits = false;
    {
      // The pool and the document only while the copy is made: the
      // document's parse stack comes from the shared base allocator.
      pool_allocator pool(b->pool(), size, 256, base_allocator());
      json_document doc(&pool, 1024, base_allocator());
      auto generate = [&](json_document& handler) {
        copier c{handler, kept};
        return v.Accept(c);
      };
      doc.Populate(generate);
      fits = pool.Capacity() == size - chunk_header;
      if (fits) {
        b->root.Swap(doc);
        b->used = static_cast<std::uint32_t>(pool.Size());
        b->capacity = static_cast<std::uint32_t>(pool.Capacity());
      } else {
        bytes = pool.Size() + chunk_header;  // a chunk of its own was added: make it again, larger
      }
    }
    if (fits) {
      mem.p = nullptr;
      return frozen_json(b);
    }
    b->~block();
  }
}

compact_usage usage_of(const json_value& root) {
  const auto* b = reinterpret_cast<const frozen_json::block*>(&root);
  return {b->used, b->capacity};
}

std::size_t interned_names() { return names().size(); }

}  // namespace c5c3::k8s
