// llama.cpp's parser (common/jinja/parser.cpp) ported function for function, building our AST so the
// one interpreter can run it. Its grammar is not Jinja2's, and the differences decide values, not
// only acceptance: `~` sits with `+`/`-` (so `1 + 2 ~ 'a'` is "3a"), comparisons do not chain
// (`a < b < c` is `(a < b) < c`), tests bind looser than filters and take no bare argument
// (`x is divisibleby 3` does not parse), a list or call needs no commas (`[1e3]` is `[1, e3]`),
// `true`/`none` are variables, `**`, `//`, `recursive`, `raw`, `with` … do not parse at all.
// A construct that parses but fails whenever it runs (an unassignable `set` target, `*args`) gets a
// render-time refusal with the engine's message, keyed by node id.
import type { Refusal } from "../../interpreter/kit";
import type * as A from "../../parser";
import { deepestOpening, fitted, limitDepth, MAX_NESTING, nestingMessage, TokenWindow } from "../../parser";
import { stod } from "./cParse";
import { LexError, TOKEN_TYPE_NUMBER, tokens, type Token, type TokenType } from "./lexer";

export type LlamaParse =
  | { template: A.Template; refusals: ReadonlyMap<number, Refusal> }
  /** `nesting`: refused for nesting past our limits (parser/nesting.ts), not an error of the engine's. */
  | { error: { message: string; start: number; end: number; nesting?: true } };

/** An exception the engine throws while compiling: "parser: Parser Error: …" (parser_exception) or a bare runtime_error. */
class CompileError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

/** Nesting past parser/nesting.ts's limits: llama.cpp's own parser recurses too, and crashes a few thousand levels deep. */
class NestingError extends CompileError {}

const EOF: Token = { t: "eof", value: "", start: 0, end: 0 };
const OPENS = new Set<TokenType>(["open_paren", "open_square_bracket", "open_curly_bracket"]);
const CLOSES = new Set<TokenType>(["close_paren", "close_square_bracket", "close_curly_bracket"]);
const BLOCK_TAGS = new Set(["if", "for", "macro", "call", "filter", "generation"]);

/** The engine's statement/expression type names, as "Invalid LHS inside assignment expression: X" prints them. */
const LLAMA_TYPE: Partial<Record<A.Node["kind"], string>> = {
  Name: "Identifier",
  Int: "IntegerLiteral",
  Float: "FloatLiteral",
  Str: "StringLiteral",
  List: "ArrayLiteral",
  Tuple: "TupleLiteral",
  Dict: "ObjectLiteral",
  GetAttr: "MemberExpression",
  GetItem: "MemberExpression",
  Call: "CallExpression",
  Filter: "FilterExpression",
  Test: "TestExpression",
  Unary: "UnaryExpression",
  Binary: "BinaryExpression",
  Compare: "BinaryExpression",
  Conditional: "Ternary",
};

type Arg =
  { kind: "pos"; expr: A.Expr } | { kind: "kw"; key: A.Expr; value: A.Expr; start: number; end: number } | { kind: "spread"; expr: A.Expr };

class Parser {
  private current = 0;
  private nextId = 0;
  private blocks = 0;
  private nesting = 0;
  readonly refusals = new Map<number, Refusal>();

  constructor(
    private readonly tokens: TokenWindow<Token>,
    private readonly sourceLength: number,
  ) {}

