// The dependency rule file (issue 19), checked by `npm run lint` in `npm test`.
// ARCHITECTURE.md's "Layers and folders" table is the rule: this file reads the table and turns each
// row into rules, so the two cannot drift apart. A row is `| \`path\` … | what | may import |`:
//  - a row whose path holds TypeScript may import only its own files and the backticked folders and
//    files of its "may import" cell (`*`: anything; test/ is white-box);
//  - a folder followed by "(types only)" in that cell may be imported with `import type` only;
//  - a row whose "what" says "imported only by" and names rows is imported by those rows only (the
//    interpreter's dialect kit: only the dialects build on it);
//  - a package named in any row's cell (`vscode`, …) may be imported only by the rows that name it;
//  - a file under no row fails (the table lists every folder);
//  - a folder with an index.ts is entered from outside only through it (no deep imports);
//  - no module reaches itself again through its imports (no cycles), and every import resolves.
const fs = require("node:fs");
const path = require("node:path");

const ROOT = __dirname;
const OWN = ["cli", "server", "client", "native", "packaging", "templates", "test"];

function tableRows() {
  const md = fs.readFileSync(path.join(ROOT, "ARCHITECTURE.md"), "utf8");
  const section = md.split(/^## /m).find((s) => s.startsWith("Layers and folders"));
  if (!section) throw new Error("ARCHITECTURE.md has no '## Layers and folders' table");
  const ticks = (cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  return section
    .split("\n")
    .filter((l) => l.startsWith("| `"))
    .map((l) => {
      const cells = l.split("|").map((c) => c.trim());
      const allowedCell = cells[cells.length - 2];
      const typesOnly = [...allowedCell.matchAll(/`([^`]+)` \(types only\)/g)].map((m) => m[1]);
      const onlyBy = /imported only by ((?:`[^`]+`(?:, | and )?)+)/.exec(cells[2]);
      return { paths: ticks(cells[1]), allowed: ticks(allowedCell), typesOnly, onlyBy: onlyBy ? ticks(onlyBy[1]) : null };
    });
}

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const isPackage = (s) => !s.includes("/") && s !== "*";
const hasTypeScript = (p) => {
  const abs = path.join(ROOT, p);
  if (!fs.existsSync(abs)) return false;
  if (!fs.statSync(abs).isDirectory()) return p.endsWith(".ts");
  const walk = (d) =>
    fs.readdirSync(d, { withFileTypes: true }).some((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : e.name.endsWith(".ts")));
  return walk(abs);
};
/** A row path as a regex prefix: a folder matches what is inside it, a file matches itself. */
const prefix = (p) => "^" + esc(p) + (p.endsWith("/") ? "" : "$");

const rows = tableRows();
const forbidden = [];
const packages = new Map(); // package → rows that may import it
for (const row of rows) for (const a of row.allowed.filter(isPackage)) packages.set(a, [...(packages.get(a) ?? []), ...row.paths]);

for (const row of rows) {
  const ts = row.paths.filter(hasTypeScript);
  if (ts.length === 0 || row.allowed.includes("*")) continue;
  const mayReach = [...ts, ...row.allowed.filter((a) => !isPackage(a))];
  forbidden.push({
    name: `layer:${ts.join(",")}`,
    comment: `ARCHITECTURE.md: ${ts.join(", ")} may import only ${row.allowed.join(", ") || "nothing outside it"}`,
    severity: "error",
    from: { path: ts.map(prefix).join("|") },
    to: { path: `^(${OWN.join("|")})/`, pathNot: mayReach.map(prefix).join("|") },
  });
}
for (const row of rows) {
  const ts = row.paths.filter(hasTypeScript);
  for (const t of row.typesOnly) {
    forbidden.push({
      name: `types-only:${ts.join(",")}`,
      comment: `ARCHITECTURE.md: ${ts.join(", ")} imports only types from ${t}`,
      severity: "error",
      from: { path: ts.map(prefix).join("|") },
      to: { path: prefix(t), dependencyTypesNot: ["type-only"] },
    });
  }
}
for (const row of rows.filter((r) => r.onlyBy)) {
  for (const p of row.paths) {
    const ownFolder = p.slice(0, p.lastIndexOf("/", p.length - 2) + 1);
    forbidden.push({
      name: `only-by:${p}`,
      comment: `ARCHITECTURE.md: only ${row.onlyBy.join(", ")} import ${p}`,
      severity: "error",
      from: { path: `^(${OWN.join("|")})/`, pathNot: [...row.onlyBy.map(prefix), prefix(ownFolder), "^test/"].join("|") },
      to: { path: prefix(p) },
    });
  }
}
const listed = rows.flatMap((r) => r.paths).map(prefix);
forbidden.push({
  name: "unlisted",
  comment: "Every folder with TypeScript has its row in ARCHITECTURE.md's table (which is what it may import).",
  severity: "error",
  from: { path: `^(${OWN.filter((o) => o !== "templates").join("|")})/`, pathNot: listed.join("|") },
  to: {},
});
for (const [pkg, users] of packages) {
  forbidden.push({
    name: `package:${pkg}`,
    comment: `ARCHITECTURE.md: only ${users.join(", ")} import ${pkg}`,
    severity: "error",
    from: { path: `^(${OWN.join("|")})/`, pathNot: [...users.map(prefix), "^test/"].join("|") },
    to: { path: `(^|/)node_modules/(@types/)?${esc(pkg)}/` },
  });
}
for (const row of rows) {
  for (const p of row.paths.filter((p) => p.endsWith("/") && fs.existsSync(path.join(ROOT, p, "index.ts")))) {
    // a file of the folder with a row of its own is a second face (the interpreter's dialect kit)
    const faces = [
      "index.ts",
      ...rows
        .flatMap((r) => r.paths)
        .filter((q) => q.startsWith(p) && !q.endsWith("/"))
        .map((q) => q.slice(p.length)),
    ];
    forbidden.push({
      name: `facade:${p}`,
      comment: `${p} is entered through its index.ts only`,
      severity: "error",
      from: { path: `^(${OWN.join("|")})/`, pathNot: `${prefix(p)}|^test/` },
      to: { path: `${prefix(p)}(?!(${faces.map(esc).join("|")})$)` },
    });
  }
}
forbidden.push(
  {
    name: "no-circular",
    comment: "No module reaches itself again through its imports (type-only imports count too).",
    severity: "error",
    from: {},
    to: { circular: true },
  },
  {
    name: "not-to-unresolvable",
    comment: "Every import resolves to a file or an installed package.",
    severity: "error",
    from: {},
    to: { couldNotResolve: true },
  },
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden,
  options: {
    // Type-only imports are dependencies too: a cycle through types is still a cycle between concepts.
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^native/build/" },
    enhancedResolveOptions: {
      extensions: [".ts", ".mjs", ".js", ".cjs", ".json"],
      conditionNames: ["import", "require", "node", "default", "types"],
      exportsFields: ["exports"],
      mainFields: ["module", "main", "types"],
    },
  },
};
