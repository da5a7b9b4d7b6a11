// Draws a bar chart of the numbers given as a PNG, and prints it as MCP content blocks (the tool
// declares "output": "content"): a line of text, then the image. The PNG is made here, from
// nothing but zlib: 8-bit grayscale, one bar per value, scaled to the largest.
import { deflateSync } from "node:zlib";
import { readInput } from "./_input.mjs";

const { values } = await readInput();
const [bar, gap, height] = [12, 4, 80];
const width = values.length * (bar + gap) + gap;
const top = Math.max(...values, 0) || 1;

// One filter byte (0: none) and `width` gray pixels a row; white, with dark bars.
const rows = Buffer.alloc((width + 1) * height, 255);
for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0;
values.forEach((value, i) => {
  const tall = Math.round((Math.max(value, 0) / top) * (height - 4));
  for (let y = height - tall; y < height; y++) {
    const start = y * (width + 1) + 1 + gap + i * (bar + gap);
    rows.fill(40, start, start + bar);
  }
});

const CRC = Array.from({ length: 256 }, (_, n) => {
  for (let k = 0; k < 8; k++) n = n & 1 ? 0xedb88320 ^ (n >>> 1) : n >>> 1;
  return n >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};
const header = Buffer.alloc(13);
header.writeUInt32BE(width, 0);
header.writeUInt32BE(height, 4);
header[8] = 8; // bit depth; color type 0 (gray), compression, filter and interlace all 0
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk("IHDR", header),
  chunk("IDAT", deflateSync(rows)),
  chunk("IEND", Buffer.alloc(0)),
]);

console.log(JSON.stringify([
  { type: "text", text: `Bar chart of ${values.length} values, the largest ${top}` },
  { type: "image", data: png.toString("base64"), mimeType: "image/png" },
]));
