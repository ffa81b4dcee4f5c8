// scripts/partner-server.mjs, as the e2e tests start it: in-process on a free port with a chosen
// portal and extra pages. Run in a child node (the server is an ES module; jest here is CommonJS).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repo = path.resolve(__dirname, '..', '..', '..', '..');

interface Answer {
  status: number;
  type: string | null;
  csp: string | null;
  body: string;
}

function runServer(paths: string[], pagesDir: string): Record<string, Answer> & { url: string } {
  const script = `
    import { startPartnerServer } from ${JSON.stringify(path.join(repo, 'scripts', 'partner-server.mjs'))};
    const site = await startPartnerServer({
      port: 0,
      host: '127.0.0.1',
      portalUrl: 'http://portal.test:9999/base',
      pages: { '/foreign.html': '<p>foreign</p>', '/data.json': { body: '{"a":1}', headers: { 'X-Test': '1' } } },
      pagesDir: ${JSON.stringify(pagesDir)},
    });
    const out = { url: site.url };
    for (const p of ${JSON.stringify(paths)}) {
      const res = await fetch(site.origin + p);
      out[p] = { status: res.status, type: res.headers.get('content-type'), csp: res.headers.get('content-security-policy'), body: await res.text() };
    }
    await site.close();
    console.log(JSON.stringify(out));
  `;
  const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: repo });
  if (res.status !== 0) throw new Error(res.stderr);
  return JSON.parse(res.stdout);
}

it('serves the example with the portal URL, the package, extra pages and files, and nothing else', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-pages-'));
  fs.writeFileSync(path.join(dir, 'extra.html'), '<p>extra</p>');
  try {
    const got = runServer(
      [
        '/',
        '/?token=T&redirect=%2F',
        '/portal-embed.js',
        '/partner.js',
        '/foreign.html',
        '/data.json',
        '/extra.html',
        '/%2e%2e/package.json',
        '/nope',
      ],
      dir,
    );
    expect(got.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = got['/'];
    expect(page.status).toBe(200);
    expect(page.type).toContain('text/html');
    expect(page.body).toContain('<meta name="portal-url" content="http://portal.test:9999/base" />');
    expect(page.csp).toContain('frame-src http://portal.test:9999;');
    expect(got['/?token=T&redirect=%2F'].body).toBe(page.body);
    expect(got['/portal-embed.js'].type).toContain('text/javascript');
    expect(got['/portal-embed.js'].body).toContain('export function mountPortal');
    expect(got['/partner.js'].body).toContain("from '/portal-embed.js'");
    expect(got['/foreign.html']).toMatchObject({ status: 200, body: '<p>foreign</p>', csp: null });
    expect(got['/foreign.html'].type).toContain('text/html');
    expect(got['/data.json']).toMatchObject({ status: 200, type: 'application/json', body: '{"a":1}' });
    expect(got['/extra.html']).toMatchObject({ status: 200, body: '<p>extra</p>' });
    expect(got['/%2e%2e/package.json'].status).toBe(404);
    expect(got['/nope'].status).toBe(404);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
