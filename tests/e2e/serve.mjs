// A static server for the browser tests, so each test controls its headers: dist/ as built,
// /csp/* the same files under a strict Content-Security-Policy, and pages a test adds.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../../dist/', import.meta.url).pathname;
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png' };
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'";

// gzip: bodies compressed for a browser that asks, as a real server would (the bench's throttled
// loads, where the bytes on the wire decide).
export function serve(pages = {}, { gzip = false } = {}) {
  const requests = [];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    requests.push(path);
    const headers = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' };  // * : a sandboxed iframe has an opaque origin
    if (pages[path] !== undefined) {  // a string is an HTML page; {type, body} anything else
      const page = typeof pages[path] === 'string' ? { type: TYPES['.html'], body: pages[path] } : pages[path];
      send(req, res, { ...headers, 'Content-Type': page.type }, page.body);
      return;
    }
    let file = path.startsWith('/csp/') ? path.slice(4) : path;
    if (path.startsWith('/csp/')) headers['Content-Security-Policy'] = STRICT_CSP;
    if (file.endsWith('/')) file += 'index.html';
    file = normalize(file).replace(/^(\.\.[/\\])+/, '');
    try {
      const body = await readFile(dist + file);
      send(req, res, { ...headers, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' }, body);
    } catch {
      res.writeHead(404, headers);
      res.end('not found');
    }
  });
  const zipped = new Map();  // body -> its gzip, compressed once rather than on every load
  const send = (req, res, headers, body) => {
    if (gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
      const key = typeof body === 'string' ? body : body.toString('latin1');
      if (!zipped.has(key)) zipped.set(key, gzipSync(body, { level: 9 }));
      res.writeHead(200, { ...headers, 'Content-Encoding': 'gzip' });
      res.end(zipped.get(key));
    } else {
      res.writeHead(200, headers);
      res.end(body);
    }
  };
  server.unref();  // a test that fails before closing it must not keep its file's process (and CI) waiting
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    base: `http://127.0.0.1:${server.address().port}/`, requests, close: () => new Promise((r) => server.close(r)),
  })));
}
