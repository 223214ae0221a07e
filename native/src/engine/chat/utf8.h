// Model output is bytes, and a random or confused model writes ill-formed UTF-8. JavaScript reads text with each
// maximal ill-formed subpart replaced by U+FFFD (the WHATWG decoder, V8's); the output parser reads the same
// text, so what it gives back is what the response would have said of the bytes. Pure, unit-tested.
#pragma once

#include <string>

namespace cts {

// `s` with each maximal subpart of an ill-formed UTF-8 sequence replaced by U+FFFD (Unicode's recommended
// practice, which the WHATWG decoder follows); well-formed text comes back as it is.
std::string well_formed_utf8(const std::string & s);

}  // namespace cts
