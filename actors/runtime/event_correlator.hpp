// Warning and Normal Events as client-go's recorder writes them
// (k8s.io/client-go/tools/record: makeEvent, EventCorrelator's event logger),
// as pure data: the first occurrence of an event is a core/v1 Event named
// "<involved name>.<unix nanos, hex>" with count 1 and first = last
// timestamp; the same event again (same source component, involved object,
// type, reason and message) is a merge patch of that Event's count and
// lastTimestamp, not a new object. The correlator remembers the events it
// wrote (bounded: the oldest is forgotten first, as client-go's LRU of 4096).
// The recorder actor (event_recorder.hpp) does the writes.
#pragma once

#include "actors/runtime/runner/snapshot.hpp"
#include "k8s/object.hpp"
#include "k8s/time.hpp"

#include <chrono>
#include <cstdint>
#include <list>
#include <map>
#include <string>
#include <tuple>

namespace c5c3::runtime {

// The object an event is about (corev1.ObjectReference).
struct involved_object {
  std::string api_version, kind, namespace_, name, uid, resource_version;
};
involved_object involved_of(const k8s::object& o);

// What to write for one occurrence.
struct event_write {
  bool create = true;
  std::string namespace_, name;
  k8s::object event;  // create: the whole Event
  std::string patch;  // !create: the merge patch (count, lastTimestamp, message)
  std::int64_t count = 1;
};

// client-go's messageFmt limit is none; the events.k8s.io view allows 1024.
inline constexpr std::size_t event_message_limit = 1024;

class event_correlator {
 public:
  explicit event_correlator(std::string component = "c5c3-operator", std::size_t capacity = 4096);

  event_write observe(const involved_object& who, const event_record& what, k8s::time_point now);
  // The Event `name` in `ns` is gone (a patch met NotFound): the next
  // occurrence of its key creates a new one, keeping the count.
  event_write recreate(const involved_object& who, const event_record& what, k8s::time_point now);
  std::size_t size() const { return entries_.size(); }

 private:
  using key = std::tuple<std::string, std::string, std::string, std::string, std::string, std::string, std::string>;
  struct entry {
    std::string namespace_, name;
    std::int64_t count = 0;
    std::string first;
    std::list<key>::iterator age;
  };
  key key_of(const involved_object& who, const event_record& what) const;
  event_write create(const key& k, const involved_object& who, const event_record& what, k8s::time_point now,
                     std::int64_t count, std::string first);

  std::string component_;
  std::size_t capacity_;
  std::map<key, entry> entries_;
  std::list<key> ages_;  // oldest first
};

}  // namespace c5c3::runtime
