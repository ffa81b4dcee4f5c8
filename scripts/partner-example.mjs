#!/usr/bin/env node
// The example partner page that embeds the portal (examples/partner/), for `make run` and by hand:
//   node scripts/partner-example.mjs [--port 8081] [--host 127.0.0.1] [--portal http://localhost:8080] [--dev]
// --dev rebuilds @portal/embed when its sources change. The portal must list this page's origin
// in general.allowedOrigins (the demo tenant allows http://127.0.0.1:8081).
import { pathToFileURL } from 'node:url';
import { startPartnerServer } from './partner-server.mjs';

export { ensureEmbedBuilt, startPartnerServer } from './partner-server.mjs';

function parseArgs(argv) {
  const opts = { port: 8081, host: '127.0.0.1', portalUrl: 'http://localhost:8080', dev: false };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => (inline !== undefined ? inline : argv[++i]);
    if (flag === '--port') opts.port = Number(value());
    else if (flag === '--host') opts.host = value();
    else if (flag === '--portal') opts.portalUrl = value();
    else if (flag === '--dev') opts.dev = true;
    else if (flag === '--help' || flag === '-h') {
      console.log('usage: node scripts/partner-example.mjs [--port 8081] [--host 127.0.0.1] [--portal http://localhost:8080] [--dev]');
      process.exit(0);
    } else throw new Error(`unknown option ${argv[i]} (try --help)`);
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) throw new Error('--port needs a port number');
  new URL(opts.portalUrl); // throws on a malformed --portal
  return opts;
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  try {
    const site = await startPartnerServer(parseArgs(process.argv.slice(2)));
    console.log(`Partner example: ${site.url} (embeds the portal at ${site.portalUrl})`);
    const stop = () => site.close().finally(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } catch (err) {
    console.error(`partner example: ${err && err.message ? err.message : err}`);
    process.exit(1);
  }
}
