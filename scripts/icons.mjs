// The portal's icons, all from one source image (shells/portal/static/assets/favicon.svg),
// rendered at build time with resvg: the spec's 16, 32, 64 and 128 px, the 192 and 512 px an
// installer needs, and a 512 px "maskable" one (the mark inside the safe zone, on the brand
// colour) that Android may crop to any shape. The web app manifest (/manifest.webmanifest,
// served by the gateway from the tenant config) lists them.
import fs from 'node:fs';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';

export const ICON_SIZES = [16, 32, 64, 128, 192, 512];

function png(svg, size) {
  return new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng();
}

/** Width and height from a PNG's IHDR. */
export function pngSize(buf) {
  return [buf.readUInt32BE(16), buf.readUInt32BE(20)];
}

/** Writes icon-<size>.png and icon-maskable-512.png into `outDir`; returns their names. */
export function writeIcons(source, outDir) {
  const svg = fs.readFileSync(source, 'utf8');
  fs.mkdirSync(outDir, { recursive: true });
  const written = [];
  for (const size of ICON_SIZES) {
    const file = `icon-${size}.png`;
    const data = png(svg, size);
    const [w, h] = pngSize(data);
    if (w !== size || h !== size) throw new Error(`${file}: rendered ${w}x${h}`);
    fs.writeFileSync(path.join(outDir, file), data);
    written.push(file);
  }
  // Maskable: the mark at 60% in the middle (the safe zone is the central 80% circle), on the
  // mark's own background colour, full bleed.
  const background = svg.match(/<rect[^>]*fill="(#[0-9a-fA-F]{3,8})"/)?.[1] ?? '#ffffff';
  const inner = Buffer.from(svg).toString('base64');
  const maskable = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
    <rect width="512" height="512" fill="${background}"/>
    <image href="data:image/svg+xml;base64,${inner}" x="102.4" y="102.4" width="307.2" height="307.2"/>
  </svg>`;
  fs.writeFileSync(path.join(outDir, 'icon-maskable-512.png'), png(maskable, 512));
  written.push('icon-maskable-512.png');
  return written;
}
