#include "engine/simulate/record.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string_view>

#include "distributions/format.h"
#include "distributions/input_error.h"

namespace hetstruct::engine {

namespace {

std::string number_text(double x, const std::string& name) {
  if (std::isnan(x)) return "";
  if (!std::isfinite(x))
    throw InputError(name, "the result is not finite: the model's times overflow a double",
                     "use smaller task times, communication cost or levels");
  return distributions::format_exact(x);
}

// A value as CSV and text write it (before quoting): empty for none and for an undefined number.
std::string plain(const Record::Field& f) {
  return std::visit(
      [&](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) return "";
        else if constexpr (std::is_same_v<T, bool>) return v ? "true" : "false";
        else if constexpr (std::is_same_v<T, double>) return number_text(v, f.name);
        else if constexpr (std::is_same_v<T, std::string>) return v;
        else if constexpr (std::is_same_v<T, std::vector<double>>) {
          std::string list;
          for (const double x : v) list += (list.empty() ? "" : ";") + number_text(x, f.name);
          return list;
        } else return std::to_string(v);
      },
      f.value);
}

std::string json_value(const Record::Field& f) {
  return std::visit(
      [&](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) return "null";
        else if constexpr (std::is_same_v<T, bool>) return v ? "true" : "false";
        else if constexpr (std::is_same_v<T, double>) return std::isnan(v) ? "null" : number_text(v, f.name);
        else if constexpr (std::is_same_v<T, std::string>) return json_string(v);
        else if constexpr (std::is_same_v<T, std::vector<double>>) {
          std::string list;
          for (const double x : v) list += (list.empty() ? "" : ",") + (std::isnan(x) ? "null" : number_text(x, f.name));
          return "[" + list + "]";
        } else return std::to_string(v);
      },
      f.value);
}

}  // namespace

Record& Record::append(const Record& other) {
  fields_.insert(fields_.end(), other.fields_.begin(), other.fields_.end());
  return *this;
}

void Record::check_finite() const { (void)csv_line(*this); }

std::vector<std::string> Record::names() const {
  std::vector<std::string> n;
  for (const auto& f : fields_) n.push_back(f.name);
  return n;
}

std::string Record::text(const std::string& name) const {
  for (const auto& f : fields_)
    if (f.name == name) return plain(f);
  return "";
}

Format parse_format(const std::string& name) {
  if (name == "csv") return Format::csv;
  if (name == "json") return Format::json;
  if (name == "jsonl") return Format::jsonl;
  if (name == "text") return Format::text;
  throw InputError("format", "unknown format '" + name + "'", "choose csv, json, jsonl or text");
}

const char* to_string(Format format) {
  switch (format) {
    case Format::csv: return "csv";
    case Format::json: return "json";
    case Format::jsonl: return "jsonl";
    case Format::text: return "text";
  }
  return "?";
}

std::string csv_field(const std::string& s) {
  // A carriage return is quoted too: readers (parse_csv_line) drop an unquoted one, as CRLF files
  // end their lines with it (found by fuzz_sweep).
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (const char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string csv_header(const std::vector<std::string>& names) {
  std::string line;
  for (std::size_t i = 0; i < names.size(); ++i) line += (i ? "," : "") + csv_field(names[i]);
  return line + "\n";
}

std::string csv_line(const Record& r) {
  std::string line;
  for (std::size_t i = 0; i < r.fields().size(); ++i) line += (i ? "," : "") + csv_field(plain(r.fields()[i]));
  return line + "\n";
}

bool parse_csv_line(const std::string& line, std::vector<std::string>& fields) {
  fields.clear();
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < line.size() && line[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(field);
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  fields.push_back(field);
  return !quoted;
}

namespace {

// A field in a count's canonical digits ("0", "12", "-3"; not "-0", "007" or "+1"): a count, so that
// a seed of 2^64 - 1 or a million replications keeps its digits in JSON and text, not a double's.
std::optional<Record::Value> count_value(const std::string& field) {
  const bool negative = field.front() == '-';
  const std::string_view digits = std::string_view(field).substr(negative ? 1 : 0);
  if (digits.empty() || (digits.front() == '0' && (digits.size() > 1 || negative))) return std::nullopt;
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
  const char* end = field.data() + field.size();
  if (negative) {
    std::int64_t n = 0;
    const auto r = std::from_chars(field.data(), end, n);
    if (r.ec == std::errc() && r.ptr == end) return n;
  } else {
    std::uint64_t n = 0;
    const auto r = std::from_chars(field.data(), end, n);
    if (r.ec == std::errc() && r.ptr == end) return n;
  }
  return std::nullopt;  // beyond 64 bits: a number
}

// Appends a value of one of csv_value's kinds.
void add_read(Record& r, const std::string& name, Record::Value v) {
  if (std::holds_alternative<std::monostate>(v)) r.add_none(name);
  else if (const auto* x = std::get_if<double>(&v)) r.add(name, *x);
  else if (const auto* i = std::get_if<std::int64_t>(&v)) r.add(name, static_cast<long long>(*i));
  else if (const auto* u = std::get_if<std::uint64_t>(&v)) r.add(name, static_cast<unsigned long long>(*u));
  else if (const auto* b = std::get_if<bool>(&v)) r.add_flag(name, *b);
  else r.add(name, std::get<std::string>(std::move(v)));
}

}  // namespace

Record::Value csv_value(const std::string& field) {
  if (field.empty()) return std::monostate{};
  if (auto count = count_value(field)) return *count;
  double x = 0.0;
  const auto parsed = std::from_chars(field.data(), field.data() + field.size(), x);
  if (parsed.ec == std::errc() && parsed.ptr == field.data() + field.size() && std::isfinite(x)) return x;
  if (field == "true" || field == "false") return field == "true";  // as the CSV writer prints a flag
  return field;
}

Record read_back(const Record& r) {
  Record out;
  for (const auto& f : r.fields()) {
    // A double prints as its shortest round-trip text and a count as its digits, which read back
    // to the double itself and to the count correctly rounded: what static_cast gives.
    Record::Value v = std::visit(
        [&](const auto& x) -> Record::Value {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, double>) {
            if (std::isnan(x)) return std::monostate{};
            return csv_value(number_text(x, f.name));  // InputError when infinite; 82 prints as a count
          } else if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>) {
            return csv_value(std::to_string(x));  // a count >= 0 reads back unsigned
          } else if constexpr (std::is_same_v<T, std::monostate> || std::is_same_v<T, bool>) {
            return x;
          } else {
            return csv_value(plain(f));  // a text, or a list joined by ';'
          }
        },
        f.value);
    add_read(out, f.name, std::move(v));
  }
  return out;
}

std::vector<Record> records_of_csv(const std::string& text) {
  std::vector<Record> records;
  std::vector<std::string> header, fields;
  std::size_t start = 0;
  bool first = true;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    parse_csv_line(line, first ? header : fields);
    if (first) {
      first = false;
      continue;
    }
    Record r;
    for (std::size_t i = 0; i < header.size(); ++i) {
      add_read(r, header[i], csv_value(i < fields.size() ? fields[i] : std::string()));
    }
    records.push_back(std::move(r));
  }
  return records;
}