  private id(): number {
    return this.nextId++;
  }
  /** One level deeper in expressions, refused past MAX_NESTING. */
  private deeper<T>(parse: () => T): T {
    if (this.nesting >= MAX_NESTING)
      throw new NestingError(nestingMessage("brackets and operators"), this.deepestFrom(this.current) ?? this.peek().start);
    this.nesting++;
    try {
      return parse();
    } finally {
      this.nesting--;
    }
  }
  /** Lets the tokens the parser has gone past go (TokenWindow), within a long expression too: it never looks more than one token back. */
  private release(): void {
    this.tokens.release(this.current - 2);
  }
  private peek(offset = 0): Token {
    this.release();
    return this.tokens.at(this.current + offset) ?? EOF;
  }
  private get prevEnd(): number {
    return this.tokens.at(this.current - 1)?.end ?? 0;
  }
  private next(): Token {
    const t = this.tokens.at(this.current);
    if (!t) throw new CompileError("parser: Parser Error: Unexpected EOF", this.tokens.at(this.tokens.length - 1)?.start ?? 0);
    this.current++;
    return t;
  }
  private expect(t: TokenType, error: string): Token {
    const tok = this.peek();
    if (tok.t !== t) throw new CompileError(`parser: Parser Error: ${error} (Got ${tok.value})`, tok.start);
    this.current++;
    return tok;
  }
  private expectIdentifier(name: string): void {
    const tok = this.peek();
    if (tok.t !== "identifier" || tok.value !== name) throw new CompileError(`parser: Expected identifier: ${name}`, tok.start);
    this.current++;
  }
  private is(t: TokenType): boolean {
    return this.peek().t === t;
  }
  private isIdentifier(name: string): boolean {
    return this.peek().t === "identifier" && this.peek().value === name;
  }
  private isStatement(names: readonly string[]): boolean {
    return this.peek(0).t === "open_statement" && this.peek(1).t === "identifier" && names.includes(this.peek(1).value);
  }
  private refuse(node: A.Node, message: string): void {
    this.refusals.set(node.id, { code: "runtime/unsupported", message, when: "render" });
  }

  /**
   * What set_statement / for_statement refuse to assign to, as refusals on the target (or the bad
   * tuple item), which the interpreter checks when it assigns: after the value is computed, as there.
   */
  private checkTarget(target: A.Expr, by: "set" | "for"): void {
    const name = (e: A.Expr) => LLAMA_TYPE[e.kind] ?? e.kind;
    if (target.kind === "Name") return;
    if (target.kind === "Tuple") {
      for (const item of target.items) {
        if (item.kind !== "Name")
          this.refuse(
            item,
            by === "set" ? `Cannot unpack to non-identifier in set: ${name(item)}` : `Cannot unpack non-identifier type: ${name(item)}`,
          );
      }
    } else if (by === "for") this.refuse(target, `Invalid loop variable(s): ${name(target)}`);
    else if (target.kind === "GetItem") this.refuse(target, "Cannot assign to computed member");
    else if (target.kind === "GetAttr") {
      if (target.numeric) this.refuse(target, "Cannot assign to member with non-identifier property");
    } else this.refuse(target, `Invalid LHS inside assignment expression: ${name(target)}`);
  }

  /** Where the nesting (brackets and block tags) that crossed the limit at token `from` goes deepest (nesting.ts), or null. */
  private deepestFrom(from: number): number | null {
    const tag = (i: number) =>
      this.tokens.at(i - 1)?.t === "open_statement" && this.tokens.at(i)!.t === "identifier" ? this.tokens.at(i)!.value : "";
    const at = deepestOpening(
      from,
      this.tokens.length,
      (i) => OPENS.has(this.tokens.at(i)!.t) || BLOCK_TAGS.has(tag(i)),
      (i) => CLOSES.has(this.tokens.at(i)!.t) || tag(i).startsWith("end"),
    );
    // a block tag's opening is its `{%`, the token before its name
    return at === null ? null : this.tokens.at(OPENS.has(this.tokens.at(at)!.t) ? at : at - 1)!.start;
  }

  parse(): A.Template {
    const body: A.Stmt[] = [];
    while (this.tokens.at(this.current)) {
      const s = this.parseAny();
      if (s) body.push(s);
    }
    return { kind: "Template", id: this.id(), start: 0, end: this.sourceLength, body: fitted(body), comments: [] };
  }

