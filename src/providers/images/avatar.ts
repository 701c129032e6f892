// A deterministic avatar: a symmetric 5×5 pattern in one colour on white, both taken from the
// SHA-256 of the agent's name, drawn as a 160×160 PNG. The same name always gives the same bytes.
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

const CELLS = 5;
const CELL_PIXELS = 32;
const SIZE = CELLS * CELL_PIXELS;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** An 8-bit RGB PNG of width × height from a function giving each pixel's colour. */
export function encodePng(width: number, height: number, colourAt: (x: number, y: number) => [number, number, number]): Buffer {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const start = y * (width * 3 + 1);
    rows[start] = 0; // filter: none
    for (let x = 0; x < width; x++) rows.set(colourAt(x, y), start + 1 + x * 3);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolour, deflate, no filter method, no interlace
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

export function avatarPng(seed: string): Buffer {
  const hash = createHash('sha256').update(seed, 'utf8').digest();
  // A mid-tone colour, so that it shows on white.
  const colour: [number, number, number] = [64 + (hash[0]! % 160), 64 + (hash[1]! % 160), 64 + (hash[2]! % 160)];
  const white: [number, number, number] = [255, 255, 255];
  // Three columns decided by the hash, mirrored: cell (x, y) is on when its bit is set.
  const on = (x: number, y: number) => {
    const column = x < 3 ? x : CELLS - 1 - x;
    const bit = column * CELLS + y;
    return ((hash[3 + (bit >> 3)]! >> (bit & 7)) & 1) === 1;
  };
  return encodePng(SIZE, SIZE, (x, y) => (on(Math.floor(x / CELL_PIXELS), Math.floor(y / CELL_PIXELS)) ? colour : white));
}
