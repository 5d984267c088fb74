// Random edits of a valid input, for the mutation tests of every text reader (Datalog programs,
// .tuples, .map, .bdd files): each must read the result or refuse it with a located error.
#pragma once

#include <cstddef>
#include <random>
#include <string>
#include <string_view>

namespace refract::test {

// `text` after one to three random edits (a byte erased, inserted or replaced, the new bytes
// drawn from `alphabet`): hostile input for the readers' mutation tests.
inline std::string mutated(std::string text, std::mt19937& random, std::string_view alphabet) {
  const int edits = 1 + static_cast<int>(random() % 3);
  for (int e = 0; e < edits && !text.empty(); ++e) {
    const std::size_t at = random() % text.size();
    const char c = alphabet[random() % alphabet.size()];
    switch (random() % 3) {
      case 0:
        text.erase(at, 1);
        break;
      case 1:
        text.insert(at, 1, c);
        break;
      default:
        text[at] = c;
    }
  }
  return text;
}

}  // namespace refract::test
