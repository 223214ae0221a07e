// package.json's `vscode:prepublish`, which a plain `vsce package` or `vsce publish` in the checkout runs first:
// packed from here, vsce would take package.json's `files` (the npm package's list: no grammar, no language
// configuration, no LICENSE) and no node-llama-cpp. The .vsix is built by `npm run package`, which stages exactly
// packaging/contents.ts's list and strips this script from the staged manifest.
console.error(
  [
    "vsce: do not package this checkout directly; it would leave out the grammar, the language configuration,",
    "the LICENSE and the native engine's libraries. Build the .vsix with:",
    "",
    "  npm run package                  # chat-template-studio-<version>-linux-x64.vsix",
    "  npm run package -- --universal   # chat-template-studio-<version>-universal.vsix",
    "",
    "and publish that file: vsce publish --packagePath FILE.vsix",
  ].join("\n"),
);
process.exit(1);
