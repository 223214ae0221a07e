// What llama-server's command line sets for every request it serves (common/arg.cpp and tools/server,
// v0.5.0): the template kwargs it starts with, whether --reasoning off switched thinking off, whether a
// trailing assistant message is prefilled. Its defaults are llama-server started with no such flag.
import type { Dialect } from "../../interpreter";

type Json = unknown;

export interface ServerStartup {
  /** params.default_template_kwargs: each request's chat_template_kwargs are merged over them, key by key. */
  templateKwargs: Record<string, Json>;
  /** --reasoning off (enable_reasoning=0): enable_thinking=false even for a template that supports thinking. */
  reasoningOff: boolean;
  /** --prefill-assistant (the default): a trailing assistant message is continued, not closed. */
  prefillAssistant: boolean;
}

/**
 * llama-server with no flags: common_params_parse adds preserve_reasoning=true to the default kwargs unless a
 * flag set it, which the chat layer turns into preserve_thinking=true (caps_apply_preserve_reasoning).
 */
export const SERVER_DEFAULTS: ServerStartup = {
  templateKwargs: { preserve_reasoning: true },
  reasoningOff: false,
  prefillAssistant: true,
};

/** A llama-server flag the engine cannot read, in words naming the flag. */
export class ServerArgsError extends Error {}

const isObj = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

/** is_truthy / is_falsey / is_autoy of common/arg.cpp. */
function reasoningSwitch(value: string): "on" | "off" | "auto" {
  if (["on", "enabled", "true", "1"].includes(value)) return "on";
  if (["off", "disabled", "false", "0"].includes(value)) return "off";
  if (["auto", "-1"].includes(value)) return "auto";
  throw new ServerArgsError(`--reasoning: unknown value '${value}' (on, off or auto)`);
}

/**
 * The startup the given llama-server flags make (e.g. ["--chat-template-kwargs", "{\"a\":1}",
 * "--no-prefill-assistant"]); flags that do not reach the template are refused, so a typo is not ignored.
 * `--flag=value` is read as `--flag value`.
 */
export function serverStartup(args: readonly string[]): ServerStartup {
  const kwargs: Record<string, Json> = {};
  let reasoningOff = false;
  let prefillAssistant = true;
  const words = args.flatMap((a) =>
    a.startsWith("--") && a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a],
  );
  for (let i = 0; i < words.length; i++) {
    const flag = words[i];
    const value = (): string => {
      if (i + 1 >= words.length) throw new ServerArgsError(`${flag} needs a value`);
      return words[++i];
    };
    switch (flag) {
      case "--chat-template-kwargs": {
        const text = value();
        let parsed: Json;
        try {
          parsed = JSON.parse(text);
        } catch (e) {
          throw new ServerArgsError(`--chat-template-kwargs: not JSON: ${(e as Error).message}`);
        }
        if (!isObj(parsed)) throw new ServerArgsError("--chat-template-kwargs: must be a JSON object");
        Object.assign(kwargs, parsed);
        break;
      }
      case "-rea":
      case "--reasoning": {
        const on = reasoningSwitch(value());
        reasoningOff = on === "off";
        if (on !== "auto") kwargs.enable_thinking = on === "on";
        break;
      }
      case "--reasoning-effort": {
        const level = value();
        if (level === "default") delete kwargs.reasoning_effort;
        else kwargs.reasoning_effort = level;
        break;
      }
      case "--reasoning-preserve":
      case "--no-reasoning-preserve":
        kwargs.preserve_reasoning = flag === "--reasoning-preserve";
        break;
      case "--prefill-assistant":
      case "--no-prefill-assistant":
        prefillAssistant = flag === "--prefill-assistant";
        break;
      default:
        throw new ServerArgsError(
          `${flag}: not a llama-server flag that changes the prompt (--chat-template-kwargs, --reasoning, --reasoning-effort, --[no-]reasoning-preserve, --[no-]prefill-assistant)`,
        );
    }
  }
  // flags write the same map in their order; the default fills in only where none set it
  if (!("preserve_reasoning" in kwargs)) kwargs.preserve_reasoning = true;
  return { templateKwargs: kwargs, reasoningOff, prefillAssistant };
}

const configured = new Map<string, Dialect>();

/**
 * `dialect` (one with `chatLayer`) served by a llama-server started with `args`, checked here so that a bad flag
 * is an error where the user gave it; one object per flag list, so the caches keyed by dialect keep working.
 */
export function withServerArgs(dialect: Dialect, args: readonly string[]): Dialect {
  if (!dialect.chatLayer || args.length === 0) return dialect;
  serverStartup(args);
  const key = `${dialect.engine}\u0000${JSON.stringify(args)}`;
  let d = configured.get(key);
  if (!d) configured.set(key, (d = { ...dialect, serverArgs: [...args] }));
  return d;
}
