#include "k8s/client/watch_decoder.hpp"
#include "k8s/json_answer.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstring>

namespace c5c3::k8s {

// An event's bytes are appended a run at a time (up to its end or the
// chunk's), not one at a time: the scan is the io thread's per-byte work.
std::vector<std::string> json_stream_splitter::feed(std::string_view chunk, std::string* error) {
  std::vector<std::string> out;
  const char* p = chunk.data();
  const char* const end = p + chunk.size();
  // In a string: the first '"' after the scan's place (end: none); at or
  // before the place, not yet looked for.
  const char* quote = p;
  while (p < end) {
    if (depth_ == 0) {
      const char c = *p;
      if (c != '{') {
        if (!std::isspace(static_cast<unsigned char>(c)) && error && error->empty())
          *error = std::string("unexpected byte '") + c + "' between watch events";
        ++p;
        continue;
      }
    }
    const char* const run = p;
    bool closed = false;
    for (; p < end && !closed; ++p) {
      const char c = *p;
      if (in_string_) {
        if (escape_) {
          escape_ = false;
        } else if (c == '\\') {
          escape_ = true;
        } else if (c == '"') {
          in_string_ = false;
        } else {
          // On to the string's next quote or backslash at memchr's speed,
          // not a byte a turn. The quote found is kept for the bytes before
          // it, so a string of many escapes is still scanned once.
          if (quote <= p) {
            quote = static_cast<const char*>(std::memchr(p, '"', static_cast<std::size_t>(end - p)));
            if (!quote) quote = end;
          }
          const char* b = static_cast<const char*>(std::memchr(p, '\\', static_cast<std::size_t>(quote - p)));
          p = (b ? b : quote) - 1;
        }
      } else if (c == '"') {
        in_string_ = true;
      } else if (c == '{' || c == '[') {
        if (++depth_ > static_cast<int>(max_json_depth)) break;
      } else if (c == '}' || c == ']') {
        closed = --depth_ == 0;
      }
    }
    current_.append(run, p);
    const bool too_deep = depth_ > static_cast<int>(max_json_depth);
    if (too_deep || current_.size() > max_watch_event_bytes) {
      if (error)
        *error = too_deep ? fmt::format("a watch event is nested deeper than {} levels", max_json_depth)
                          : fmt::format("a watch event is larger than {} MiB", max_watch_event_bytes >> 20);
      current_.clear();
      depth_ = 0;
      in_string_ = escape_ = false;
      return out;
    }
    if (closed) {
      out.push_back(std::move(current_));
      current_.clear();
    }
  }
  return out;
}

void remove_managed_fields(json_value& obj) {
  if (json_value* meta = member(obj, "metadata")) remove_member(*meta, "managedFields");
}

std::optional<watch_event> parse_watch_event(std::string_view text, std::string* error, bool drop_managed_fields,
                                             bool from_splitter) {
  auto fail = [&](std::string why) -> std::optional<watch_event> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  std::string perr;
  auto doc = from_splitter ? parse_answer_json_within_depth(text, &perr) : parse_answer_json(text, &perr);
  if (!doc || !doc->IsObject()) return fail("malformed watch event: " + perr);
  auto type = get_string(*doc, {"type"});
  json_value* obj = member(*doc, "object");
  if (!obj || !obj->IsObject()) return fail("watch event without an object");
  watch_event ev;
  if (type == "ADDED") ev.type = watch_event_type::added;
  else if (type == "MODIFIED") ev.type = watch_event_type::modified;
  else if (type == "DELETED") ev.type = watch_event_type::deleted;
  else if (type == "BOOKMARK") ev.type = watch_event_type::bookmark;
  else if (type == "ERROR") ev.type = watch_event_type::error;
  else return fail("unknown watch event type \"" + std::string(type) + "\"");
  if (ev.type == watch_event_type::error) {
    int code = static_cast<int>(get_int(*obj, {"code"}).value_or(500));
    ev.error = parse_status(code, to_json(*obj));
    return ev;
  }
  // The object moves out of the event's document (Swap takes its values, which
  // stay in the event document's pool while that lives), so it is copied once,
  // by object's constructor into its compact storage, not twice.
  json_document moved;
  static_cast<json_value&>(moved).Swap(*obj);
  if (drop_managed_fields) remove_managed_fields(moved);
  ev.obj = object(std::move(moved));
  return ev;
}

}  // namespace c5c3::k8s
