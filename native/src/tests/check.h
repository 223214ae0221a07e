// What the native test programs share: a failed check is printed and counted, and the program's exit
// status says whether any failed (test/unit/native/engineUnit.test.ts runs them).
#pragma once

#include <cstdio>
#include <string>

namespace cts_test {

inline int failures = 0;

inline void check(bool ok, const std::string & what) {
    if (!ok) {
        failures++;
        fprintf(stderr, "FAIL: %s\n", what.c_str());
    }
}

// The exit status of a test program named `suite`, after its checks ran.
inline int finish(const char * suite) {
    if (failures) {
        fprintf(stderr, "%d failed\n", failures);
        return 1;
    }
    printf("%s: all passed\n", suite);
    return 0;
}

}  // namespace cts_test
