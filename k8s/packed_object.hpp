// Objects kept packed: a store's objects as their compact JSON compressed by
// zstd with a dictionary made of the store's own latest objects.
//
// The objects of one informer share almost everything but their names, uids,
// times and secret values: their member names, apiVersion, kind, labels,
// owner references, conditions. A cached RabbitMQVhost child takes 0.7 to 1.5
// KB of JSON and about 1.7 times that as a frozen document (compact_json.hpp);
// packed with a dictionary of eight of its siblings it takes 90 to 170 bytes
// (bench/README.md, "P2: packed caches"). The price is a decompression and a
// parse per read, some microseconds for an object of a kilobyte.
//
// A packed object keeps its namespace, name and resourceVersion readable
// without unpacking: the store's key, and the check whether an event is a
// replay of a version the store has.
#pragma once

#include "k8s/object.hpp"
#include "k8s/object_map.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace c5c3::k8s {

// One object packed, in one allocation: a header, the namespace, name and
// resourceVersion, then the compressed JSON text.
class packed_object {
 public:
  packed_object() = default;

  explicit operator bool() const { return static_cast<bool>(p_); }
  std::string_view namespace_() const {
    return p_ ? std::string_view(names(), head().namespace_size) : std::string_view();
  }
  std::string_view name() const {
    return p_ ? std::string_view(names() + head().namespace_size, head().name_size) : std::string_view();
  }
  std::string_view resource_version() const {
    return p_ ? std::string_view(names() + head().namespace_size + head().name_size, head().version_size)
              : std::string_view();
  }
  // The bytes of the allocation (header, names, compressed text).
  std::size_t allocated() const;

 private:
  friend class object_packer;
  struct header {
    std::uint32_t text_size;
    std::uint32_t packed_size;
    std::uint16_t namespace_size;
    std::uint16_t name_size;
    std::uint16_t version_size;
  };
  const header& head() const { return *reinterpret_cast<const header*>(p_.get()); }
  const char* names() const { return p_.get() + sizeof(header); }
  std::string_view packed() const;
  std::unique_ptr<char[]> p_;
};

// A packed object's names are in its header: a map of them keeps no views.
template <>
inline constexpr bool key_in_value<packed_object> = true;

// Packs and unpacks the objects of one store. While the store grows its
// dictionary is made again from the latest objects it packed (when the store
// reaches 8, 128, 2,048 and 32,768 objects), and the store repacks what it
// holds with it (repack), so every object it holds shares one dictionary.
// Before the first, objects are compressed without one. Not thread-safe: one
// store, one thread at a time (zstd's contexts are per thread).
class object_packer {
 public:
  object_packer();
  ~object_packer();
  object_packer(object_packer&&) noexcept;
  object_packer& operator=(object_packer&&) noexcept;

  packed_object pack(const object& o);
  object unpack(const packed_object& p) const;

  // Whether a store of `size` objects is due a new dictionary.
  bool due(std::size_t size) const { return next_ < thresholds.size() && size >= thresholds[next_]; }
  // Makes the new dictionary from the latest objects packed. Until the
  // returned token is dropped, repack() turns an object packed with the old
  // dictionary into one packed with the new.
  struct dictionary;
  std::shared_ptr<const dictionary> renew();
  packed_object repack(const packed_object& p, const std::shared_ptr<const dictionary>& old) const;

  // Bytes of the current dictionary's text (0 before the first).
  std::size_t dictionary_size() const;

  static constexpr std::array<std::size_t, 4> thresholds{8, 128, 2048, 32768};
  // Objects sampled for a dictionary, and its bytes at most.
  static constexpr std::size_t samples = 8;
  static constexpr std::size_t max_dictionary_bytes = 16 * 1024;

 private:
  static packed_object assemble(std::uint32_t text_size, std::string_view ns, std::string_view name,
                                std::string_view version, std::string_view packed);
  std::shared_ptr<const dictionary> dict_;
  std::array<std::string, samples> latest_;  // a ring of the latest texts, while a dictionary is due
  std::size_t packed_ = 0;
  std::size_t next_ = 0;
};

}  // namespace c5c3::k8s
