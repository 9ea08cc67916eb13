/**
 * The app icon, drawn in code and encoded as PNG (Node side, for the client
 * server): three fanned cards on the felt, kept inside the centre 80 % so
 * the icon survives a launcher's round or squircle mask. No image files to
 * keep in step with the brand colours.
 */
import { deflateSync } from 'node:zlib';

type Rgba = [number, number, number, number];

const FELT: Rgba = [0x17, 0x5c, 0x3c, 255];
const CARD: Rgba = [0xff, 0xfb, 0xf2, 255];
const EDGE: Rgba = [0x0f, 0x3d, 0x28, 255];
const PIPS: Rgba[] = [
  [0x1f, 0x1f, 0x2e, 255],
  [0xd6, 0x33, 0x3a, 255],
  [0xe8, 0xa3, 0x17, 255],
];

/** Is (x, y) inside a rounded rectangle of half-size (hw, hh), centre (cx, cy), turned by `angle`? */
function inCard(x: number, y: number, cx: number, cy: number, hw: number, hh: number, r: number, angle: number) {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const dx = x - cx;
  const dy = y - cy;
  const u = Math.abs(dx * c + dy * s);
  const v = Math.abs(-dx * s + dy * c);
  if (u > hw || v > hh) return { inside: false, u, v };
  const ox = u - (hw - r);
  const oy = v - (hh - r);
  return { inside: ox <= 0 || oy <= 0 || ox * ox + oy * oy <= r * r, u, v };
}

/** RGBA pixels of the icon at `size`×`size`. */
export function iconPixels(size: number): Uint8Array {
  const px = new Uint8Array(size * size * 4);
  const hw = size * 0.15;
  const hh = size * 0.21;
  const cards = [
    { cx: size * 0.37, cy: size * 0.53, angle: -0.32, pip: PIPS[0] },
    { cx: size * 0.63, cy: size * 0.53, angle: 0.32, pip: PIPS[2] },
    { cx: size * 0.5, cy: size * 0.47, angle: 0, pip: PIPS[1] },
  ];
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      let color = FELT;
      // Later cards lie on top: the last one that covers the pixel wins.
      for (const card of cards) {
        const hit = inCard(x + 0.5, y + 0.5, card.cx, card.cy, hw, hh, size * 0.025, card.angle);
        if (!hit.inside) continue;
        const border = hw - hit.u < size * 0.012 || hh - hit.v < size * 0.012;
        const pip = Math.hypot(hit.u, hit.v) < size * 0.055;
        color = border ? EDGE : pip ? card.pip : CARD;
      }
      px.set(color, (y * size + x) * 4);
    }
  return px;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A truecolour-with-alpha PNG of `pixels` (RGBA rows, no filtering). */
export function encodePng(size: number, pixels: Uint8Array): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0; // filter: none
    Buffer.from(pixels.buffer, pixels.byteOffset + y * size * 4, size * 4).copy(rows, y * (size * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const cache = new Map<number, Buffer>();
/** The icon's PNG at one of the manifest's sizes (drawn once per process). */
export function iconPng(size: number): Buffer {
  let png = cache.get(size);
  if (!png) cache.set(size, (png = encodePng(size, iconPixels(size))));
  return png;
}
