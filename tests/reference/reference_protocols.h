// The protocols as they were before they were made faster, frozen (reference_protocols.cpp), for
// the benchmark and the tests only: the engine library does not ship them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/kernel/communication.h"

namespace hetstruct::engine {

// The protocols as they were before they were made faster (issue 11), frozen in
// reference_protocols.cpp: hetstruct_bench times them beside the current ones in the same
// run, and tests hold the two equal bit for bit. Not offered to users. reference_protocol_names
// lists those kept for `structure` ("sync", "nn", "ms"); any other name throws InputError.
std::unique_ptr<Protocol> make_reference_protocol(const std::string& structure, const std::string& name,
                                                  const CommSetup& setup);
std::vector<std::string> reference_protocol_names(const std::string& structure);
// The initiator-collector protocols (synchronous.cpp) before their receipts were scheduled first
// come, first served: the greedy port with a heap of waiting messages, every draw through
// TaskTimes::next. The class keeps both forms behind a flag; make_reference_protocol("sync", ...)
// returns this one. Reading 4 (initiator-collector-release, -release-whole) came after: its
// frozen form only draws through TaskTimes::next, holding its monomorphic draws to the general path.
std::unique_ptr<Protocol> make_frozen_synchronous_protocol(const std::string& name, const CommSetup& setup);

}  // namespace hetstruct::engine