  /** Statements up to (not including) a `{% name %}` of `ends`. */
  private bodyUntil(ends: readonly string[]): A.Stmt[] {
    if (this.blocks >= MAX_NESTING)
      throw new NestingError(nestingMessage("blocks"), this.deepestFrom(this.current) ?? this.tokens.at(this.current - 1)?.start ?? 0);
    this.blocks++;
    const body: A.Stmt[] = [];
    while (!this.isStatement(ends)) {
      const s = this.parseAny();
      if (s) body.push(s);
    }
    this.blocks--;
    return fitted(body);
  }

  private parseAny(): A.Stmt | null {
    const tok = this.peek();
    switch (tok.t) {
      case "comment":
        this.next();
        return null;
      case "text":
        this.next();
        return {
          kind: "Text",
          id: this.id(),
          start: tok.start,
          end: tok.end,
          value: tok.value,
          valueStart: tok.start,
          valueEnd: tok.end,
          before: null,
          after: null,
        };
      case "open_statement":
        return this.parseStatement();
      case "open_expression": {
        this.expect("open_expression", "Expected {{");
        const expr = this.parseExpression();
        this.expect("close_expression", "Expected }}");
        return { kind: "Output", id: this.id(), start: tok.start, end: this.prevEnd, expr };
      }
    }
    throw new CompileError("Unexpected token type", tok.start);
  }

  /** `{% name %}` closing a block: returns its span. */
  private endTag(name: string): A.Span {
    const start = this.expect("open_statement", "Expected {%").start;
    this.expectIdentifier(name);
    this.expect("close_statement", "Expected %}");
    return { start, end: this.prevEnd };
  }

  private parseStatement(): A.Stmt | null {
    const open = this.expect("open_statement", "Expected {%");
    if (this.peek().t !== "identifier") throw new CompileError("Unknown statement", this.peek().start);
    const name = this.next().value;
    const tagEnd = () => ({ start: open.start, end: this.prevEnd });
    switch (name) {
      case "set":
        return this.parseSet(open);
      case "if": {
        const node = this.parseIf(open);
        node.endTag = this.endTag("endif");
        node.end = this.prevEnd;
        return node;
      }
      case "macro":
        return this.parseMacro(open);
      case "for":
        return this.parseFor(open);
      case "break":
      case "continue":
        this.expect("close_statement", "Expected %}");
        return { kind: name === "break" ? "Break" : "Continue", id: this.id(), ...tagEnd() };
      case "call":
        return this.parseCall(open);
      case "filter":
        return this.parseFilterBlock(open);
      case "generation":
      case "endgeneration":
        // Ignored (transformers' assistant-mask tag): the parser skips the next token, normally `%}`.
        this.current++;
        return null;
    }
    throw new CompileError(`Unknown statement: ${name}`, open.start);
  }

  private parseSet(open: Token): A.Stmt {
    const target = this.parseExpressionSequence();
    let node: A.Set | A.SetBlock;
    if (this.is("equals")) {
      this.current++;
      const value = this.parseExpressionSequence();
      this.expect("close_statement", "Expected %}");
      node = { kind: "Set", id: this.id(), start: open.start, end: this.prevEnd, target, value };
    } else {
      this.expect("close_statement", "Expected %}");
      const openTag = { start: open.start, end: this.prevEnd };
      const body = this.bodyUntil(["endset"]);
      const endStart = this.expect("open_statement", "Expected {%").start;
      this.expectIdentifier("endset");
      this.expect("close_statement", "Expected %}");
      node = {
        kind: "SetBlock",
        id: this.id(),
        start: open.start,
        end: this.prevEnd,
        openTag,
        endTag: { start: endStart, end: this.prevEnd },
        target,
        filter: null,
        body,
      };
    }
    this.checkTarget(target, "set");
    return node;
  }

