// The variables Jinja2 defines inside a macro body.
import { indexByName, type Fact } from "./fact";

export const MACRO_VARIABLES: readonly Fact[] = [
  {
    name: "caller",
    signature: "caller(*args)",
    doc: "In a macro called by `{% call %}`: renders the call block's body (passing `args` to its parameters).",
  },
  { name: "varargs", doc: "In a macro: the extra positional arguments it was called with, as a tuple." },
  { name: "kwargs", doc: "In a macro: the extra keyword arguments it was called with, as a dict." },
];

export const MACRO_VARIABLES_BY_NAME = indexByName(MACRO_VARIABLES);
