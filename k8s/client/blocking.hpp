// Waits for one asynchronous client operation from a thread that is not one
// of the client's io threads (calling it from one would deadlock):
//
//   auto r = k8s::wait_for<k8s::object>([&](k8s::callback<k8s::object> cb) {
//     client.create(obj, opts, std::move(cb));
//   });
#pragma once

#include "k8s/client/result.hpp"

#include <functional>
#include <future>
#include <memory>

namespace c5c3::k8s {

template <class T>
result<T> wait_for(const std::function<void(callback<T>)>& start) {
  auto p = std::make_shared<std::promise<result<T>>>();
  auto f = p->get_future();
  start([p](result<T> r) { p->set_value(std::move(r)); });
  return f.get();
}

}  // namespace c5c3::k8s
