#include "engine/kernel/communication.h"

#include <algorithm>

#include "distributions/input_error.h"

namespace hetstruct::engine {

std::vector<std::string> protocol_names(const std::string& structure) {
  if (structure == "sync") return synchronous_protocol_names();
  if (structure == "nn") return neighbor_protocol_names();
  if (structure == "ms") return master_slave_protocol_names();
  throw InputError("protocol", "the " + structure + " structure has no communication protocol");
}

std::unique_ptr<Protocol> make_protocol(const std::string& structure, const std::string& name, const CommSetup& setup) {
  const auto names = protocol_names(structure);
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw InputError("protocol", "unknown protocol '" + name + "' for " + structure, "choose " + list);
  }
  if (structure == "sync") return make_synchronous_protocol(name, setup);
  if (structure == "nn") return make_neighbor_protocol(name, setup);
  return make_master_slave_protocol(name, setup);
}

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
