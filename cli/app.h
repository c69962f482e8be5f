#pragma once

namespace hetstruct::cli {

// Runs the hetstruct command line; returns the exit status (0 ok, 2 bad input, 1 internal error).
int run(int argc, char** argv);

}  // namespace hetstruct::cli
