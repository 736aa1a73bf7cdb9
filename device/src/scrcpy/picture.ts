/**
 * The picture the simulated encoders film, as target colours the encoders average over blocks:
 * the device screen (`screen.ts`, the picture `screencap` returns) as the capture sees it after
 * crop, quarter turns and flip, or a camera's view, scaled to the video size.
 *
 * The picture is sampled once per 4×4 block of the video (the centre pixel of the block's area in
 * the source, nearest neighbour), converted to Y′CbCr with the BT.601 limited-range matrix
 * (ITU-R BT.601: Y = 16 + 219·Y′, Cb/Cr = 128 + 224·(B′−Y′)/1.772, (R′−Y′)/1.402), and kept as
 * summed-area tables so the mean over any block aligned to 4 luma samples costs four reads.
 */
import {renderScreen} from '../screen.ts';

/** A rectangle, `right` and `bottom` exclusive (Android's `Rect`). */
export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * What the capture films and how: `kind` (`display`: the home screen rendered at
 * `width`×`height`; `camera`: a synthetic camera view of that size), the part of it captured
 * (`crop`), then mirrored left-right (`flip`) and turned `turns` quarter turns clockwise.
 */
export interface PictureSource {
  kind: 'display' | 'camera';
  width: number;
  height: number;
  crop: Rect;
  turns: number;
  flip: boolean;
}

/** Target colours of a `width`×`height` video picture. */
export interface TargetPicture {
  width: number;
  height: number;
  /**
   * The mean of component `plane` (0 Y, 1 Cb, 2 Cr) over the luma-sample rectangle
   * `x`, `y`, `w`, `h` (chroma included: its area in luma samples), clipped to the picture;
   * a value in 0–255, not rounded. A rectangle entirely outside gives the nearest block's colour.
   */
  mean(plane: 0 | 1 | 2, x: number, y: number, w: number, h: number): number;
}

/** One pixel of the synthetic camera view at `u`, `v` in 0–1 (left to right, top to bottom): sky, horizon, a red ball. */
function cameraPixel(u: number, v: number): [number, number, number] {
  const dx = u - 0.62;
  const dy = v - 0.58;
  if (dx * dx + dy * dy < 0.01) return [220, 40, 40];
  if (v < 0.55) return [Math.round(90 + 100 * v), Math.round(150 + 120 * v), 235];
  return [Math.round(60 + 60 * (1 - v)), Math.round(130 + 50 * (1 - v)), 60];
}

/**
 * The target picture of a `width`×`height` video of `source`. Deterministic: the same arguments
 * give the same values. Throws `RangeError` for a non-positive size.
 */
export function targetPicture(source: PictureSource, width: number, height: number): TargetPicture {
  if (!(width > 0 && height > 0)) throw new RangeError(`picture size ${width}x${height}`);
  const cellsX = Math.ceil(width / 4);
  const cellsY = Math.ceil(height / 4);
  const screen = source.kind === 'display' ? renderScreen(source.width, source.height) : undefined;
  const cropWidth = source.crop.right - source.crop.left;
  const cropHeight = source.crop.bottom - source.crop.top;
  const turns = ((source.turns % 4) + 4) % 4;
  // The picture after the turns is `width`×`height`; before them it is the crop, scaled.
  const sums = [0, 1, 2].map(() => new Float64Array((cellsX + 1) * (cellsY + 1)));
  for (let cy = 0; cy < cellsY; cy++) {
    for (let cx = 0; cx < cellsX; cx++) {
      // Centre of the cell in the output, as a fraction.
      let u = (cx * 4 + 2) / (cellsX * 4);
      let v = (cy * 4 + 2) / (cellsY * 4);
      // Undo the clockwise turns: a quarter turn clockwise sends (u, v) of the input to (1 − v, u).
      for (let i = 0; i < turns; i++) [u, v] = [v, 1 - u];
      if (source.flip) u = 1 - u;
      const sx = source.crop.left + Math.min(cropWidth - 1, Math.floor(u * cropWidth));
      const sy = source.crop.top + Math.min(cropHeight - 1, Math.floor(v * cropHeight));
      let r: number;
      let g: number;
      let b: number;
      if (screen) {
        const offset = (Math.min(screen.height - 1, Math.max(0, sy)) * screen.width + Math.min(screen.width - 1, Math.max(0, sx))) * 4;
        r = screen.pixels[offset]!;
        g = screen.pixels[offset + 1]!;
        b = screen.pixels[offset + 2]!;
      } else {
        [r, g, b] = cameraPixel(sx / source.width, sy / source.height);
      }
      const y = 16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255;
      const cb = 128 + (-37.797 * r - 74.203 * g + 112 * b) / 255;
      const cr = 128 + (112 * r - 93.786 * g - 18.214 * b) / 255;
      const index = (cy + 1) * (cellsX + 1) + cx + 1;
      for (const [plane, value] of [y, cb, cr].entries()) {
        const table = sums[plane]!;
        table[index] = value + table[index - 1]! + table[index - cellsX - 1]! - table[index - cellsX - 2]!;
      }
    }
  }
  return {
    width,
    height,
    mean(plane, x, y, w, h) {
      const table = sums[plane]!;
      let x0 = Math.max(0, Math.min(cellsX - 1, Math.floor(x / 4)));
      let y0 = Math.max(0, Math.min(cellsY - 1, Math.floor(y / 4)));
      const x1 = Math.max(x0 + 1, Math.min(cellsX, Math.ceil((x + w) / 4)));
      const y1 = Math.max(y0 + 1, Math.min(cellsY, Math.ceil((y + h) / 4)));
      x0 = Math.min(x0, x1 - 1);
      y0 = Math.min(y0, y1 - 1);
      const row = cellsX + 1;
      const sum = table[y1 * row + x1]! - table[y0 * row + x1]! - table[y1 * row + x0]! + table[y0 * row + x0]!;
      return sum / ((x1 - x0) * (y1 - y0));
    },
  };
}
