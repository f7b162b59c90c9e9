#include "sortie/net/lossy_link.hpp"

#include <fmt/format.h>

#include <charconv>

namespace sortie::net {

using core::Diagnostic;
using core::fail;

namespace {

core::Diagnostic spec_error(std::string_view item, std::string message) {
  return Diagnostic::error("net.loss_spec", std::move(message))
      .expect("drop=P,dup=P,reorder=P,delay=D,jitter=D,hold=D (P in [0,1), D like 20ms)", std::string(item));
}

core::Result<double> parse_probability(std::string_view item, std::string_view v) {
  double p = 0.0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), p);
  if (ec != std::errc() || end != v.data() + v.size() || !(p >= 0.0 && p < 1.0)) {
    return fail(spec_error(item, "probability must be a number in [0, 1)"));
  }
  return p;
}

core::Result<std::uint32_t> parse_duration_us(std::string_view item, std::string_view v) {
  std::uint64_t unit = 1;
  if (v.ends_with("us")) {
    v.remove_suffix(2);
  } else if (v.ends_with("ms")) {
    unit = 1000;
    v.remove_suffix(2);
  } else if (v.ends_with("s")) {
    unit = 1'000'000;
    v.remove_suffix(1);
  } else {
    unit = 1000;  // a bare number is milliseconds
  }
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size() || v.empty() || n > 60'000'000 / unit) {
    return fail(spec_error(item, "duration must be a whole number of us, ms or s, at most 60 s"));
  }
  return static_cast<std::uint32_t>(n * unit);
}

}  // namespace

std::string LossSpec::to_string() const {
  return fmt::format("drop={},dup={},reorder={},delay={}us,jitter={}us,hold={}us", drop, duplicate, reorder, delay_us,
                     jitter_us, reorder_us);
}

core::Result<LossSpec> parse_loss_spec(std::string_view text) {
  LossSpec spec;
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) return fail(spec_error(item, "expected key=value"));
    const std::string_view key = item.substr(0, eq);
    const std::string_view value = item.substr(eq + 1);
    if (key == "drop") {
      SORTIE_TRY(spec.drop, parse_probability(item, value));
    } else if (key == "dup" || key == "duplicate") {
      SORTIE_TRY(spec.duplicate, parse_probability(item, value));
    } else if (key == "reorder") {
      SORTIE_TRY(spec.reorder, parse_probability(item, value));
    } else if (key == "delay") {
      SORTIE_TRY(spec.delay_us, parse_duration_us(item, value));
    } else if (key == "jitter") {
      SORTIE_TRY(spec.jitter_us, parse_duration_us(item, value));
    } else if (key == "hold") {
      SORTIE_TRY(spec.reorder_us, parse_duration_us(item, value));
    } else {
      return fail(spec_error(item, "unknown key"));
    }
  }
  return spec;
}

LossyLink::LossyLink(LossSpec spec, std::uint64_t seed) : spec_(spec), rng_(seed, 0x4C4F5353 /* "LOSS" */) {}

std::uint64_t LossyLink::one_delay(std::uint64_t now_us) {
  std::uint64_t t = now_us + spec_.delay_us;
  if (spec_.jitter_us > 0) t += rng_.below(spec_.jitter_us + 1);
  if (spec_.reorder > 0.0 && rng_.unit_f64() < spec_.reorder) {
    t += spec_.reorder_us;
    ++held_back_;
  }
  return t;
}

std::vector<std::uint64_t> LossyLink::schedule(std::uint64_t now_us) {
  ++sent_;
  std::vector<std::uint64_t> out;
  if (spec_.drop > 0.0 && rng_.unit_f64() < spec_.drop) {
    ++dropped_;
    return out;
  }
  out.push_back(one_delay(now_us));
  if (spec_.duplicate > 0.0 && rng_.unit_f64() < spec_.duplicate) {
    ++duplicated_;
    out.push_back(one_delay(now_us));
  }
  return out;
}

std::uint64_t LossyLink::delay_only(std::uint64_t now_us, std::uint64_t not_before) {
  ++sent_;
  std::uint64_t t = now_us + spec_.delay_us;
  if (spec_.jitter_us > 0) t += rng_.below(spec_.jitter_us + 1);
  return t < not_before ? not_before : t;
}

}  // namespace sortie::net
