#include "engine/kernel/port_models.h"

#include <stdexcept>

#include "distributions/input_error.h"

namespace hetstruct::engine {

namespace {

constexpr const char* overlap_suffix = "-overlap";

std::string joined(const std::vector<std::string>& names, const std::string& separator, const std::string& last) {
  std::string out;
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (k > 0) out += k + 1 == names.size() ? last : separator;
    out += names[k];
  }
  return out;
}

}  // namespace

const std::vector<PortModelInfo>& port_models() {
  static const std::vector<PortModelInfo> table = {
      {Port::free, "free", "a message only delays its receiver; the default", false},
      {Port::one_port, "one-port",
       "a processor sends one message at a time and receives one at a time; a message books both ports when its "
       "data is ready: blocking sends",
       true},
      {Port::one_port_greedy, "one-port-greedy",
       "the same ports, work-conserving: no processor idles while it has a task it can start or a message it can "
       "send",
       true},
  };
  return table;
}

const PortModelInfo& port_model(Port port) {
  for (const auto& m : port_models())
    if (m.port == port) return m;
  throw std::logic_error("port_model: unknown port model");
}

const char* to_string(Port port) { return port_model(port).name; }

std::string port_names(const std::string& separator, const std::string& last, bool spellings, bool one_port_only) {
  std::vector<std::string> names;
  for (const auto& m : port_models()) {
    if (one_port_only && !m.one_port) continue;
    names.emplace_back(m.name);
    if (spellings && m.one_port) names.push_back(port_spelling(m.port, true));
  }
  return joined(names, separator, last);
}

std::string overlap_spellings(const std::string& separator, const std::string& last) {
  std::vector<std::string> names;
  for (const auto& m : port_models())
    if (m.one_port) names.push_back(port_spelling(m.port, true));
  return joined(names, separator, last);
}

Port parse_port(const std::string& name) {
  for (const auto& m : port_models())
    if (name == m.name) return m.port;
  throw InputError("port", "unknown port model '" + name + "'", "choose " + port_names());
}

SpelledPort parse_port_spelling(const std::string& name) {
  for (const auto& m : port_models())
    if (m.one_port && name == port_spelling(m.port, true)) return {m.port, true};
  return {parse_port(name), false};
}

std::string port_spelling(Port port, bool overlap) {
  const std::string name = to_string(port);
  return overlap ? name + overlap_suffix : name;
}

}  // namespace hetstruct::engine
