// Asynchronous master-slave structure with communication and dealing policies (Wilson 5.1,
// Figure 4; wilson-semantics.md; Morin 1998 for the policies).
#include "distributions/input_error.h"
#include "engine/communication.h"

namespace hetstruct::engine {

std::vector<std::string> master_slave_protocol_names() { return {}; }

std::unique_ptr<Protocol> make_master_slave_protocol(const std::string& name, const CommSetup&) {
  throw InputError("--protocol", "unknown master-slave protocol '" + name + "'");
}

}  // namespace hetstruct::engine
