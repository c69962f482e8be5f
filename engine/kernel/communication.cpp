#include "engine/kernel/communication.h"

#include <algorithm>

#include "distributions/input_error.h"
#include "engine/kernel/port_models.h"

namespace hetstruct::engine {

using structures::StructureKind;

const std::vector<ProtocolEntry>& protocol_family(StructureKind structure) {
  switch (structure) {
    case StructureKind::synchronous: return synchronous_protocols();
    case StructureKind::nearest_neighbor: return neighbor_protocols();
    case StructureKind::master_slave: return master_slave_protocols();
    case StructureKind::asynchronous: throw InputError("protocol", "the asynchronous structure has no communication protocol");
    case StructureKind::custom:
      throw InputError("protocol", "a DAG communicates by a port model, not a protocol",
                       "use port " + port_names());
  }
  throw std::logic_error("protocol_family: unknown structure");
}

const ProtocolEntry& find_protocol(StructureKind structure, const std::string& name) {
  const auto& family = protocol_family(structure);
  for (const auto& entry : family)
    if (name == entry.name) return entry;
  std::string list;
  for (const auto& entry : family) list += (list.empty() ? "" : ", ") + std::string(entry.name);
  throw InputError("protocol", "unknown protocol '" + name + "' for " + structures::to_string(structure), "choose " + list);
}

bool in_family(StructureKind structure, const ProtocolEntry& protocol) {
  const auto& family = protocol_family(structure);
  return std::any_of(family.begin(), family.end(), [&](const ProtocolEntry& e) { return &e == &protocol; });
}

std::vector<std::string> protocol_names(StructureKind structure) { return names_of(protocol_family(structure)); }

std::unique_ptr<Protocol> make_from(const std::vector<ProtocolEntry>& family, const char* family_name,
                                    const std::string& name, const CommSetup& setup) {
  for (const auto& entry : family)
    if (name == entry.name) return entry.make(setup);
  throw InputError("protocol", "unknown " + std::string(family_name) + " protocol '" + name + "'");
}

std::vector<std::string> names_of(const std::vector<ProtocolEntry>& family) {
  std::vector<std::string> names;
  for (const auto& entry : family) names.emplace_back(entry.name);
  return names;
}

}  // namespace hetstruct::engine
