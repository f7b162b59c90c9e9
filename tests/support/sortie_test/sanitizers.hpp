#pragma once
// Whether this test binary runs under AddressSanitizer (gcc defines __SANITIZE_ADDRESS__, clang
// answers __has_feature): resident memory and process run times mean little there.
namespace sortie::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

}  // namespace sortie::test
