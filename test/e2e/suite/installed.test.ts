// The extension under test is the installed .vsix (code-server --install-extension into a fresh extensions
// folder, made read-only by the driver, which also fails the run when anything was written into it), not
// the repo: what users get is what runs.
import * as assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { suite, test } from "mocha";
import { extension, hasNativeEngine, installedPackage, openFixture } from "./helpers/workspace";

suite("installed package", () => {
  test("the extension runs from its installed folder, which holds no tests or sources", async function () {
    if (!installedPackage) this.skip(); // test-electron runs the development folder
    await openFixture("chat_template.jinja");
    const ext = extension();
    assert.ok(ext.isActive, "activated");
    assert.notEqual(ext.extensionPath, process.env.CHAT_TEMPLATE_E2E_REPO);
    assert.match(ext.extensionPath, new RegExp(`/extensions/${ext.id}-[^/]+$`));
    for (const absent of ["test", "client", "server", "tsconfig.json", "ARCHITECTURE.md"])
      assert.ok(!existsSync(join(ext.extensionPath, absent)), `${absent} is not installed`);
  });

  test("the native engine is there in the linux-x64 package and absent from the universal one", function () {
    if (!installedPackage) this.skip();
    const bin = join(extension().extensionPath, "native", "build", "cmake", "bin");
    assert.equal(existsSync(bin) && readdirSync(bin).includes("cts_engine.node"), hasNativeEngine);
    assert.equal(existsSync(join(extension().extensionPath, "node_modules")), hasNativeEngine);
  });
});
