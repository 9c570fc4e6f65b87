#include "k8s/client/watch_decoder.hpp"
#include "k8s/json_answer.hpp"

#include <cctype>

namespace c5c3::k8s {

std::vector<std::string> json_stream_splitter::feed(std::string_view chunk, std::string* error) {
  std::vector<std::string> out;
  for (char c : chunk) {
    if (depth_ == 0) {
      if (std::isspace(static_cast<unsigned char>(c))) continue;
      if (c != '{') {
        if (error && error->empty()) *error = std::string("unexpected byte '") + c + "' between watch events";
        continue;
      }
    }
    current_ += c;
    if (current_.size() > max_watch_event_bytes) {
      if (error) *error = "a watch event is larger than " + std::to_string(max_watch_event_bytes >> 20) + " MiB";
      current_.clear();
      depth_ = 0;
      in_string_ = escape_ = false;
      return out;
    }
    if (in_string_) {
      if (escape_) escape_ = false;
      else if (c == '\\') escape_ = true;
      else if (c == '"') in_string_ = false;
      continue;
    }
    if (c == '"') in_string_ = true;
    else if (c == '{' || c == '[') ++depth_;
    else if (c == '}' || c == ']') {
      if (--depth_ == 0) {
        out.push_back(std::move(current_));
        current_.clear();
      }
    }
  }
  return out;
}

void remove_managed_fields(json_value& obj) {
  if (json_value* meta = member(obj, "metadata")) remove_member(*meta, "managedFields");
}

std::optional<watch_event> parse_watch_event(std::string_view text, std::string* error, bool drop_managed_fields) {
  auto fail = [&](std::string why) -> std::optional<watch_event> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  std::string perr;
  auto doc = parse_answer_json(text, &perr);
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
