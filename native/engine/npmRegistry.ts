// The npm registry the user configured, read the way npm reads it, without running npm (most desktop VS Code
// users have none): the environment (npm_config_registry, NPM_CONFIG_REGISTRY), then the user's config file
// ($NPM_CONFIG_USERCONFIG or ~/.npmrc), then the global one ($NPM_CONFIG_GLOBALCONFIG, or $PREFIX/etc/npmrc);
// a scope's own registry (@scope:registry) wins over the plain one, and `${VAR}` in values is expanded as npm
// does. The auth token npm would send to that registry (//host/path/:_authToken) is sent too.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { parse } from "ini";

export const DEFAULT_REGISTRY = "https://registry.npmjs.org/";

export interface RegistryConfig {
  registry: string;
  /** Bearer token for that registry, when one is configured. */
  authToken?: string;
  /** Where the registry came from, for messages ("~/.npmrc", "npm_config_registry", "default"). */
  source: string;
}

type Env = Record<string, string | undefined>;

/** `${VAR}` → the variable's value (npm leaves an unset one as it is). */
function expand(value: string, env: Env): string {
  return value.replace(/\$\{([^}]+)\}/g, (whole, name: string) => env[name] ?? whole);
}

function envValue(env: Env, key: string): string | undefined {
  // npm reads npm_config_* case-insensitively
  const wanted = `npm_config_${key}`.toLowerCase();
  const name = Object.keys(env).find((k) => k.toLowerCase() === wanted && env[k]);
  return name ? env[name] : undefined;
}

function configFiles(env: Env): { file: string; label: string }[] {
  const user = envValue(env, "userconfig") ?? join(env.HOME ?? homedir(), ".npmrc");
  const global = envValue(env, "globalconfig") ?? (env.PREFIX ? join(env.PREFIX, "etc", "npmrc") : undefined);
  return [{ file: user, label: user }, ...(global ? [{ file: global, label: global }] : [])];
}

function readConfig(file: string, env: Env): Record<string, string> {
  if (!existsSync(file)) return {};
  const raw = parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(raw)
      .filter(([, v]) => typeof v === "string")
      .map(([k, v]) => [k, expand(v as string, env)]),
  );
}

/** npm's key for a registry's credentials: "//host/path/". */
function credentialKey(registry: string): string {
  const u = new URL(registry);
  return `//${u.host}${u.pathname.endsWith("/") ? u.pathname : `${u.pathname}/`}`;
}

/** The registry npm would fetch `packageName` from, and its token. */
export function npmRegistry(packageName: string, env: Env = process.env): RegistryConfig {
  const scope = packageName.startsWith("@") ? packageName.split("/")[0] : undefined;
  const layers: { label: string; get(key: string): string | undefined }[] = [
    { label: "environment", get: (key) => (key.startsWith("//") || key.startsWith("@") ? undefined : envValue(env, key)) },
    ...configFiles(env).map(({ file, label }) => {
      const c = readConfig(file, env);
      return { label, get: (key: string) => c[key] };
    }),
  ];
  const lookup = (key: string) => {
    for (const l of layers) {
      const v = l.get(key);
      if (v) return { value: v, source: l.label === "environment" ? `npm_config_${key}` : l.label };
    }
    return undefined;
  };
  const found = (scope ? lookup(`${scope}:registry`) : undefined) ?? lookup("registry");
  const registry = found?.value ?? DEFAULT_REGISTRY;
  try {
    new URL(registry);
  } catch {
    throw new Error(`the npm registry ${JSON.stringify(registry)} (from ${found?.source}) is not a URL`);
  }
  const authToken = lookup(`${credentialKey(registry)}:_authToken`)?.value;
  return { registry, ...(authToken ? { authToken } : {}), source: found?.source ?? "default" };
}
