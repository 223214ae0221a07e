// The running endpoint's tokenizer, for the preview's token view when no GGUF is bound: llama-server's
// POST /tokenize with pieces, which this extension's endpoint and llama-server answer. The API does not say
// which tokens are special, so this asks it: a special (control) token is one that plain text never becomes,
// so its text tokenized without special parsing is not that one token. Only the tokens a plain tokenization
// of the same text lacks can be special; each is asked once.
import type { BosInfo, TokenPiece, Tokenizer, TokenizerSource } from "../gguf/modelBinding";
import { EndpointClient, EndpointHttpError, type Connection } from "./http";

interface TokenizeAnswer {
  tokens: (number | { id: number; piece: string | number[] })[];
}

async function tokenizeRoute(client: EndpointClient, body: Record<string, unknown>): Promise<TokenizeAnswer["tokens"]> {
  try {
    return ((await client.post("/tokenize", body)) as TokenizeAnswer).tokens;
  } catch (e) {
    if (e instanceof EndpointHttpError && (e.status === 404 || e.status === 405))
      throw new Error(`${client.connection.url} has no POST /tokenize (llama-server and this extension's endpoint have it)`, { cause: e });
    throw e;
  }
}

const ids = (tokens: TokenizeAnswer["tokens"]) => tokens.map((t) => (typeof t === "number" ? t : t.id));

/** The pieces' texts laid end to end: a character split across tokens goes to the token that completes it. */
function pieceTexts(tokens: { piece: string | number[] }[]): string[] {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  return tokens.map((t) =>
    decoder.decode(typeof t.piece === "string" ? encoder.encode(t.piece) : Uint8Array.from(t.piece), { stream: true }),
  );
}

/** The BOS token: the one the endpoint adds in front of a prompt, else the one its /props names. */
async function bosOf(client: EndpointClient): Promise<BosInfo | null> {
  const added = ids(await tokenizeRoute(client, { content: "", add_special: true }));
  if (added.length === 1) return { id: added[0]!, addedByRuntime: true };
  const props = (await client.get("/props").catch(() => null)) as { bos_token?: unknown } | null;
  if (typeof props?.bos_token !== "string" || !props.bos_token) return null;
  const bos = ids(await tokenizeRoute(client, { content: props.bos_token }));
  return bos.length === 1 ? { id: bos[0]!, addedByRuntime: false } : null;
}

export async function loadEndpointTokenizer(client: EndpointClient): Promise<Tokenizer> {
  const special = new Map<number, Promise<boolean>>();
  const isSpecial = (id: number, text: string): Promise<boolean> => {
    let known = special.get(id);
    if (!known) {
      known = tokenizeRoute(client, { content: text, parse_special: false }).then((alone) => !(alone.length === 1 && ids(alone)[0] === id));
      special.set(id, known);
    }
    return known;
  };
  return {
    bos: await bosOf(client),
    count: async (text) => (await tokenizeRoute(client, { content: text })).length,
    async tokenize(text): Promise<TokenPiece[]> {
      const [parsed, plain] = await Promise.all([
        tokenizeRoute(client, { content: text, with_pieces: true }),
        tokenizeRoute(client, { content: text, parse_special: false }),
      ]);
      const tokens = parsed.map((t) => {
        if (typeof t === "number") throw new Error(`${client.connection.url}'s POST /tokenize gives no pieces (with_pieces)`);
        return t;
      });
      const texts = pieceTexts(tokens);
      const ordinary = new Set(ids(plain));
      return Promise.all(
        tokens.map(async (t, i) => ({
          id: t.id,
          text: texts[i]!,
          special: !ordinary.has(t.id) && typeof t.piece === "string" && t.piece !== "" && (await isSpecial(t.id, t.piece)),
        })),
      );
    },
  };
}

/** The tokenizer of the endpoint `connection()` names, loaded on first use. */
export function endpointTokenizerSource(label: string, connection: () => Promise<Connection | null>): TokenizerSource {
  let loading: Promise<Tokenizer> | null = null;
  return {
    label,
    tokenizer: () =>
      (loading ??= connection().then((c) => {
        if (!c) throw new Error("the endpoint is not running");
        return loadEndpointTokenizer(new EndpointClient(c));
      })),
  };
}