  private parseIf(open: Token): A.If {
    const test = this.parseExpression();
    this.expect("close_statement", "Expected %}");
    const tag = { start: open.start, end: this.prevEnd };
    const body = this.bodyUntil(["elif", "else", "endif"]);
    const node: A.If = {
      kind: "If",
      id: this.id(),
      start: open.start,
      end: this.prevEnd,
      openTag: tag,
      endTag: null,
      branches: [{ tag, test, body, start: tag.start, end: this.prevEnd }],
      orElse: null,
      elseTag: null,
    };
    if (this.isStatement(["elif"])) {
      const elif = this.next();
      this.current++;
      const nested = this.parseIf(elif);
      node.branches.push(...nested.branches);
      node.orElse = nested.orElse;
      node.elseTag = nested.elseTag;
    } else if (this.isStatement(["else"])) {
      const start = this.next().start;
      this.current++;
      this.expect("close_statement", "Expected %}");
      node.elseTag = { start, end: this.prevEnd };
      node.orElse = this.bodyUntil(["endif"]);
    }
    return node;
  }

  private parseMacro(open: Token): A.Macro {
    const name = this.parsePrimary();
    const args = this.parseArgs();
    this.expect("close_statement", "Expected %}");
    const openTag = { start: open.start, end: this.prevEnd };
    const body = this.bodyUntil(["endmacro"]);
    const endTag = this.endTag("endmacro");
    const node: A.Macro = {
      kind: "Macro",
      id: this.id(),
      start: open.start,
      end: this.prevEnd,
      openTag,
      endTag,
      name: name.kind === "Name" ? name.name : "",
      nameSpan: { start: name.start, end: name.end },
      params: [],
      body,
    };
    if (name.kind !== "Name") this.refuse(node, "Macro name must be an identifier");
    node.params = this.params(args);
    return node;
  }

  /** Macro and caller parameters: a name, or `name=default`; anything else fails only when a call binds it. */
  private params(args: Arg[]): A.Param[] {
    return args.map((a) => {
      if (a.kind === "pos" && a.expr.kind === "Name") return { name: a.expr.name, default: null, start: a.expr.start, end: a.expr.end };
      if (a.kind === "kw" && a.key.kind === "Name") return { name: a.key.name, default: a.value, start: a.start, end: a.end };
      const span = a.kind === "kw" ? a : a.expr;
      const p: A.Param = { name: "", default: null, start: span.start, end: span.end };
      badParams.set(p, a.kind === "kw" ? "keyword" : "other");
      return p;
    });
  }

  private parseFor(open: Token): A.For {
    const target = this.parseExpressionSequence(true);
    if (!this.isIdentifier("in")) throw new CompileError("Expected 'in'", this.peek().start);
    this.current++;
    let iter = this.parseExpression();
    this.expect("close_statement", "Expected %}");
    const openTag = { start: open.start, end: this.prevEnd };
    const body = this.bodyUntil(["endfor", "else"]);
    let orElse: A.Stmt[] | null = null;
    let elseTag: A.Span | null = null;
    if (this.isStatement(["else"])) {
      const start = this.next().start;
      this.current++;
      this.expect("close_statement", "Expected %}");
      elseTag = { start, end: this.prevEnd };
      orElse = this.bodyUntil(["endfor"]);
    }
    const endTag = this.endTag("endfor");
    // `for x in xs if cond`: a select_expression as the iterable is the loop's filter.
    let filter: A.Expr | null = null;
    if (iter.kind === "Conditional" && iter.orElse === null) {
      filter = iter.test;
      iter = iter.then;
    }
    this.checkTarget(target, "for");
    return {
      kind: "For",
      id: this.id(),
      start: open.start,
      end: this.prevEnd,
      openTag,
      endTag,
      target,
      iter,
      filter,
      recursive: false,
      body,
      orElse,
      elseTag,
    };
  }

  private parseCall(open: Token): A.CallBlock {
    const callerArgs = this.is("open_paren") ? this.parseArgs() : [];
    const callee = this.parsePrimary();
    if (callee.kind !== "Name") throw new CompileError("Expected identifier", callee.start);
    const call = this.callNode(callee, this.parseArgs());
    this.expect("close_statement", "Expected %}");
    const openTag = { start: open.start, end: this.prevEnd };
    const body = this.bodyUntil(["endcall"]);
    const endTag = this.endTag("endcall");
    const node: A.CallBlock = {
      kind: "CallBlock",
      id: this.id(),
      start: open.start,
      end: this.prevEnd,
      openTag,
      endTag,
      call,
      params: [],
      body,
    };
    node.params = this.params(callerArgs);
    return node;
  }

