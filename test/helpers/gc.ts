// A full garbage collection from a test, without starting node with --expose-gc.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}
