import type { Action } from './action.js';
import type { ObservationRef, StepMetrics } from './entities.js';
import type { ChatRequest, ChatResponse } from './openai.js';

/**
 * Content-addressed object storage. `put` returns `sha256/<first two hex>/<hex><ext>`; putting the same bytes twice is a
 * no-op that returns the same key (a retried upload never duplicates an object).
 */
export interface BlobStore {
  readonly kind: 'local' | 's3';
  put(bytes: Uint8Array, opts?: { ext?: string; contentType?: string }): Promise<string>;
  /** Writes at an explicit key (dataset files); refuses to overwrite different bytes. */
  putAt(key: string, bytes: Uint8Array, opts?: { contentType?: string }): Promise<void>;
  get(key: string): Promise<Uint8Array>;
  has(key: string): Promise<boolean>;
  list(prefix: string): Promise<string[]>;
  /** A URI a person or trainer can use: `file:///...` or `s3://bucket/key`. */
  uri(key: string): string;
}

/** One environment session serving one episode at a time (a phone, a browser tab, a VM). */
export interface EnvSession {
  readonly id: string;
  /** Resets app state for the task (seeded) and returns the first observation. */
  reset(task: { app: string; seed: number }): Promise<ObservationRef>;
  /** Executes one action and returns the settled observation after it. Throws EnvError on failure. */
  step(action: Action): Promise<{ observation: ObservationRef; settleMs: number; metrics?: StepMetrics }>;
  close(): Promise<void>;
  /**
   * Cheap liveness probe with a bounded timeout (pools call it before handing out an idle session).
   * Resolves false — never throws, never hangs — when the session is dead or unresponsive.
   */
  healthy?(): Promise<boolean>;
  /**
   * Resolves (never rejects) with a non-recoverable EnvError the moment the session becomes unusable — its browser
   * crashed or was found hung by a watchdog — even while no call is in flight, so an episode waiting on a model
   * can stop at once instead of at its next action. Pending forever while the session is fine.
   */
  whenUnusable?(): Promise<EnvError>;
}

/** A failure executing a (valid) action; recorded on the step as `execution_error`. */
export class EnvError extends Error {
  constructor(
    message: string,
    readonly recoverable: boolean,
  ) {
    super(message);
    this.name = 'EnvError';
  }
}

/**
 * The store an environment writes its observations to (the blob store) failed — a full disk, a store that is down.
 * Not the environment's fault and not the action's: an episode that meets it is not recorded as degraded but fails,
 * so the activity is retried and the episode rerun from its seed once the store is back (nothing was written yet).
 */
export class StorageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageError';
  }
}

/** The OpenAI-compatible chat endpoint one role talks to. */
export interface ChatModel {
  readonly name: string;
  complete(request: Omit<ChatRequest, 'model'>): Promise<{ response: ChatResponse; callKey?: string }>;
}

/** One line of text read off a screenshot, in the screenshot's pixel coordinates. */
export interface OcrLine {
  text: string;
  /** Axis-aligned box in image pixels. */
  box: { x: number; y: number; w: number; h: number };
  confidence: number;
}

/** Reads text off a PNG/JPEG. Implementations cache by content hash. */
export interface RecognizeOptions {
  /**
   * Allow region-of-change OCR for this frame (models/ocr.ts): when it differs from a recently recognised frame
   * in a few bands only, just those are re-read. For frames known to differ from a seen one by an overlay.
   */
  regionOfChange?: boolean;
}

export interface OcrEngine {
  recognize(image: Uint8Array, opts?: RecognizeOptions): Promise<OcrLine[]>;
}