  private parseFilterBlock(open: Token): A.FilterBlock {
    let f = this.parsePrimary();
    if (f.kind === "Name" && this.is("open_paren")) f = this.parseCallExpression(f);
    this.expect("close_statement", "Expected %}");
    const openTag = { start: open.start, end: this.prevEnd };
    const body = this.bodyUntil(["endfilter"]);
    const endTag = this.endTag("endfilter");
    const filter = this.filterNode(null, f, f.start);
    return { kind: "FilterBlock", id: this.id(), start: open.start, end: this.prevEnd, openTag, endTag, filter, body };
  }

  // ------------------------------------------------------------ expressions

  private parseExpressionSequence(primary = false): A.Expr {
    const start = this.peek().start;
    const first = primary ? this.parsePrimary() : this.parseExpression();
    if (!this.is("comma")) return first;
    const items = [first];
    while (this.is("comma")) {
      this.current++;
      items.push(primary ? this.parsePrimary() : this.parseExpression());
    }
    return { kind: "Tuple", id: this.id(), start, end: this.prevEnd, items: fitted(items), parenthesized: false };
  }

  private parseExpression(): A.Expr {
    return this.deeper(() => this.parseConditional());
  }

  private parseConditional(): A.Expr {
    const then = this.parseLogicalOr();
    if (!this.isIdentifier("if")) return then;
    this.current++;
    const test = this.parseLogicalOr();
    let orElse: A.Expr | null = null;
    if (this.isIdentifier("else")) {
      this.current++;
      orElse = this.parseExpression();
    }
    return { kind: "Conditional", id: this.id(), start: then.start, end: this.prevEnd, test, then, orElse };
  }

  private binary(op: A.BinaryOp, opTok: Token, left: A.Expr, right: A.Expr): A.Binary {
    return {
      kind: "Binary",
      id: this.id(),
      start: left.start,
      end: right.end,
      op,
      opSpan: { start: opTok.start, end: opTok.end },
      left,
      right,
    };
  }

  private parseLogicalOr(): A.Expr {
    let left = this.parseLogicalAnd();
    while (this.isIdentifier("or")) {
      const op = this.next();
      left = this.binary("or", op, left, this.parseLogicalAnd());
    }
    return left;
  }

  private parseLogicalAnd(): A.Expr {
    let left = this.parseNegation();
    while (this.isIdentifier("and")) {
      const op = this.next();
      left = this.binary("and", op, left, this.parseNegation());
    }
    return left;
  }

  private parseNegation(): A.Expr {
    if (!this.isIdentifier("not")) return this.parseComparison();
    const op = this.next();
    const operand = this.deeper(() => this.parseNegation());
    return {
      kind: "Unary",
      id: this.id(),
      start: op.start,
      end: operand.end,
      op: "not",
      opSpan: { start: op.start, end: op.end },
      operand,
    };
  }

  private parseComparison(): A.Expr {
    let left = this.parseAdditive();
    for (;;) {
      let op: A.CompareOp;
      const tok = this.peek();
      let end = tok.end;
      if (this.isIdentifier("not") && this.peek(1).t === "identifier" && this.peek(1).value === "in") {
        op = "not in";
        end = this.peek(1).end;
        this.current += 2;
      } else if (this.isIdentifier("in") || this.is("comparison_binary_operator")) {
        op = this.next().value as A.CompareOp;
      } else break;
      const right = this.parseAdditive();
      left = {
        kind: "Compare",
        id: this.id(),
        start: left.start,
        end: right.end,
        left,
        ops: [{ op, opSpan: { start: tok.start, end }, right }],
      };
    }
    return left;
  }

