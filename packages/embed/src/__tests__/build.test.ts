// The built package (build.mjs: tsc, then protocol.js inlined) is one small self-contained ES
// module: what the portal serves at /embed/portal-embed.js and partners load.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const pkg = path.resolve(__dirname, '..', '..');
let out: string;

beforeAll(() => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-embed-'));
  const res = spawnSync(process.execPath, [path.join(pkg, 'build.mjs'), '--out', out], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`build failed:\n${res.stdout}\n${res.stderr}`);
}, 60_000);

afterAll(() => {
  fs.rmSync(out, { recursive: true, force: true });
});

it('is one ES module without imports, under 4 KB gzipped', () => {
  const code = fs.readFileSync(path.join(out, 'index.js'), 'utf8');
  expect(code).not.toMatch(/^\s*import\b/m);
  expect(code).not.toMatch(/\bfrom\s*['"]/);
  expect(code).not.toMatch(/\brequire\(/);
  const gzipped = zlib.gzipSync(code, { level: 9 }).length;
  expect(gzipped).toBeLessThan(4 * 1024);
});

it('exports the API and the protocol constants, and ships types', () => {
  const script = `import(${JSON.stringify(path.join(out, 'index.js'))}).then((m) => console.log(JSON.stringify(Object.keys(m).sort())))`;
  const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(res.stderr).toBe('');
  expect(JSON.parse(res.stdout)).toEqual(
    [
      'EMBEDDER_PARAM',
      'INVALID_DATA_TYPE',
      'NOT_SIGNED_IN',
      'PARENT_ACTIONS',
      'PORTAL_ACTIONS',
      'invalidAction',
      'mountPortal',
      'portalFrameUrl',
    ].sort(),
  );
  const types = fs.readFileSync(path.join(out, 'index.d.ts'), 'utf8');
  expect(types).toContain('export declare function mountPortal(element: HTMLElement, options: MountOptions): PortalHandle;');
  expect(types).toContain("export * from './protocol.js';");
  expect(fs.existsSync(path.join(out, 'protocol.d.ts'))).toBe(true);
});
