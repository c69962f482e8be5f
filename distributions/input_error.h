// The one error type for bad input anywhere in hetstruct (law text, options, graph files).
// It lives in the lowest layer so that every layer can throw it; the CLI turns it into one line on
// stderr and exit status 2.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace hetstruct {

namespace input_error_detail {

// The length of the well-formed UTF-8 sequence at s[i] (RFC 3629), 0 when there is none.
inline std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) length = 2;
  else if (c >= 0xE0 && c <= 0xEF) length = 3, low = c == 0xE0 ? 0xA0 : 0x80, high = c == 0xED ? 0x9F : 0xBF;
  else if (c >= 0xF0 && c <= 0xF4) length = 4, low = c == 0xF0 ? 0x90 : 0x80, high = c == 0xF4 ? 0x8F : 0xBF;
  else return 0;
  if (i + length > s.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    const unsigned char b = byte(i + k);
    if (k == 1 ? (b < low || b > high) : (b < 0x80 || b > 0xBF)) return 0;
  }
  return length;
}

// Every byte printable: newline, carriage return and tab as \n \r \t (an error is one line),
// other control bytes and bytes that are not UTF-8 as \xNN; UTF-8 as it is.
inline std::string escaped(std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const std::size_t length = utf8_length(s, i);
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7F || length == 0) out += {'\\', 'x', hex[c >> 4], hex[c & 15]};
    else {
      out.append(s.substr(i, length));
      i += length;
      continue;
    }
    ++i;
  }
  return out;
}

// One character as a reader sees it, in escaped text: an escape (\xNN, \n), a UTF-8 sequence, a byte.
inline std::size_t unit_length(std::string_view s, std::size_t i) {
  if (s[i] == '\\' && i + 1 < s.size()) return s[i + 1] == 'x' && i + 3 < s.size() ? 4 : 2;
  const std::size_t length = utf8_length(s, i);
  return length ? length : 1;
}

// The first `count` characters of `s` (escaped text), and whether more followed.
inline std::string_view first_units(std::string_view s, std::size_t count, bool& more) {
  std::size_t at = 0;
  for (std::size_t n = 0; at < s.size() && n < count; ++n) at += unit_length(s, at);
  more = at < s.size();
  return s.substr(0, at > s.size() ? s.size() : at);
}

inline bool word_byte(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  return (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u == '_' || u >= 0x80;
}

inline constexpr std::size_t max_token = 80;     // a quoted token, '...' included
inline constexpr std::size_t max_text = 1000;    // a whole part (where, problem, hint): a net

// Each 'quoted token' longer than max_token characters cut to its first ones and "...": a quote
// opens a token after a byte that is not a letter or digit (so the graph's width opens none) and
// closes it before one (a token may hold it's). Then the part as a whole cut at max_text.
inline std::string shortened(std::string_view s) {
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (s[i] == '\'' && (i == 0 || !word_byte(s[i - 1]))) {
      std::size_t j = i + 1;
      while (j < s.size() && !(s[j] == '\'' && (j + 1 == s.size() || !word_byte(s[j + 1])))) ++j;
      if (j == s.size()) break;  // no closing quote after i, so none after a later opening one
      bool more = false;
      const std::string_view token = s.substr(i + 1, j - i - 1);
      first_units(token, max_token, more);  // more than max_token characters?
      out += '\'';
      if (more) out.append(first_units(token, max_token - 3, more)).append("...");
      else out.append(token);
      out += '\'';
      i = j + 1;
      continue;
    }
    out += s[i++];
  }
  out.append(s.substr(i));
  bool more = false;
  first_units(out, max_text, more);
  if (!more) return out;
  return std::string(first_units(out, max_text - 3, more)) + "...";
}

// What an error may quote from input, made readable: printable (escaped) and of a readable length.
inline std::string readable(std::string_view s) { return shortened(escaped(s)); }

}  // namespace input_error_detail

class InputError : public std::runtime_error {
 public:
  // `where` names the input (an option, a file:line, a law text); `hint` says how to fix it. All
  // three may quote input: each is made readable (input_error_detail::readable), a megabyte token
  // or raw binary never reaching an error line whole: bytes that are not printable UTF-8 as \xNN
  // (\n, \r, \t), a 'quoted token' over 80 characters cut to 77 and "...", a part over 1000.
  InputError(std::string where, const std::string& problem, std::string hint = {})
      : InputError(Parts{input_error_detail::readable(where), input_error_detail::readable(problem),
                         input_error_detail::readable(hint)}) {}

  const std::string& where() const { return where_; }
  const std::string& problem() const { return problem_; }
  const std::string& hint() const { return hint_; }

 private:
  struct Parts {
    std::string where, problem, hint;
  };
  explicit InputError(Parts parts)
      : std::runtime_error(compose(parts.where, parts.problem, parts.hint)),
        where_(std::move(parts.where)),
        problem_(std::move(parts.problem)),
        hint_(std::move(parts.hint)) {}

  static std::string compose(const std::string& where, const std::string& problem,
                             const std::string& hint) {
    std::string s = where.empty() ? problem : where + ": " + problem;
    if (!hint.empty()) s += " (" + hint + ")";
    return s;
  }
  std::string where_;
  std::string problem_;
  std::string hint_;
};

}  // namespace hetstruct