  private parseAdditive(): A.Expr {
    let left = this.parseMultiplicative();
    while (this.is("additive_binary_operator")) {
      const op = this.next();
      left = this.binary(op.value as A.BinaryOp, op, left, this.parseMultiplicative());
    }
    return left;
  }

  private parseMultiplicative(): A.Expr {
    let left = this.parseTest();
    while (this.is("multiplicative_binary_operator")) {
      const op = this.next();
      left = this.binary(op.value as A.BinaryOp, op, left, this.parseTest());
    }
    return left;
  }

  private parseTest(): A.Expr {
    let operand = this.parseFilter();
    while (this.isIdentifier("is")) {
      this.current++;
      let negated = false;
      if (this.isIdentifier("not")) {
        this.current++;
        negated = true;
      }
      let t = this.parsePrimary();
      if (this.is("open_paren")) t = this.parseCallExpression(t);
      const { name, nameSpan, args, ok } = this.callee(t);
      const node: A.Test = {
        kind: "Test",
        id: this.id(),
        start: operand.start,
        end: this.prevEnd,
        expr: operand,
        name,
        nameSpan,
        negated,
        ...args,
      };
      if (!ok) this.refuse(node, t.kind === "Call" ? "Test callee must be an identifier" : "Invalid test expression");
      operand = node;
    }
    return operand;
  }

  private parseFilter(): A.Expr {
    let operand = this.parseUnary();
    while (this.is("pipe")) {
      const start = this.next().start;
      let f = this.parsePrimary();
      if (this.is("open_paren")) f = this.parseCallExpression(f);
      operand = this.filterNode(operand, f, start);
    }
    return operand;
  }

  /** A filter or test written as `name` or `name(args)`; anything else fails when it runs. */
  private callee(e: A.Expr): { name: string; nameSpan: A.Span; args: A.CallArgs; ok: boolean } {
    const none: A.CallArgs = { args: [], kwargs: [], starArgs: null, starKwargs: null };
    if (e.kind === "Name") return { name: e.name, nameSpan: { start: e.start, end: e.end }, args: none, ok: true };
    if (e.kind === "Call" && e.callee.kind === "Name") {
      const { args, kwargs, starArgs, starKwargs } = e;
      return {
        name: e.callee.name,
        nameSpan: { start: e.callee.start, end: e.callee.end },
        args: { args, kwargs, starArgs, starKwargs },
        ok: true,
      };
    }
    return { name: "", nameSpan: { start: e.start, end: e.end }, args: none, ok: false };
  }

  private filterNode(expr: A.Expr | null, f: A.Expr, start: number): A.Filter {
    const { name, nameSpan, args, ok } = this.callee(f);
    const node: A.Filter = { kind: "Filter", id: this.id(), start: expr ? expr.start : start, end: f.end, expr, name, nameSpan, ...args };
    if (f.kind === "Call") calledFilters.add(node);
    if (!ok) this.refuse(node, f.kind === "Call" ? "Filter callee must be an identifier" : "Invalid filter expression");
    return node;
  }

  private parseUnary(): A.Expr {
    if (!this.is("unary_operator")) return this.parseCallMember();
    const op = this.next();
    const operand = this.deeper(() => this.parseUnary());
    return {
      kind: "Unary",
      id: this.id(),
      start: op.start,
      end: operand.end,
      op: op.value as A.UnaryOp,
      opSpan: { start: op.start, end: op.end },
      operand,
    };
  }

  private parseCallMember(): A.Expr {
    const member = this.parseMember(this.parsePrimary());
    return this.is("open_paren") ? this.parseCallExpression(member) : member;
  }

  private parseCallExpression(callee: A.Expr): A.Expr {
    const call = this.callNode(callee, this.parseArgs());
    const member = this.parseMember(call);
    return this.is("open_paren") ? this.deeper(() => this.parseCallExpression(member)) : member;
  }

