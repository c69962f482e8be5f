// The port-model registry: one declaration per way a DAG's messages use the processors (its
// name, a one-line summary and whether it books ports), in the shape of the protocol registry
// (engine/kernel/communication.h). Parsing, help texts and error messages read the names from
// here; the rules themselves are in engine/kernel/plan.h. docs/architecture.md says what adding a
// port model touches.
#pragma once

#include <string>
#include <vector>

namespace hetstruct::engine {

// How a DAG's messages use the processors (engine/kernel/plan.h states each model's rules).
enum class Port { free, one_port, one_port_greedy };

struct PortModelInfo {
  Port port;
  const char* name;
  const char* summary;  // the help text's words
  // Whether the model books ports (a processor sends one message at a time and receives one at a
  // time): those take --overlap, and a sweep spells them with it as NAME-overlap.
  bool one_port;
};

// Every port model, the default (free) first, in the order help texts list them.
const std::vector<PortModelInfo>& port_models();
const PortModelInfo& port_model(Port port);

const char* to_string(Port port);
// Accepts the registry's names (InputError on `port` otherwise, listing them).
Port parse_port(const std::string& name);

// The names, `separator` between them and `last` before the last ("free, one-port or
// one-port-greedy"); with `spellings`, each one-port model followed by its overlap spelling (as a
// sweep spells them); with `one_port_only`, the models that book ports only.
std::string port_names(const std::string& separator = ", ", const std::string& last = " or ", bool spellings = false,
                       bool one_port_only = false);
// The overlap spellings only ("one-port-overlap and one-port-greedy-overlap").
std::string overlap_spellings(const std::string& separator = ", ", const std::string& last = " and ");

// A port model as a sweep spells it, a one-port model with overlap as one name: one-port-overlap,
// one-port-greedy-overlap; else parse_port's names (and its InputError).
struct SpelledPort {
  Port port = Port::free;
  bool overlap = false;
};
SpelledPort parse_port_spelling(const std::string& name);
// The inverse: a port and overlap as one name (one-port and overlap: one-port-overlap).
std::string port_spelling(Port port, bool overlap);

}  // namespace hetstruct::engine
