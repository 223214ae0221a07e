// A tokenizer_config.json's chat_template opens as a template editor and saves back into the JSON string,
// every other byte of the file kept.
import * as assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite, test } from "mocha";
import * as vscode from "vscode";
import { extension } from "./helpers/workspace";

// As transformers writes it: indent 2, sorted keys, non-ASCII kept.
const CONFIG = `{
  "bos_token": null,
  "chat_template": "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\\\n' + message['content'] + '<|im_end|>\\\\n' }}{% endfor %}",
  "eos_token": "<|im_end|>",
  "name": "ünïcode ✓"
}
`;

suite("Hugging Face tokenizer_config.json", () => {
  test("its chat_template opens as a template and saves back escaped, the rest of the file unchanged", async () => {
    await extension().activate();
    const file = join(mkdtempSync(join(tmpdir(), "hf-template-")), "tokenizer_config.json");
    writeFileSync(file, CONFIG);
    await vscode.commands.executeCommand("chatTemplate.openTemplateFromHfConfig", vscode.Uri.file(file));
    const editor = vscode.window.activeTextEditor!;
    assert.equal(editor.document.uri.scheme, "hf-template");
    assert.equal(editor.document.languageId, "chat-template");
    assert.match(editor.document.getText(), /^\{% for message in messages %\}\{\{ '<\|im_start\|>' \+ message\['role'\] \+ '\\n'/);
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), '{#- "a" note -#}\n'));
    assert.ok(await editor.document.save());
    const expected = CONFIG.replace('"chat_template": "', '"chat_template": "{#- \\"a\\" note -#}\\n');
    assert.equal(readFileSync(file, "utf8"), expected);
  });
});
