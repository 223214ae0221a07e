// The Jinja AST. Every node carries its source range as UTF-16 offsets into the original
// template text (not the newline-normalised one), so diagnostics, provenance and quick fixes
// can point at the exact characters the user typed. Nodes are plain data: the interpreter,
// the static rules and the editor services all walk the same objects.

export interface Span {
  start: number;
  end: number;
}

interface NodeBase extends Span {
  /** Unique within one parse; output chunks and runtime errors refer to nodes by id. */
  id: number;
}

// ---------------------------------------------------------------- expressions

/** `true`, `False`, `none`, … — `spelling` keeps the exact word, since engines differ on `True`/`None`. */
export interface Const extends NodeBase {
  kind: "Const";
  value: boolean | null;
  spelling: string;
}
export interface Str extends NodeBase {
  kind: "Str";
  /** Decoded value; adjacent literals (`'a' 'b'`) are already joined, as Jinja2 does. */
  value: string;
}
export interface Int extends NodeBase {
  kind: "Int";
  /** Arbitrary precision: Jinja2 ints are Python ints. */
  value: bigint;
}
export interface Float extends NodeBase {
  kind: "Float";
  value: number;
  /** Source spelling, e.g. `1e3`, `1_000.5`. */
  raw: string;
}
export interface Name extends NodeBase {
  kind: "Name";
  name: string;
}
/** `obj.attr`; `numeric` marks `x.0`, which Jinja2 reads as `x[0]` and some engines refuse. */
export interface GetAttr extends NodeBase {
  kind: "GetAttr";
  object: Expr;
  attr: string;
  attrSpan: Span;
  numeric: boolean;
}
export interface GetItem extends NodeBase {
  kind: "GetItem";
  object: Expr;
  index: Expr;
}
export interface Slice extends NodeBase {
  kind: "Slice";
  startExpr: Expr | null;
  stopExpr: Expr | null;
  stepExpr: Expr | null;
}
export interface Keyword extends Span {
  name: string;
  nameSpan: Span;
  value: Expr;
}
export interface CallArgs {
  args: Expr[];
  kwargs: Keyword[];
  /** `*args` / `**kwargs` in a call (rare in chat templates, but Jinja2 accepts them). */
  starArgs: Expr | null;
  starKwargs: Expr | null;
}
export interface Call extends NodeBase, CallArgs {
  kind: "Call";
  callee: Expr;
}
/** `expr | name(args)`; `expr` is null for the filter of `{% filter %}` and `{% set x | f %}`. */
export interface Filter extends NodeBase, CallArgs {
  kind: "Filter";
  expr: Expr | null;
  name: string;
  nameSpan: Span;
}
/** `expr is [not] name(args)` */
export interface Test extends NodeBase, CallArgs {
  kind: "Test";
  expr: Expr;
  name: string;
  nameSpan: Span;
  negated: boolean;
}
export type UnaryOp = "not" | "-" | "+";
export interface Unary extends NodeBase {
  kind: "Unary";
  op: UnaryOp;
  opSpan: Span;
  operand: Expr;
}
export type BinaryOp = "or" | "and" | "+" | "-" | "*" | "/" | "//" | "%" | "**" | "~";
export interface Binary extends NodeBase {
  kind: "Binary";
  op: BinaryOp;
  opSpan: Span;
  left: Expr;
  right: Expr;
}
export type CompareOp = "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not in";
export interface CompareOperand {
  op: CompareOp;
  opSpan: Span;
  right: Expr;
}
/** Chained comparison `a < b < c`; `in` and `not in` live here too, as in Jinja2. */
export interface Compare extends NodeBase {
  kind: "Compare";
  left: Expr;
  ops: CompareOperand[];
}
/** `a if test else b`; `orElse` is null for `a if test` (Jinja2 yields undefined then). */
export interface Conditional extends NodeBase {
  kind: "Conditional";
  test: Expr;
  then: Expr;
  orElse: Expr | null;
}
export interface List extends NodeBase {
  kind: "List";
  items: Expr[];
}
export interface Tuple extends NodeBase {
  kind: "Tuple";
  items: Expr[];
  parenthesized: boolean;
}
export interface DictPair extends Span {
  key: Expr;
  value: Expr;
}
export interface Dict extends NodeBase {
  kind: "Dict";
  pairs: DictPair[];
}
/** Stand-in for an expression that failed to parse; evaluation of it is always an error. */
export interface ErrorExpr extends NodeBase {
  kind: "ErrorExpr";
}

export type Expr =
  | Const
  | Str
  | Int
  | Float
  | Name
  | GetAttr
  | GetItem
  | Slice
  | Call
  | Filter
  | Test
  | Unary
  | Binary
  | Compare
  | Conditional
  | List
  | Tuple
  | Dict
  | ErrorExpr;

// ---------------------------------------------------------------- statements