namespace {

// The length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlong form, no surrogate,
// nothing above U+10FFFF), or 0 with `bad` the bytes of its maximal ill-formed prefix (at least 1),
// each such prefix one U+FFFD (Unicode's "substitution of maximal subparts").
std::size_t utf8_sequence(const std::string& s, std::size_t i, std::size_t& bad) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the second byte's range
  if (c >= 0xC2 && c <= 0xDF) length = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    if (c == 0xE0) low = 0xA0;       // overlong below
    else if (c == 0xED) high = 0x9F;  // surrogates above
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    if (c == 0xF0) low = 0x90;       // overlong below
    else if (c == 0xF4) high = 0x8F;  // above U+10FFFF
  }
  bad = 1;
  if (length == 0) return 0;  // a continuation byte alone, C0, C1, F5-FF
  for (std::size_t k = 1; k < length; ++k) {
    if (i + k >= s.size()) return 0;
    const unsigned char b = byte(i + k);
    if (k == 1 ? (b < low || b > high) : (b < 0x80 || b > 0xBF)) return 0;
    bad = k + 1;
  }
  return length;
}

}  // namespace

std::string json_string(const std::string& s) {
  std::string q = "\"";
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      // Text from input (a file's name, a graph's label) may be any bytes: JSON is UTF-8 (RFC 8259
      // 8.1), so a byte that does not belong to well-formed UTF-8 prints as U+FFFD.
      std::size_t bad = 0;
      if (const std::size_t length = utf8_sequence(s, i, bad)) {
        q.append(s, i, length);
        i += length;
      } else {
        q += "\\ufffd";
        i += bad;
      }
      continue;
    }
    if (c == '"' || c == '\\') {
      q += '\\';
      q += static_cast<char>(c);
    } else if (c < 0x20) {  // control characters are escaped: JSON forbids them raw
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      q += buf;
    } else {
      q += static_cast<char>(c);
    }
    ++i;
  }
  return q + "\"";
}

std::string json_object(const Record& r) {
  std::string o = "{";
  for (std::size_t i = 0; i < r.fields().size(); ++i)
    o += (i ? "," : "") + json_string(r.fields()[i].name) + ":" + json_value(r.fields()[i]);
  return o + "}";
}

std::string render(std::span<const Record> records, Format format, const std::vector<std::string>& names, bool single) {
  const std::vector<std::string> header = !names.empty() || records.empty() ? names : records.front().names();
  std::string out;
  switch (format) {
    case Format::csv:
      out = csv_header(header);
      for (const auto& r : records) out += csv_line(r);
      break;
    case Format::json:
      if (single && records.size() == 1) return json_object(records.front()) + "\n";
      out = "[";
      for (std::size_t i = 0; i < records.size(); ++i) out += (i ? ",\n" : "\n") + json_object(records[i]);
      out += records.empty() ? "]\n" : "\n]\n";
      break;
    case Format::jsonl:
      for (const auto& r : records) out += json_object(r) + "\n";
      break;
    case Format::text: {
      // Columns as wide as their widest cell, numbers as the CSV has them (exact).
      std::vector<std::vector<std::string>> cells;
      for (const auto& r : records) {
        std::vector<std::string> row;
        for (const auto& f : r.fields()) row.push_back(plain(f));
        cells.push_back(std::move(row));
      }
      std::vector<std::size_t> width(header.size());
      for (std::size_t c = 0; c < header.size(); ++c) width[c] = header[c].size();
      for (const auto& row : cells)
        for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], row[c].size());
      auto line = [&](const std::vector<std::string>& row) {
        std::string l;
        for (std::size_t c = 0; c < row.size(); ++c) {
          l += row[c];
          if (c + 1 < row.size()) l += std::string(width[c] - row[c].size() + 2, ' ');
        }
        l.erase(l.find_last_not_of(' ') + 1);  // empty last columns leave no trailing blanks
        out += l + "\n";
      };
      line(header);
      for (const auto& row : cells) line(row);
      break;
    }
  }
  return out;
}

}  // namespace hetstruct::engine
