// field.Error of k8s.io/apimachinery (v1.32-1.34 wording) and the 422 Invalid
// Status kube-apiserver builds from a list of them.
#pragma once

#include "k8s/json.hpp"
#include "k8s/status.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::sim::validation {

enum class error_type {
  not_found,      // FieldValueNotFound
  required,       // FieldValueRequired
  duplicate,      // FieldValueDuplicate
  invalid,        // FieldValueInvalid
  not_supported,  // FieldValueNotSupported
  forbidden,      // FieldValueForbidden
  too_long,       // FieldValueTooLong
  too_many,       // FieldValueTooMany
  internal,       // InternalError
  type_invalid,   // FieldValueTypeInvalid
};

// The CauseType string ("FieldValueInvalid", ...).
std::string_view cause_type(error_type t);
// The human text ("Invalid value", "Required value", ...).
std::string_view type_text(error_type t);

struct field_error {
  error_type type = error_type::invalid;
  std::string field;  // "spec.rotation", "<nil>" for the object itself
  // The bad value already rendered as Go prints it (`"Drop"`, `0`, `"object"`,
  // `{"interface":"public"}`); nullopt omits it.
  std::optional<std::string> value;
  std::string detail;

  // ErrorBody(): `Invalid value: "Drop": ...` (no field).
  std::string body() const;
  // Error(): `<field>: <body>`.
  std::string to_string() const;
  friend bool operator==(const field_error&, const field_error&) = default;
};

// Constructors named after apimachinery's field package. `value` arguments
// are rendered values (see go_format.hpp: go_quote, go_number, go_json).
field_error required(std::string field, std::string detail = {});
field_error invalid(std::string field, std::optional<std::string> value, std::string detail);
field_error type_invalid(std::string field, std::optional<std::string> value, std::string detail);
field_error not_supported(std::string field, std::string value,
                          const std::vector<std::string>& supported);
field_error duplicate(std::string field, std::string value);
field_error forbidden(std::string field, std::string detail);
field_error too_long(std::string field, long long max_bytes);
field_error too_many(std::string field, long long actual, long long max);
field_error internal_error(std::string field, std::string detail);

// utilerrors.NewAggregate(...).Error() over the list: one message plain,
// several (deduplicated) as `[a, b]`.
std::string aggregate_message(const std::vector<field_error>& errors);

// apierrors.NewInvalid: `<Kind>.<group> "<name>" is invalid: <errors>`, HTTP
// 422, reason Invalid, details {name, group, kind, causes}.
k8s::api_error invalid_error(std::string_view group, std::string_view kind, std::string_view name,
                             const std::vector<field_error>& errors);
// The JSON body kube-apiserver sends for it.
k8s::json_document invalid_status_body(std::string_view group, std::string_view kind,
                                       std::string_view name,
                                       const std::vector<field_error>& errors);
// That body as encoding/json writes it (with <, > and & escaped as \u003c ...).
std::string invalid_status_text(std::string_view group, std::string_view kind,
                                std::string_view name, const std::vector<field_error>& errors);

}  // namespace c5c3::sim::validation
