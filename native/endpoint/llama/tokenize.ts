// POST /tokenize and POST /detokenize, in llama-server's shapes: how the served model's vocabulary reads a text
// (a rendered template's special tokens among them), and back.
import { badRequest } from "../http/errors";
import { Fields } from "../http/fields";
import { sendJson, type RouteContext } from "../http/route";

const strict = new TextDecoder("utf-8", { fatal: true });

/** A piece as llama-server shows it: its text, or its bytes when they are not whole UTF-8 characters. */
function piece(bytes: Uint8Array): string | number[] {
  try {
    return strict.decode(bytes);
  } catch {
    return Array.from(bytes);
  }
}

export async function tokenize(ctx: RouteContext): Promise<void> {
  const f = Fields.of(await ctx.body(), []);
  const content = f.need("content", f.string);
  // llama-server's defaults: no BOS added, special tokens' text read as those tokens
  const addSpecial = f.boolean("add_special") ?? false;
  const parseSpecial = f.boolean("parse_special") ?? true;
  const withPieces = f.boolean("with_pieces") ?? false;
  const { engine } = ctx.services.model.ready();
  const tokens = await engine.tokenize(content, { addSpecial, parseSpecial });
  if (!withPieces) return sendJson(ctx.res, 200, { tokens });
  const pieces = await engine.tokenPieces(tokens);
  sendJson(ctx.res, 200, { tokens: tokens.map((id, i) => ({ id, piece: piece(pieces[i]) })) });
}

export async function detokenize(ctx: RouteContext): Promise<void> {
  const f = Fields.of(await ctx.body(), []);
  const tokens = f.need("tokens", f.array);
  const { engine, info } = ctx.services.model.ready();
  tokens.forEach((t, i) => {
    if (!Number.isInteger(t) || (t as number) < 0 || (t as number) >= info.vocabSize) {
      throw badRequest(`must be a token id from 0 to ${info.vocabSize - 1}, got ${JSON.stringify(t)}`, ["tokens", i]);
    }
  });
  // special tokens as their text, as llama-server writes them
  sendJson(ctx.res, 200, { content: await engine.detokenize(tokens as number[], { special: true }) });
}
