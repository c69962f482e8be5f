// The one error type for bad input anywhere in hetstruct (law text, options, graph files).
// It lives in the lowest layer so that every layer can throw it; the CLI turns it into one line on
// stderr and exit status 2.
#pragma once

#include <stdexcept>
#include <string>

namespace hetstruct {

class InputError : public std::runtime_error {
 public:
  // `where` names the input (an option, a file:line, a law text); `hint` says how to fix it.
  InputError(std::string where, const std::string& problem, std::string hint = {})
      : std::runtime_error(compose(where, problem, hint)),
        where_(std::move(where)),
        problem_(problem),
        hint_(std::move(hint)) {}

  const std::string& where() const { return where_; }
  const std::string& problem() const { return problem_; }
  const std::string& hint() const { return hint_; }

 private:
  static std::string compose(const std::string& where, const std::string& problem,
                             const std::string& hint) {
    std::string s = where.empty() ? problem : where + ": " + problem;
    if (!hint.empty()) s += " (" + hint + ")";
    return s;
  }
  std::string where_;
  std::string problem_;
  std::string hint_;
};

}  // namespace hetstruct
