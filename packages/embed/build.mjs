#!/usr/bin/env node
// Builds @portal/embed: tsc (tsconfig.build.json) to dist/, then makes dist/index.js one
// self-contained ES module by putting protocol.js's code in place of its import, so a partner
// page (and the portal at /embed/portal-embed.js) serves a single file.
//   node packages/embed/build.mjs [--out <dir>]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const outArg = process.argv.indexOf('--out');
const out = path.resolve(outArg > 0 ? process.argv[outArg + 1] : path.join(here, 'dist'));

const tsc = path.join(here, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');
fs.rmSync(out, { recursive: true, force: true });
// Two passes: the code without comments (it goes over the wire), the types with their docs.
for (const extra of [['--removeComments', '--declaration', 'false'], ['--emitDeclarationOnly']]) {
  const res = spawnSync(process.execPath, [tsc, '-p', path.join(here, 'tsconfig.build.json'), '--outDir', out, ...extra], {
    stdio: 'inherit',
  });
  if (res.status !== 0) {
    console.error(`@portal/embed: tsc failed (exit ${res.status})`);
    process.exit(1);
  }
}
const { version } = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8'));

const index = fs.readFileSync(path.join(out, 'index.js'), 'utf8');
const protocol = fs.readFileSync(path.join(out, 'protocol.js'), 'utf8');
// The only imports tsc leaves: `import { … } from './protocol.js';` and `export * from './protocol.js';`.
const FROM_PROTOCOL = /^(?:import\s*\{[^}]*\}|export\s*\*)\s*from\s*'\.\/protocol\.js';\n/gm;
const rest = index.replace(FROM_PROTOCOL, '');
if (/^\s*(?:import|export\s*(?:\*|\{[^}]*\}\s*from))\b/m.test(rest) || rest === index) {
  console.error('@portal/embed: dist/index.js has an import this build cannot inline; keep index.ts importing only ./protocol.js');
  process.exit(1);
}
fs.writeFileSync(
  path.join(out, 'index.js'),
  `// @portal/embed ${version}: embeds the member portal (docs/embedding.md)\n${protocol.trimEnd()}\n${rest}`,
);
console.log(
  `@portal/embed -> ${path.relative(process.cwd(), path.join(out, 'index.js')) || 'index.js'} (${fs.statSync(path.join(out, 'index.js')).size} bytes)`,
);
