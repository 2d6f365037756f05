import { deflateSync } from 'node:zlib';

/**
 * Bar charts of req/s and p99 per scenario, drawn without any native tool or network: the same list
 * of rectangles and text is written as SVG and rasterised to PNG (a 5×7 bitmap font, node:zlib for the
 * PNG's deflate stream). Nothing to install on a fresh machine or in CI.
 */

export interface Bar {
  label: string;
  value: number | null;
  kind: 'gateway' | 'reference' | 'scaling';
}

export interface Panel {
  title: string;
  unit: string;
  bars: Bar[];
}

type Rgb = readonly [number, number, number];
type Shape = { kind: 'rect'; x: number; y: number; w: number; h: number; color: Rgb } | { kind: 'text'; x: number; y: number; text: string; color: Rgb; scale: number };

const COLORS: Record<Bar['kind'] | 'text' | 'muted' | 'grid' | 'bg', Rgb> = {
  gateway: [37, 99, 235],
  reference: [120, 120, 120],
  scaling: [234, 138, 30],
  text: [20, 20, 20],
  muted: [90, 90, 90],
  grid: [225, 225, 225],
  bg: [255, 255, 255],
};

// 5×7 glyphs (9 rows for descenders), one number per row, most significant of 5 bits on the left.
const GLYPHS: Record<string, number[]> = {
  ' ': [0, 0, 0, 0, 0, 0, 0],
  '0': [0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e], '1': [0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e],
  '2': [0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f], '3': [0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e],
  '4': [0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02], '5': [0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e],
  '6': [0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e], '7': [0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
  '8': [0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e], '9': [0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c],
  A: [0x0e, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11], B: [0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e],
  C: [0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e], D: [0x1c, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1c],
  E: [0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f], F: [0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10],
  G: [0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f], H: [0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11],
  I: [0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e], J: [0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c],
  K: [0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11], L: [0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f],
  M: [0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11], N: [0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11],
  O: [0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e], P: [0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10],
  Q: [0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d], R: [0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11],
  S: [0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e], T: [0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04],
  U: [0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e], V: [0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04],
  W: [0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a], X: [0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11],
  Y: [0x11, 0x11, 0x11, 0x0a, 0x04, 0x04, 0x04], Z: [0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f],
  a: [0, 0, 0x0e, 0x01, 0x0f, 0x11, 0x0f], b: [0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x1e],
  c: [0, 0, 0x0e, 0x10, 0x10, 0x11, 0x0e], d: [0x01, 0x01, 0x0d, 0x13, 0x11, 0x11, 0x0f],
  e: [0, 0, 0x0e, 0x11, 0x1f, 0x10, 0x0e], f: [0x06, 0x09, 0x08, 0x1c, 0x08, 0x08, 0x08],
  g: [0, 0, 0x0f, 0x11, 0x11, 0x11, 0x0f, 0x01, 0x0e], h: [0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x11],
  i: [0x04, 0, 0x0c, 0x04, 0x04, 0x04, 0x0e], j: [0x02, 0, 0x06, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c],
  k: [0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12], l: [0x0c, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e],
  m: [0, 0, 0x1a, 0x15, 0x15, 0x11, 0x11], n: [0, 0, 0x16, 0x19, 0x11, 0x11, 0x11],
  o: [0, 0, 0x0e, 0x11, 0x11, 0x11, 0x0e], p: [0, 0, 0x1e, 0x11, 0x11, 0x11, 0x1e, 0x10, 0x10],
  q: [0, 0, 0x0f, 0x11, 0x11, 0x11, 0x0f, 0x01, 0x01], r: [0, 0, 0x16, 0x19, 0x10, 0x10, 0x10],
  s: [0, 0, 0x0e, 0x10, 0x0e, 0x01, 0x1e], t: [0x08, 0x08, 0x1c, 0x08, 0x08, 0x09, 0x06],
  u: [0, 0, 0x11, 0x11, 0x11, 0x13, 0x0d], v: [0, 0, 0x11, 0x11, 0x11, 0x0a, 0x04],
  w: [0, 0, 0x11, 0x11, 0x15, 0x15, 0x0a], x: [0, 0, 0x11, 0x0a, 0x04, 0x0a, 0x11],
  y: [0, 0, 0x11, 0x11, 0x11, 0x11, 0x0f, 0x01, 0x0e], z: [0, 0, 0x1f, 0x02, 0x04, 0x08, 0x1f],
  '.': [0, 0, 0, 0, 0, 0x0c, 0x0c], ',': [0, 0, 0, 0, 0x0c, 0x04, 0x08],
  '-': [0, 0, 0, 0x1f, 0, 0, 0], _: [0, 0, 0, 0, 0, 0, 0x1f],
  '/': [0x01, 0x02, 0x02, 0x04, 0x08, 0x08, 0x10], '(': [0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02],
  ')': [0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08], ':': [0, 0x0c, 0x0c, 0, 0x0c, 0x0c, 0],
  '%': [0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03], '=': [0, 0, 0x1f, 0, 0x1f, 0, 0],
  '+': [0, 0x04, 0x04, 0x1f, 0x04, 0x04, 0], '>': [0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08],
  '<': [0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02], '*': [0, 0x04, 0x15, 0x0e, 0x15, 0x04, 0],
  '|': [0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04], '?': [0x0e, 0x11, 0x01, 0x02, 0x04, 0, 0x04],
  '@': [0x0e, 0x11, 0x17, 0x15, 0x17, 0x10, 0x0e], '#': [0x0a, 0x0a, 0x1f, 0x0a, 0x1f, 0x0a, 0x0a],
};

/** Pixel advance of one character at `scale` (5 columns plus 1 of spacing). */
const advance = (scale: number): number => 6 * scale;

const formatValue = (value: number | null, unit: string): string => {
  if (value === null || !Number.isFinite(value)) return 'n/a';
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
};

/** Lays out the panels as shapes: one row per bar, labels on the left, values after the bars. */
function layout(title: string, subtitle: string, panels: Panel[]): { width: number; height: number; shapes: Shape[] } {
  const width = 1000;
  const labelWidth = 340;
  const barMax = 470;
  const rowHeight = 22;
  const shapes: Shape[] = [];
  let y = 16;
  shapes.push({ kind: 'text', x: 16, y, text: title, color: COLORS.text, scale: 3 });
  y += 30;
  shapes.push({ kind: 'text', x: 16, y, text: subtitle, color: COLORS.muted, scale: 2 });
  y += 28;
  for (const panel of panels) {
    y += 10;
    shapes.push({ kind: 'text', x: 16, y, text: panel.title, color: COLORS.text, scale: 2 });
    y += 26;
    const values = panel.bars.map((bar) => (bar.value !== null && Number.isFinite(bar.value) ? bar.value : 0)).sort((a, b) => b - a);
    // One bar far above the rest (the bare ceiling) would flatten every other: scale to the runner-up
    // and draw the outlier broken.
    const [first = 0, second = 0] = values;
    const max = Math.max(1e-9, first > 4 * second && second > 0 ? second * 1.1 : first);
    const top = y;
    for (const bar of panel.bars) {
      shapes.push({ kind: 'text', x: 16, y: y + 4, text: bar.label, color: COLORS.text, scale: 2 });
      const value = bar.value !== null && Number.isFinite(bar.value) ? bar.value : null;
      const broken = value !== null && value > max;
      const length = value === null ? 0 : broken ? barMax : Math.max(1, Math.round((value / max) * barMax));
      if (length > 0) shapes.push({ kind: 'rect', x: labelWidth, y: y + 2, w: length, h: rowHeight - 6, color: COLORS[bar.kind] });
      if (broken) {
        shapes.push({ kind: 'rect', x: labelWidth + barMax - 40, y: y + 2, w: 4, h: rowHeight - 6, color: COLORS.bg });
        shapes.push({ kind: 'rect', x: labelWidth + barMax - 30, y: y + 2, w: 4, h: rowHeight - 6, color: COLORS.bg });
      }
      shapes.push({ kind: 'text', x: labelWidth + length + 8, y: y + 4, text: formatValue(bar.value, panel.unit), color: COLORS.muted, scale: 2 });
      y += rowHeight;
    }
    shapes.unshift({ kind: 'rect', x: labelWidth - 1, y: top, w: 1, h: y - top, color: COLORS.grid });
    y += 8;
  }
  y += 6;
  let x = 16;
  for (const kind of ['gateway', 'reference', 'scaling'] as const) {
    shapes.push({ kind: 'rect', x, y, w: 14, h: 14, color: COLORS[kind] });
    const text = kind === 'gateway' ? 'gateway' : kind === 'reference' ? 'reference (same run)' : 'gateway, forms list at N';
    shapes.push({ kind: 'text', x: x + 20, y: y + 1, text, color: COLORS.text, scale: 2 });
    x += 20 + text.length * advance(2) + 24;
  }
  y += 30;
  return { width, height: y, shapes };
}

const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderSvg(title: string, subtitle: string, panels: Panel[]): string {
  const { width, height, shapes } = layout(title, subtitle, panels);
  const rgb = (c: Rgb): string => `rgb(${c[0]},${c[1]},${c[2]})`;
  const body = shapes
    .map((shape) =>
      shape.kind === 'rect'
        ? `<rect x="${shape.x}" y="${shape.y}" width="${shape.w}" height="${shape.h}" fill="${rgb(shape.color)}"/>`
        : `<text x="${shape.x}" y="${shape.y + 7 * shape.scale}" font-family="monospace" font-size="${(10 * shape.scale) / 1}" fill="${rgb(shape.color)}">${escapeXml(shape.text)}</text>`,
    )
    .join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">\n<rect width="100%" height="100%" fill="white"/>\n${body}\n</svg>\n`;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** An RGB, 8-bit, non-interlaced PNG of `pixels` (width × height × 3 bytes). */
export function encodePng(width: number, height: number, pixels: Buffer): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let row = 0; row < height; row++) {
    raw[row * (width * 3 + 1)] = 0; // filter: none
    pixels.copy(raw, row * (width * 3 + 1) + 1, row * width * 3, (row + 1) * width * 3);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export function renderPng(title: string, subtitle: string, panels: Panel[]): Buffer {
  const { width, height, shapes } = layout(title, subtitle, panels);
  const pixels = Buffer.alloc(width * height * 3, 255);
  const set = (x: number, y: number, color: Rgb): void => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const offset = (y * width + x) * 3;
    pixels[offset] = color[0];
    pixels[offset + 1] = color[1];
    pixels[offset + 2] = color[2];
  };
  for (const shape of shapes) {
    if (shape.kind === 'rect') {
      for (let y = shape.y; y < shape.y + shape.h; y++) for (let x = shape.x; x < shape.x + shape.w; x++) set(x, y, shape.color);
      continue;
    }
    let x = shape.x;
    for (const character of shape.text) {
      const glyph = GLYPHS[character] ?? GLYPHS[character.toUpperCase()] ?? GLYPHS['?']!;
      for (let row = 0; row < glyph.length; row++) {
        const bits = glyph[row]!;
        for (let column = 0; column < 5; column++) {
          if (!(bits & (0x10 >> column))) continue;
          for (let dy = 0; dy < shape.scale; dy++) for (let dx = 0; dx < shape.scale; dx++) set(x + column * shape.scale + dx, shape.y + row * shape.scale + dy, shape.color);
        }
      }
      x += advance(shape.scale);
    }
  }
  return encodePng(width, height, pixels);
}
