#include "actors/c5c3/korc/names.hpp"

#include "actors/c5c3/korc/control_plane.hpp"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <algorithm>

namespace c5c3::c5c3::korc {
namespace {

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
  return out;
}

bool valid_utf8(std::string_view s) {
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(icu::StringPiece(s.data(), static_cast<int32_t>(s.size())));
  std::string back;
  u.toUTF8String(back);
  return U_SUCCESS(status) && back == s;
}

}  // namespace

std::string keystone_name_key(std::string_view name) {
  if (!valid_utf8(name)) return ascii_lower(name);
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfd = icu::Normalizer2::getNFDInstance(status);
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  if (U_FAILURE(status)) return ascii_lower(name);
  icu::UnicodeString in =
      icu::UnicodeString::fromUTF8(icu::StringPiece(name.data(), static_cast<int32_t>(name.size())));
  icu::UnicodeString decomposed = nfd->normalize(in, status);
  if (U_FAILURE(status)) return ascii_lower(name);
  icu::UnicodeString stripped;
  for (int32_t i = 0; i < decomposed.length();) {
    UChar32 c = decomposed.char32At(i);
    if (u_charType(c) != U_NON_SPACING_MARK) stripped.append(c);
    i += U16_LENGTH(c);
  }
  icu::UnicodeString composed = nfc->normalize(stripped, status);
  if (U_FAILURE(status)) return ascii_lower(name);
  // strings.ToLower: the simple lower-case mapping, rune by rune.
  icu::UnicodeString lowered;
  for (int32_t i = 0; i < composed.length();) {
    UChar32 c = composed.char32At(i);
    lowered.append(u_tolower(c));
    i += U16_LENGTH(c);
  }
  std::string out;
  lowered.toUTF8String(out);
  return out;
}

bool same_keystone_name(std::string_view a, std::string_view b) { return keystone_name_key(a) == keystone_name_key(b); }

std::vector<std::string> reserved_user_names(const k8s::object& cp) {
  return {admin_user_name(cp), "glance", "placement", "barbican", "neutron",
          "cinder",            "nova", "neutron-nova", "hypervisor-operator"};
}

std::vector<std::string> reserved_project_names(const k8s::object& cp) {
  return {admin_project_name(cp), "service-glance", "service-placement", "service-barbican",
          "service-neutron",      "service-cinder", "service-nova"};
}

bool reserved(std::string_view name, const std::vector<std::string>& reserved_names) {
  const auto key = keystone_name_key(name);
  return std::any_of(reserved_names.begin(), reserved_names.end(),
                     [&](const std::string& r) { return keystone_name_key(r) == key; });
}

}  // namespace c5c3::c5c3::korc
