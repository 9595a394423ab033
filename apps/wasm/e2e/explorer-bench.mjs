// The opening explorer's build time on the largest archive, with the release wasm of
// `cargo xtask wasm` (docs/notation.md, "Opening explorer"):
//   node apps/wasm/e2e/explorer-bench.mjs [file.pdn]   (default: shared/data/pdn/tinsley.pdn)
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.join(here, "../www/pkg");
const shared = process.env.CROWN_SHARED || path.join(here, "../../../../shared");
const file = process.argv[2] || path.join(shared, "data/pdn/tinsley.pdn");
const crown = await import(path.join(pkg, "crown_wasm.js"));
crown.initSync({ module: fs.readFileSync(path.join(pkg, "crown_wasm_bg.wasm")) });
const text = fs.readFileSync(file, "utf8");
const start = crown.startFen("american");
for (let run = 1; run <= 3; run++) {
  const t0 = performance.now();
  const e = new crown.Explorer();
  e.add(text);
  e.probe("american", start); // builds the index
  const ms = performance.now() - t0;
  const t1 = performance.now();
  for (let k = 0; k < 1000; k++) e.probe("american", start);
  const s = e.stats();
  console.log(
    `run ${run}: ${s.indexed} games, ${s.positions} positions: built in ${ms.toFixed(0)} ms, ` +
      `a probe of the start ${((performance.now() - t1) / 1000).toFixed(3)} ms`,
  );
  e.free();
}
