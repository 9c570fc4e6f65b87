#include "k8s/packed_object.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <zstd.h>

#include <cstring>
#include <limits>
#include <stdexcept>

namespace c5c3::k8s {

namespace {

// Level 1: on these objects level 3 packs no smaller (bench/README.md).
constexpr int level = 1;

struct contexts {
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_DCtx* d = ZSTD_createDCtx();
  std::string buffer;           // compress()'s output
  std::string text;             // unpack_text()'s output, parsed in place
  rapidjson::StringBuffer json;  // pack()'s text
  // The parse's pool: a document of an object of some KB fits; beyond it,
  // RapidJSON allocates its next chunks.
  static constexpr std::size_t pool_bytes = 64 * 1024;
  std::unique_ptr<char[]> pool{new char[pool_bytes]};
  contexts() {
    if (!c || !d) throw std::bad_alloc();
  }
  ~contexts() {
    ZSTD_freeCCtx(c);
    ZSTD_freeDCtx(d);
  }
  contexts(const contexts&) = delete;
  contexts& operator=(const contexts&) = delete;
};

contexts& ctx() {
  thread_local contexts c;
  return c;
}

void check(std::size_t r, const char* what) {
  if (ZSTD_isError(r)) throw std::runtime_error(std::string("zstd ") + what + ": " + ZSTD_getErrorName(r));
}

template <class T>
T narrow(std::size_t n, const char* what) {
  if (n > std::numeric_limits<T>::max()) throw std::length_error(std::string("packed object: ") + what + " too long");
  return static_cast<T>(n);
}

}  // namespace

struct object_packer::dictionary {
  std::string text;
  ZSTD_CDict* c = nullptr;
  ZSTD_DDict* d = nullptr;
  explicit dictionary(std::string t) : text(std::move(t)) {
    c = ZSTD_createCDict(text.data(), text.size(), level);
    d = ZSTD_createDDict(text.data(), text.size());
    if (!c || !d) {
      ZSTD_freeCDict(c);
      ZSTD_freeDDict(d);
      throw std::bad_alloc();
    }
  }
  ~dictionary() {
    ZSTD_freeCDict(c);
    ZSTD_freeDDict(d);
  }
  dictionary(const dictionary&) = delete;
  dictionary& operator=(const dictionary&) = delete;
};

namespace {

// `text` compressed with `d` (none: without a dictionary), in the thread's
// buffer.
std::string_view compress(std::string_view text, const object_packer::dictionary* d) {
  auto& c = ctx();
  c.buffer.resize(ZSTD_compressBound(text.size()));
  std::size_t n = d ? ZSTD_compress_usingCDict(c.c, c.buffer.data(), c.buffer.size(), text.data(), text.size(), d->c)
                    : ZSTD_compressCCtx(c.c, c.buffer.data(), c.buffer.size(), text.data(), text.size(), level);
  check(n, "compress");
  return {c.buffer.data(), n};
}

}  // namespace

std::string_view packed_object::packed() const {
  const auto& h = head();
  return {names() + h.namespace_size + h.name_size + h.version_size, h.packed_size};
}

std::size_t packed_object::allocated() const {
  if (!p_) return 0;
  const auto& h = head();
  return sizeof(header) + h.namespace_size + h.name_size + h.version_size + h.packed_size;
}

object_packer::object_packer() = default;
object_packer::~object_packer() = default;
object_packer::object_packer(object_packer&&) noexcept = default;
object_packer& object_packer::operator=(object_packer&&) noexcept = default;

packed_object object_packer::assemble(std::uint32_t text_size, std::string_view ns, std::string_view name,
                                      std::string_view version, std::string_view packed) {
  packed_object::header h{text_size, narrow<std::uint32_t>(packed.size(), "packed text"),
                          narrow<std::uint16_t>(ns.size(), "namespace"), narrow<std::uint16_t>(name.size(), "name"),
                          narrow<std::uint16_t>(version.size(), "resourceVersion")};
  packed_object p;
  p.p_.reset(new char[sizeof(h) + ns.size() + name.size() + version.size() + packed.size()]);
  char* at = p.p_.get();
  std::memcpy(at, &h, sizeof(h));
  at += sizeof(h);
  for (auto part : {ns, name, version, packed}) {
    if (part.empty()) continue;  // its data() may be null, which memcpy may not take
    std::memcpy(at, part.data(), part.size());
    at += part.size();
  }
  return p;
}

packed_object object_packer::pack(const object& o) {
  auto& c = ctx();
  c.json.Clear();
  rapidjson::Writer<rapidjson::StringBuffer> w(c.json);
  o.json().Accept(w);
  std::string_view text(c.json.GetString(), c.json.GetSize());
  auto p = assemble(narrow<std::uint32_t>(text.size(), "text"), o.namespace_(), o.name(), o.resource_version(),
                    compress(text, dict_.get()));
  if (next_ < thresholds.size()) latest_[packed_++ % samples] = std::string(text);
  return p;
}

namespace {

// The text of `packed`, in the thread's buffer (NUL-terminated).
std::string& unpack_text(std::string_view packed, std::size_t size, const ZSTD_DDict* d) {
  auto& c = ctx();
  c.text.resize(size);
  std::size_t n = d ? ZSTD_decompress_usingDDict(c.d, c.text.data(), size, packed.data(), packed.size(), d)
                    : ZSTD_decompressDCtx(c.d, c.text.data(), size, packed.data(), packed.size());
  check(n, "decompress");
  if (n != size) throw std::runtime_error("zstd decompress: the text's size differs from the packed object's");
  return c.text;
}

}  // namespace

object object_packer::unpack(const packed_object& p) const {
  if (!p) return {};
  std::string& text = unpack_text(p.packed(), p.head().text_size, dict_ ? dict_->d : nullptr);
  // The text is the store's own writing of a parsed object: parsed in place,
  // in the thread's pool, then frozen (its strings are copied out of both).
  auto& c = ctx();
  rapidjson::MemoryPoolAllocator<> pool(c.pool.get(), contexts::pool_bytes);
  json_document doc(&pool);
  doc.ParseInsitu(text.data());
  if (doc.HasParseError() || !doc.IsObject()) throw std::runtime_error("packed object: its text does not parse");
  return object(std::move(doc));
}

std::shared_ptr<const object_packer::dictionary> object_packer::renew() {
  auto old = dict_;
  std::string text;
  // The oldest sample first: zstd reaches the dictionary's end soonest.
  for (std::size_t i = 0; i < samples; ++i) {
    const auto& s = latest_[(packed_ + i) % samples];
    text += s;
  }
  if (text.size() > max_dictionary_bytes) text.erase(0, text.size() - max_dictionary_bytes);
  ++next_;
  if (next_ >= thresholds.size()) latest_ = {};
  if (!text.empty()) dict_ = std::make_shared<const dictionary>(std::move(text));
  return old;
}

packed_object object_packer::repack(const packed_object& p, const std::shared_ptr<const dictionary>& old) const {
  if (!p) return {};
  const auto& h = p.head();
  const std::string& text = unpack_text(p.packed(), h.text_size, old ? old->d : nullptr);
  return assemble(h.text_size, p.namespace_(), p.name(), p.resource_version(), compress(text, dict_.get()));
}

std::size_t object_packer::dictionary_size() const { return dict_ ? dict_->text.size() : 0; }

}  // namespace c5c3::k8s
