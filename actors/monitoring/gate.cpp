#include "actors/monitoring/gate.hpp"

namespace c5c3::monitoring {

std::optional<flavour> detector_gate(const runtime::sense_snapshot& s, const std::string& service,
                                     runtime::order_plan& p) {
  p.stage = "detector";
  const auto* a = s.answer(service);
  if (!a) {
    runtime::service_call c;
    c.id = service;
    c.service = service;
    c.request.method = "GET";
    c.request.url = "detector://" + service;
    p.calls.push_back(std::move(c));
    return std::nullopt;
  }
  if (!a->answered()) {
    p.error = a->error;
    return std::nullopt;
  }
  if (a->status == 204) return std::nullopt;
  if (a->status != 200) {
    p.error = a->body.empty() ? "detector answered " + std::to_string(a->status) : a->body;
    return std::nullopt;
  }
  auto f = decode_flavour(a->body);
  if (!f) p.error = "the detector's answer is not a flavour";
  return f;
}

runtime::service_answer ready_answer(const flavour& f) { return {200, encode_flavour(f), {}}; }
runtime::service_answer unknown_answer(std::string error) { return {503, std::move(error), {}}; }
runtime::service_answer not_ready_answer() { return {204, {}, {}}; }

}  // namespace c5c3::monitoring
