// The `loop` variable Jinja2 defines inside every `{% for %}` body (jinja2.runtime.LoopContext).
import { scalar, type FieldFact, type ObjectShape } from "./fact";

const int = scalar("int");
const bool = scalar("bool");
const any = scalar("any");

export const LOOP: ObjectShape = {
  name: "LoopContext",
  dict: false,
  fields: [
    { name: "index", type: int, doc: "The current iteration, counting from 1." },
    { name: "index0", type: int, doc: "The current iteration, counting from 0." },
    { name: "revindex", type: int, doc: "Iterations left, counting down to 1 on the last one." },
    { name: "revindex0", type: int, doc: "Iterations left, counting down to 0 on the last one." },
    { name: "first", type: bool, doc: "True on the first iteration." },
    { name: "last", type: bool, doc: "True on the last iteration (with a loop filter: the last item that passes it)." },
    { name: "length", type: int, doc: "The number of items (after the loop's `if` filter)." },
    { name: "depth", type: int, doc: "In a `recursive` loop: the nesting level, starting at 1." },
    { name: "depth0", type: int, doc: "In a `recursive` loop: the nesting level, starting at 0." },
    { name: "previtem", type: any, doc: "The item of the previous iteration (undefined on the first)." },
    { name: "nextitem", type: any, doc: "The item of the next iteration (undefined on the last)." },
    {
      name: "cycle",
      type: any,
      signature: "cycle(*values)",
      doc: "The value at this iteration's position, cycling: `loop.cycle('odd', 'even')`.",
    },
    {
      name: "changed",
      type: bool,
      signature: "changed(*values)",
      doc: "True when the values differ from the previous call's (and on the first call).",
    },
  ],
};

export const LOOP_VARIABLE: FieldFact = {
  name: "loop",
  type: { kind: "object", shape: LOOP },
  doc: "Inside a `for` body: the loop's state (`loop.index`, `loop.first`, `loop.last`, …). In a `recursive` loop, `loop(children)` recurses.",
};
