#include "utf8.h"

namespace cts {

namespace {

const char REPLACEMENT[] = "\xEF\xBF\xBD";

// The length of the sequence lead byte `c` starts and the range its second byte must fall in (Unicode's table
// of well-formed byte sequences); 0 for a byte no sequence starts with.
int sequence(unsigned char c, unsigned char & lo, unsigned char & hi) {
    lo = 0x80;
    hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        return 2;
    }
    if (c == 0xE0) {
        lo = 0xA0;
        return 3;
    }
    if (c == 0xED) {
        hi = 0x9F;  // no surrogates
        return 3;
    }
    if (c >= 0xE1 && c <= 0xEF) {
        return 3;
    }
    if (c == 0xF0) {
        lo = 0x90;
        return 4;
    }
    if (c == 0xF4) {
        hi = 0x8F;  // nothing past U+10FFFF
        return 4;
    }
    if (c >= 0xF1 && c <= 0xF3) {
        return 4;
    }
    return 0;
}

}  // namespace

std::string well_formed_utf8(const std::string & s) {
    std::string out;
    out.reserve(s.size());
    const size_t n = s.size();
    for (size_t i = 0; i < n;) {
        const unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            out += (char)c;
            i++;
            continue;
        }
        unsigned char lo, hi;
        const int len = sequence(c, lo, hi);
        size_t j = i + 1;
        bool whole = len > 0;
        for (int k = 1; whole && k < len; k++, j++) {
            const unsigned char b = j < n ? (unsigned char)s[j] : 0;
            whole = j < n && b >= (k == 1 ? lo : 0x80) && b <= (k == 1 ? hi : 0xBF);
            if (!whole) {
                break;
            }
        }
        if (whole) {
            out.append(s, i, len);
        } else {
            out += REPLACEMENT;  // the lead byte and the continuation bytes that fit it, as one character
        }
        i = whole ? i + len : j;
    }
    return out;
}

}  // namespace cts
