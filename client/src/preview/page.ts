// The preview webview's HTML: a strict content security policy (nothing remote, no inline code, the one
// bundled script by nonce, the one bundled stylesheet), the verdict line, and the toolbar the script fills in:
// one line, the context options and the engine toggles folded into menus so the renders get the room.
import { randomBytes } from "node:crypto";

export interface PageResources {
  /** webview.cspSource: the origin of resources loaded through asWebviewUri. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  nonce?: string;
}

export function newNonce(): string {
  return randomBytes(18).toString("base64url");
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    `default-src 'none'`,
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource}`,
    `font-src ${cspSource}`,
  ].join("; ");
}

export function previewPage(r: PageResources): string {
  const nonce = r.nonce ?? newNonce();
  const attr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(r.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(r.styleUri)}">
<title>Preview</title>
</head>
<body data-version="0">
<header id="toolbar">
  <div id="verdict" data-kind="pending"></div>
  <div id="controls">
  <span id="template-name"></span>
  <label>Scenario <select id="scenario"></select></label>
  <details class="menu" id="context-menu"><summary>Context</summary><div class="menu-body">
  <button id="new-scenario" data-action="new-scenario" title="Save the scenario with these options as a new scenario file">New scenario from current…</button>
  <label>bos_token <input type="text" id="bos-token" data-option="bosToken" spellcheck="false"></label>
  <label>eos_token <input type="text" id="eos-token" data-option="eosToken" spellcheck="false"></label>
  <label>add_generation_prompt <select id="add-generation-prompt" data-option="addGenerationPrompt"></select></label>
  <label>enable_thinking <select id="enable-thinking" data-option="enableThinking"></select></label>
  <label id="extra">Extra variables (JSON)<textarea id="extra-variables" data-option="extraVariables" spellcheck="false" placeholder='{"tools": [], "date_string": "15 Jan 2026"}'></textarea></label>
  </div></details>
  <details class="menu" id="engines-menu"><summary>Engines</summary><div class="menu-body" id="engine-toggles"></div></details>
  <label><input type="checkbox" id="show-whitespace" data-option="showWhitespace"> Whitespace</label>
  <span id="tokenizer"></span>
  </div>
</header>
<div id="context-problem" hidden></div>
<div id="message" hidden></div>
<section id="model-output" hidden></section>
<main id="engines"></main>
<script nonce="${nonce}" src="${attr(r.scriptUri)}"></script>
</body>
</html>
`;
}
