// result<T, E>: a value or an error, the client's answer type (C++20 has no
// std::expected). The default error is the Kubernetes api_error.
#pragma once

#include "k8s/status.hpp"

#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace c5c3::k8s {

// An error wrapped to say so, for results whose value and error types are
// the same (result<std::string, std::string>): return fail("message").
template <class E>
struct failure {
  E error;
};
template <class E>
failure<std::decay_t<E>> fail(E&& e) {
  return {std::forward<E>(e)};
}
inline failure<std::string> fail(const char* e) { return {std::string(e)}; }

template <class T, class E = api_error>
class [[nodiscard]] result {
 public:
  result(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit on purpose
  result(E error)  // NOLINT
    requires(!std::is_same_v<T, E>)
      : v_(std::in_place_index<1>, std::move(error)) {}
  result(failure<E> f) : v_(std::in_place_index<1>, std::move(f.error)) {}  // NOLINT

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  E& error() & { return std::get<1>(v_); }
  const E& error() const& { return std::get<1>(v_); }

 private:
  std::variant<T, E> v_;
};

// Completion of an asynchronous operation; runs on an io_context thread.
template <class T>
using callback = std::function<void(result<T>)>;

}  // namespace c5c3::k8s
