// One record type for every result the library hands to a front end: ordered, named fields,
// rendered by the CSV, JSON and text writers below. A header is the record's names, never counted
// by hand, and every command prints its data through these writers.
//
// Values: a number (NaN reads as undefined: empty in CSV, null in JSON), an integer, a text, a
// list of numbers, a flag (true or false), or nothing (empty in CSV, null in JSON). Numbers print exactly (the shortest text that reads back
// to the same double), so a CSV or JSON file round-trips bit for bit. A non-finite number other
// than NaN is bad input at the writer (InputError naming the field: the model overflows a double),
// never a printed `inf`: JSON has no token for it, and no reader should get one.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace hetstruct::engine {

class Record {
 public:
  using Value = std::variant<std::monostate, double, std::int64_t, std::uint64_t, std::string, std::vector<double>, bool>;
  struct Field {
    std::string name;
    Value value;
  };

  Record& add(std::string name, double value) { return put(std::move(name), value); }
  Record& add(std::string name, int value) { return put(std::move(name), static_cast<std::int64_t>(value)); }
  Record& add(std::string name, long value) { return put(std::move(name), static_cast<std::int64_t>(value)); }
  Record& add(std::string name, long long value) { return put(std::move(name), static_cast<std::int64_t>(value)); }
  Record& add(std::string name, unsigned long value) { return put(std::move(name), static_cast<std::uint64_t>(value)); }
  Record& add(std::string name, unsigned long long value) { return put(std::move(name), static_cast<std::uint64_t>(value)); }
  Record& add(std::string name, std::string value) { return put(std::move(name), std::move(value)); }
  Record& add(std::string name, const char* value) { return put(std::move(name), std::string(value)); }
  // A list of numbers: one JSON array; in CSV and text, the numbers joined by ';'.
  Record& add(std::string name, std::vector<double> values) { return put(std::move(name), std::move(values)); }
  Record& add_none(std::string name) { return put(std::move(name), std::monostate{}); }
  // A yes or no: true or false in CSV, text and JSON.
  Record& add_flag(std::string name, bool value) { return put(std::move(name), value); }
  // Appends another record's fields.
  Record& append(const Record& other);

  const std::vector<Field>& fields() const { return fields_; }
  std::vector<std::string> names() const;
  // InputError when a number is infinite (what the writers check), for outputs that format the
  // record themselves.
  void check_finite() const;
  // The field's value as the CSV writes it ("" when there is no such field).
  std::string text(const std::string& name) const;

 private:
  Record& put(std::string name, Value value) {
    fields_.push_back({std::move(name), std::move(value)});
    return *this;
  }
  std::vector<Field> fields_;
};

enum class Format { csv, json, jsonl, text };
// csv, json, jsonl or text; InputError on `format` otherwise.
Format parse_format(const std::string& name);
const char* to_string(Format format);

// ---- CSV (RFC 4180) --------------------------------------------------------------------------
// A field, quoted when it holds a comma, a quote, a carriage return or a newline.
std::string csv_field(const std::string& s);
std::string csv_header(const std::vector<std::string>& names);
std::string csv_line(const Record& r);  // ends with '\n'
// One CSV record split into fields. Returns false when a quote is unterminated.
bool parse_csv_line(const std::string& line, std::vector<std::string>& fields);

// A CSV field as a reader takes it: empty is none, a count's canonical digits ("12", "-3", up to
// 64 bits) a count, one that reads whole as a finite number a number, true or false a flag, the
// rest text.
Record::Value csv_value(const std::string& field);
// A CSV text (a header line, then rows) as records, each field by csv_value. For front ends and
// tests that read a CSV back.
std::vector<Record> records_of_csv(const std::string& text);
// The record as records_of_csv reads its csv_line back, without writing or parsing the line: the
// same names, each value of the kind csv_value gives its CSV text (NaN is none, a count stays a
// count, a number is read from the text it prints, a text is read by csv_value). For outputs that
// print in JSON or text what their CSV says, kind for kind (the sweep's canonical columns: "8" is
// 8). InputError on an infinite number, as the CSV writer.
Record read_back(const Record& r);

// ---- JSON (RFC 8259) -------------------------------------------------------------------------
std::string json_string(const std::string& s);
std::string json_object(const Record& r);  // one line, no newline

// ---- the writers: records as a whole output ---------------------------------------------------
// csv: the header (`names`, or the first record's) and one line a record; json: an array of
// objects, one a line (`single`: the one object alone); jsonl: one object a line, no array (JSON
// Lines: a stream, or files cat joins); text: aligned columns under the names.
std::string render(std::span<const Record> records, Format format, const std::vector<std::string>& names = {},
                   bool single = false);

}  // namespace hetstruct::engine