/** `raw_begin` is `{% raw %}` (never trims after itself); `raw_end` is `{% endraw %}`. */
export type TagType = "block" | "variable" | "comment" | "raw_begin" | "raw_end";
/** One delimiter next to a text run, with its whitespace-control sign. */
export interface TagEdge extends Span {
  type: TagType;
  /** `-` strips, `+` disables lstrip_blocks / trim_blocks, `` is neither. */
  sign: "-" | "+" | "";
}

/**
 * Template data between tags. `value` is what Jinja2 emits for it under the parse options
 * (trim_blocks, lstrip_blocks, `-`/`+`, newline normalisation, trailing newline); `[valueStart,
 * valueEnd)` is the part of the source it comes from. `before`/`after` are the neighbouring tag
 * edges, so a dialect with other whitespace rules can recompute its own value from the source.
 */
export interface Text extends NodeBase {
  kind: "Text";
  value: string;
  valueStart: number;
  valueEnd: number;
  before: TagEdge | null;
  after: TagEdge | null;
}
/** `{{ expr }}` */
export interface Output extends NodeBase {
  kind: "Output";
  expr: Expr;
}
export interface IfBranch extends Span {
  /** The `{% if … %}` / `{% elif … %}` tag. */
  tag: Span;
  test: Expr;
  body: Stmt[];
}
export interface If extends NodeBase, Block {
  kind: "If";
  branches: IfBranch[];
  orElse: Stmt[] | null;
  elseTag: Span | null;
}
/** Where a block statement's tags are: the opening tag and the end tag (null when unclosed). */
export interface Block {
  openTag: Span;
  endTag: Span | null;
}
export interface For extends NodeBase, Block {
  kind: "For";
  target: Expr;
  iter: Expr;
  filter: Expr | null;
  recursive: boolean;
  body: Stmt[];
  orElse: Stmt[] | null;
  elseTag: Span | null;
}
/** `{% set target = value %}`; target is a Name, a Tuple of Names, or `ns.attr` (GetAttr). */
export interface Set extends NodeBase {
  kind: "Set";
  target: Expr;
  value: Expr;
}
/** `{% set target | filters %}body{% endset %}` */
export interface SetBlock extends NodeBase, Block {
  kind: "SetBlock";
  target: Expr;
  filter: Filter | null;
  body: Stmt[];
}
export interface Param extends Span {
  name: string;
  default: Expr | null;
}
export interface Macro extends NodeBase, Block {
  kind: "Macro";
  name: string;
  nameSpan: Span;
  params: Param[];
  body: Stmt[];
}
/** `{% call(params) callee(args) %}body{% endcall %}` — body is the `caller()` macro. */
export interface CallBlock extends NodeBase, Block {
  kind: "CallBlock";
  call: Call;
  params: Param[];
  body: Stmt[];
}
/** `{% filter f | g %}body{% endfilter %}` — `filter` is the outermost filter of the chain. */
export interface FilterBlock extends NodeBase, Block {
  kind: "FilterBlock";
  filter: Filter;
  body: Stmt[];
}
/** `{% raw %}…{% endraw %}`: body is literal text. */
export interface Raw extends NodeBase, Block {
  kind: "Raw";
  text: Text;
}
/** HF transformers' `{% generation %}` tag: renders its body, marks assistant tokens. */
export interface Generation extends NodeBase, Block {
  kind: "Generation";
  body: Stmt[];
}
export interface LoopControl extends NodeBase {
  kind: "Break" | "Continue";
}
export interface WithAssignment extends Span {
  target: Expr;
  value: Expr;
}
export interface With extends NodeBase, Block {
  kind: "With";
  assignments: WithAssignment[];
  body: Stmt[];
}
/** `{% autoescape value %}body{% endautoescape %}`: a scope whose printed values are HTML-escaped while `value` is true (Jinja2). */
export interface Autoescape extends NodeBase, Block {
  kind: "Autoescape";
  value: Expr;
  body: Stmt[];
}
/** `include`, `import`, `from … import`, `extends`: parsed, but a chat template has no loader. */
export interface TemplateRef extends NodeBase {
  kind: "Include" | "Import" | "FromImport" | "Extends";
  template: Expr;
  /** `import … as alias` / the names of `from … import a, b as c`. */
  names: { name: string; alias: string | null }[];
}
export interface BlockStmt extends NodeBase, Block {
  kind: "BlockStmt";
  name: string;
  nameSpan: Span;
  body: Stmt[];
}
/** A tag that failed to parse; kept so ranges stay accurate and the rest still renders. */
export interface ErrorStmt extends NodeBase {
  kind: "ErrorStmt";
}

export type Stmt =
  | Text
  | Output
  | If
  | For
  | Set
  | SetBlock
  | Macro
  | CallBlock
  | FilterBlock
  | Raw
  | Generation
  | LoopControl
  | With
  | Autoescape
  | TemplateRef
  | BlockStmt
  | ErrorStmt;

export interface Comment extends Span {
  /** The text between `{#` and `#}` (without signs). */
  text: string;
}

export interface Template extends NodeBase {
  kind: "Template";
  body: Stmt[];
  comments: Comment[];
}

export type Node = Expr | Stmt | Template;
