// The law syntax's lexical rules for a text that holds laws without being one (a sweep's list):
// where its items end, read as parse_law (law.h) reads a law.
#pragma once

#include <string>
#include <vector>

namespace hetstruct::distributions {

// Splits `text` at each `separator` outside parentheses and outside an emp() path, which the
// parser reads whole: quoted ("a,b).txt", with \" and \\), or bare up to the first ')'. The items
// are not trimmed; "u(0,1),emp(\"x,).txt\")" gives u(0,1) and emp("x,).txt").
std::vector<std::string> split_outside_laws(const std::string& text, char separator);

}  // namespace hetstruct::distributions
