/**
 * The simulated device's screen: a fixed home-screen picture (status bar, wallpaper, app icons,
 * navigation bar) rendered as RGBA pixels, and a PNG encoder for `screencap -p`.
 *
 * Facts: the PNG layout (signature, `IHDR`, `IDAT` holding zlib data of filtered scanlines, `IEND`,
 * CRC-32 over type and data) is the PNG specification's (ISO/IEC 15948); Android's `screencap`
 * (`frameworks/base/cmds/screencap/screencap.cpp`) writes RGBA_8888 pixels (format 1) with the
 * sRGB data space, and a PNG with `-p`.
 */
import {crc32, deflateSync} from 'node:zlib';

/** The Pixel 7's panel: 1080 × 2400 pixels at 420 dpi (`wm size`, `wm density`). */
export const PHYSICAL_SIZE = {width: 1080, height: 2400} as const;
/** The panel's density in dpi (`ro.sf.lcd_density`). */
export const PHYSICAL_DENSITY = 420;

/** A picture: `width` × `height` pixels, 4 bytes each (R, G, B, A), rows top to bottom. */
export interface Frame {
  width: number;
  height: number;
  /** `width * height * 4` bytes of RGBA_8888. */
  pixels: Uint8Array;
}

const frames = new Map<string, Frame>();
const pngs = new Map<string, Uint8Array>();

/**
 * The home screen at `width` × `height` (default the panel's size). Deterministic: the same size
 * always gives the same pixels. The result is shared: don't modify it.
 */
export function renderScreen(width: number = PHYSICAL_SIZE.width, height: number = PHYSICAL_SIZE.height): Frame {
  const key = `${width}x${height}`;
  const cached = frames.get(key);
  if (cached) return cached;
  const pixels = new Uint8Array(width * height * 4);
  const statusBar = Math.round(height * 0.03);
  const navBar = Math.round(height * 0.035);
  // Wallpaper: a vertical gradient from deep blue to teal.
  for (let y = 0; y < height; y += 1) {
    const t = y / Math.max(1, height - 1);
    let r = Math.round(26 + 10 * t);
    let g = Math.round(35 + 120 * t);
    let b = Math.round(126 - 20 * t);
    if (y < statusBar || y >= height - navBar) [r, g, b] = [16, 16, 20];
    const row = y * width * 4;
    for (let x = 0; x < width; x += 1) {
      const i = row + x * 4;
      pixels[i] = r;
      pixels[i + 1] = g;
      pixels[i + 2] = b;
      pixels[i + 3] = 255;
    }
  }
  const fill = (x0: number, y0: number, w: number, h: number, [r, g, b]: readonly number[]) => {
    for (let y = Math.max(0, y0); y < Math.min(height, y0 + h); y += 1) {
      for (let x = Math.max(0, x0); x < Math.min(width, x0 + w); x += 1) {
        const i = (y * width + x) * 4;
        pixels[i] = r!;
        pixels[i + 1] = g!;
        pixels[i + 2] = b!;
      }
    }
  };
  // Status bar: clock block on the left, battery block on the right.
  const unit = Math.max(1, Math.round(width / 54));
  fill(unit * 2, Math.round(statusBar / 4), unit * 5, Math.round(statusBar / 2), [230, 230, 230]);
  fill(width - unit * 6, Math.round(statusBar / 4), unit * 4, Math.round(statusBar / 2), [120, 220, 120]);
  // Four rows of four app icons, then the dock.
  const colors = [
    [234, 67, 53],
    [251, 188, 5],
    [52, 168, 83],
    [66, 133, 244],
  ];
  const icon = Math.round(width / 7);
  const gap = Math.round((width - icon * 4) / 5);
  for (let row = 0; row < 5; row += 1) {
    const y = row < 4 ? Math.round(height * 0.12) + row * (icon + gap * 2) : height - navBar - icon - gap;
    for (let column = 0; column < 4; column += 1) {
      fill(gap + column * (icon + gap), y, icon, icon, colors[(row + column) % 4]!);
    }
  }
  // Navigation bar: the gesture handle.
  fill(
    Math.round(width * 0.4),
    height - Math.round(navBar / 2) - 2,
    Math.round(width * 0.2),
    Math.max(2, Math.round(navBar / 8)),
    [200, 200, 200],
  );
  const frame = {width, height, pixels};
  frames.set(key, frame);
  return frame;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i += 1) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** The 8-byte PNG signature. */
export const PNG_SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Encodes RGBA pixels as a PNG file (8-bit RGBA, no filtering, zlib level 6). */
export function encodePng(frame: Frame): Uint8Array {
  const {width, height, pixels} = frame;
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 6, 0, 0, 0], 8);
  const stride = width * 4;
  const raw = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y += 1) raw.set(pixels.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const parts = [PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array(0))];
  return new Uint8Array(Buffer.concat(parts));
}

/** `renderScreen(width, height)` as a PNG (cached per size). */
export function screenPng(width: number = PHYSICAL_SIZE.width, height: number = PHYSICAL_SIZE.height): Uint8Array {
  const key = `${width}x${height}`;
  let png = pngs.get(key);
  if (!png) {
    png = encodePng(renderScreen(width, height));
    pngs.set(key, png);
  }
  return png;
}