  private callNode(callee: A.Expr, list: Arg[]): A.Call {
    const node: A.Call = {
      kind: "Call",
      id: this.id(),
      start: callee.start,
      end: this.prevEnd,
      callee,
      args: [],
      kwargs: [],
      starArgs: null,
      starKwargs: null,
    };
    for (const a of list) {
      if (a.kind === "pos") node.args.push(a.expr);
      else if (a.kind === "spread") {
        node.starArgs = a.expr;
        this.refuse(node, "cannot exec SpreadExpression");
      } else if (a.key.kind === "Name") {
        node.kwargs.push({
          name: a.key.name,
          nameSpan: { start: a.key.start, end: a.key.end },
          value: a.value,
          start: a.start,
          end: a.end,
        });
      } else this.refuse(node, "Keyword argument key must be identifiers");
    }
    node.args = fitted(node.args);
    node.kwargs = fitted(node.kwargs);
    return node;
  }

  private parseArgs(): Arg[] {
    this.expect("open_paren", "Expected (");
    const args: Arg[] = [];
    while (!this.is("close_paren")) {
      if (this.peek().t === "multiplicative_binary_operator" && this.peek().value === "*") {
        this.current++;
        args.push({ kind: "spread", expr: this.parseExpression() });
      } else {
        const e = this.parseExpression();
        if (this.is("equals")) {
          this.current++;
          const value = this.parseExpression();
          args.push({ kind: "kw", key: e, value, start: e.start, end: value.end });
        } else args.push({ kind: "pos", expr: e });
      }
      if (this.is("comma")) this.current++;
    }
    this.expect("close_paren", "Expected )");
    return args;
  }

  private parseMember(object: A.Expr): A.Expr {
    while (this.is("dot") || this.is("open_square_bracket")) {
      const op = this.next();
      if (op.t === "open_square_bracket") {
        const index = this.parseMemberArguments();
        this.expect("close_square_bracket", "Expected ]");
        object = { kind: "GetItem", id: this.id(), start: object.start, end: this.prevEnd, object, index };
        continue;
      }
      const prop = this.parsePrimary();
      const node: A.GetAttr = {
        kind: "GetAttr",
        id: this.id(),
        start: object.start,
        end: this.prevEnd,
        object,
        attrSpan: { start: prop.start, end: prop.end },
        attr: prop.kind === "Name" ? prop.name : prop.kind === "Int" ? String(prop.value) : "",
        numeric: prop.kind === "Int",
      };
      if (prop.kind === "Int" && prop.value < 0n) this.refuse(node, "Static member property cannot be negative");
      else if (prop.kind !== "Name" && prop.kind !== "Int") this.refuse(node, "Static member property must be an identifier");
      object = node;
    }
    return object;
  }

  /** `[…]`: an index, a slice (at most three parts are kept), or nothing (`x[]` is Undefined). */
  private parseMemberArguments(): A.Expr {
    const start = this.peek().start;
    const parts: (A.Expr | null)[] = [];
    let isSlice = false;
    while (!this.is("close_square_bracket")) {
      if (this.is("colon")) {
        parts.push(null);
        this.current++;
        isSlice = true;
      } else {
        parts.push(this.parseExpression());
        if (this.is("colon")) {
          this.current++;
          isSlice = true;
        }
      }
    }
    if (isSlice) {
      return {
        kind: "Slice",
        id: this.id(),
        start,
        end: this.prevEnd,
        startExpr: parts[0] ?? null,
        stopExpr: parts[1] ?? null,
        stepExpr: parts[2] ?? null,
      };
    }
    // blank_expression: a name no template can define evaluates to Undefined.
    return parts[0] ?? { kind: "Name", id: this.id(), start, end: start, name: "" };
  }

