import type { OcrLine } from '../domain/ports.js';

/**
 * PII and secrets scrubbing before any export (and masking in the review queue).
 * INTERFACE ONLY in this commit: the implementation lands with the dataset-products work (issue 11);
 * until then both functions return their input unchanged and count nothing.
 */
export const PII_KINDS = ['email', 'phone', 'iban', 'card', 'otp', 'api_key'] as const;
export type PiiKind = (typeof PII_KINDS)[number];
export type PiiCounts = Record<PiiKind, number>;

export const noPii = (): PiiCounts => ({ email: 0, phone: 0, iban: 0, card: 0, otp: 0, api_key: 0 });

/** Replaces every PII/secret span in `text` with a typed placeholder (e.g. `[EMAIL]`) and counts them. */
export function scrubText(text: string): { text: string; counts: PiiCounts } {
  return { text, counts: noPii() };
}

/** Blurs the screenshot regions whose OCR'd text holds PII/secrets; returns the new image bytes (PNG). */
export async function scrubImage(image: Uint8Array, lines: readonly OcrLine[]): Promise<{ image: Uint8Array; counts: PiiCounts; regions: number }> {
  void lines;
  return { image, counts: noPii(), regions: 0 };
}
