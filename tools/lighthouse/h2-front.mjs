#!/usr/bin/env node
// A TLS + HTTP/2 front for the portal, standing in for the ingress or CDN that serves it in
// production: a phone meets the portal over HTTPS with HTTP/2 (one connection, many files at
// once), never over plain HTTP/1.1 to the gateway. Lighthouse's throttling models the protocol
// it sees, so measuring without this front would price six HTTP/1.1 connections that no phone
// opens. Passes requests and answers through unchanged (compressed bodies stay compressed).
// Usage: node h2-front.mjs --target http://localhost:8080 --port 8443 --key key.pem --cert cert.pem
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import { parseArgs } from 'node:util';

const { values: opt } = parseArgs({
  options: { target: { type: 'string' }, port: { type: 'string' }, key: { type: 'string' }, cert: { type: 'string' } },
});
const target = new URL(opt.target);
// Connection-specific headers, which HTTP/2 forbids and the hop to the gateway sets itself.
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host', 'http2-settings']);
const agent = new http.Agent({ keepAlive: true });

const front = http2.createSecureServer({ key: fs.readFileSync(opt.key), cert: fs.readFileSync(opt.cert), allowHTTP1: true }, (req, res) => {
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !k.startsWith(':') && !HOP.has(k)));
  headers.host = target.host;
  headers['x-forwarded-proto'] = 'https';
  const upstream = http.request(
    { agent, host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
    (answer) => {
      res.writeHead(answer.statusCode, Object.fromEntries(Object.entries(answer.headers).filter(([k]) => !HOP.has(k))));
      answer.pipe(res);
    },
  );
  upstream.on('error', (err) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`front: ${err.message}`);
  });
  req.pipe(upstream);
});
front.listen(Number(opt.port), '127.0.0.1', () => console.log(`h2 front https://localhost:${opt.port} -> ${target.origin}`));