  private parsePrimary(): A.Expr {
    const t = this.next();
    // start and end written out, not spread: a spread literal keeps its properties out of the object (40 bytes more per leaf)
    const { start, end } = t;
    switch (t.t) {
      case "numeric_literal":
        if (t.value.includes(".")) {
          const value = stod(t.value);
          if (value === null) throw new CompileError("stod", t.start);
          return { kind: "Float", id: this.id(), start, end, value, raw: t.value };
        } else {
          const value = BigInt(t.value);
          if (value < -(1n << 63n) || value >= 1n << 63n) throw new CompileError("stoll", t.start);
          return { kind: "Int", id: this.id(), start, end, value };
        }
      case "string_literal": {
        let value = t.value;
        while (this.is("string_literal")) value += this.next().value;
        return { kind: "Str", id: this.id(), start: t.start, end: this.prevEnd, value };
      }
      case "identifier":
        return { kind: "Name", id: this.id(), start, end, name: t.value };
      case "open_paren": {
        const e = this.parseExpressionSequence();
        this.expect("close_paren", "Expected )");
        if (e.kind === "Tuple") e.parenthesized = true;
        return e;
      }
      case "open_square_bracket": {
        const items: A.Expr[] = [];
        while (!this.is("close_square_bracket")) {
          items.push(this.parseExpression());
          if (this.is("comma")) this.current++;
        }
        this.current++;
        return { kind: "List", id: this.id(), start: t.start, end: this.prevEnd, items: fitted(items) };
      }
      case "open_curly_bracket": {
        const pairs: A.DictPair[] = [];
        while (!this.is("close_curly_bracket")) {
          const key = this.parseExpression();
          this.expect("colon", "Expected :");
          const value = this.parseExpression();
          pairs.push({ key, value, start: key.start, end: value.end });
          if (this.is("comma")) this.current++;
        }
        this.current++;
        return { kind: "Dict", id: this.id(), start: t.start, end: this.prevEnd, pairs: fitted(pairs) };
      }
    }
    throw new CompileError(`Unexpected token: ${t.value} of type ${TOKEN_TYPE_NUMBER[t.t]}`, t.start);
  }
}

/** Filters written with parentheses (`x | upper()`), which apply_filter treats apart from `x | upper`. */
const calledFilters = new WeakSet<A.Filter>();

export function isCalledFilter(f: A.Filter): boolean {
  return calledFilters.has(f);
}

/** Parameters that are neither a name nor `name=default` (`m(a, 'x')`, `m(1.5e-5)` read as `m(1.5, e-5)`). */
const badParams = new WeakMap<A.Param, "keyword" | "other">();

export function paramProblem(p: A.Param): "keyword" | "other" | undefined {
  return badParams.get(p);
}

/** Compiles `source` as llama.cpp does: our AST of it, or the error that fails every render. */
/** The first lexer error in what is left of the tokens, or null: llama.cpp lexes the whole template before it parses. */
function lexErrorIn(rest: Iterator<Token>): LexError | null {
  try {
    while (!rest.next().done);
    return null;
  } catch (e) {
    if (e instanceof LexError) return e;
    throw e;
  }
}

export function parseLlamaCpp(source: string): LlamaParse {
  const lexed = tokens(source);
  try {
    const buffer: Token[] = [];
    const step = () => {
      const t = lexed.next();
      if (!t.done) buffer.push(t.value);
      return !t.done;
    };
    const p = new Parser(new TokenWindow(buffer, step), source.length);
    const template = p.parse();
    let tooDeep: NestingError | null = null;
    limitDepth(
      template,
      (at, message) => (tooDeep ??= new NestingError(message, at.start)),
      () => -1,
    );
    if (tooDeep) throw tooDeep;
    return { template, refusals: p.refusals };
  } catch (thrown) {
    const e = thrown instanceof CompileError ? (lexErrorIn(lexed) ?? thrown) : thrown;
    if (!(e instanceof LexError || e instanceof CompileError)) throw e;
    const at = Math.min(e.at, source.length);
    return {
      error: {
        message: e.message,
        start: at,
        end: Math.min(at + 1, source.length),
        ...(e instanceof NestingError ? { nesting: true as const } : {}),
      },
    };
  }
}
