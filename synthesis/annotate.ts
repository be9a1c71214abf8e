import sharp from 'sharp';
import type { Action, Point } from '../domain/action.js';

/**
 * The interaction mark of guidance synthesis (GUI-Owl §6.4: "we annotate the interaction locations with circles on
 * the pre-action screenshots"): a magenta ring around the point a coordinate action touched, plus an arrow's end
 * ring for swipes. Magenta (#FF00FF) is named in the describer's prompt so a real VLM knows what to look for.
 */
export const MARK_COLOUR = '#FF00FF';
/** Ring radius and stroke in screenshot pixels: large enough to see at phone resolution, small enough not to hide a label. */
export const MARK_RADIUS = 22;
export const MARK_STROKE = 4;

/** The points a coordinate action touches (none for type/open/system buttons...). */
export function interactionPoints(action: Action): Point[] {
  const a = action as { coordinate?: Point; coordinate2?: Point };
  return [a.coordinate, a.coordinate2].filter((p): p is Point => Array.isArray(p));
}

/** Draws a ring around every interaction point of `action` on a PNG screenshot; returns a PNG (unchanged pixels elsewhere). */
export async function circleInteraction(png: Uint8Array, action: Action): Promise<Uint8Array> {
  const points = interactionPoints(action);
  if (points.length === 0) return png;
  const meta = await sharp(png).metadata();
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  if (!w || !h) throw new Error('circleInteraction: screenshot is not a decodable image');
  const rings = points
    .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="${MARK_RADIUS}" fill="none" stroke="${MARK_COLOUR}" stroke-width="${MARK_STROKE}"/>`)
    .join('');
  const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${rings}</svg>`);
  return new Uint8Array(await sharp(png).composite([{ input: svg, top: 0, left: 0 }]).png().toBuffer());
}
