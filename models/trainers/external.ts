import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * The external-command trainer adapter: launches a real trainer (ms-swift, LLaMA-Factory, a cluster submit script
 * that blocks until the job ends) with the snapshot on local disk, waits for it while reporting progress, and
 * reads back what it produced. The command is an argv template; placeholders are replaced verbatim:
 *
 * | placeholder | value |
 * |---|---|
 * | `{dataset}` | path of the snapshot's SFT training file, `sft/train.jsonl` (ms-swift / LLaMA-Factory `messages` + `images` layout) |
 * | `{dataset_dir}` | the snapshot laid out whole (manifest, every format, `images/`), so relative image paths resolve |
 * | `{output_dir}` | an empty folder per candidate version: the trainer writes its checkpoint there |
 * | `{version}` / `{parent}` | the candidate version and the version it was trained from |
 *
 * The process is not run through a shell (no quoting surprises). A non-zero exit fails the training with the
 * last lines of its output. When the trainer writes `{output_dir}/trajforge-model.json` (`{"endpoint": …}`),
 * that endpoint is registered with the candidate (where a serving stack loaded the checkpoint).
 */
export interface ExternalTrainerSpec {
  command: readonly string[];
  /** Kills the trainer after this long (ms). */
  timeoutMs: number;
  env?: Record<string, string>;
}

export interface ExternalTrainerResult {
  outputDir: string;
  exitCode: number;
  endpoint?: string;
  /** The last ≤ 4 KiB of the trainer's output. */
  logTail: string;
}

export function expandCommand(command: readonly string[], values: Record<string, string>): string[] {
  return command.map((arg) => arg.replace(/\{(dataset|dataset_dir|output_dir|version|parent)\}/g, (_, k: string) => values[k] ?? ''));
}

export async function runExternalTrainer(opts: {
  spec: ExternalTrainerSpec;
  /** Local folder to put the snapshot in. */
  workDir: string;
  /** Every file of the snapshot (data, images, manifest) by its path relative to the snapshot. */
  files: readonly { path: string; bytes: Uint8Array }[];
  /** The training file among them (`sft/train.jsonl`). */
  trainPath: string;
  version: string;
  parent: string;
  /** Called every `progressMs` while the trainer runs (activity heartbeats). */
  onProgress: (info: { elapsedMs: number; logTail: string }) => void;
  progressMs?: number;
}): Promise<ExternalTrainerResult> {
  const datasetDir = join(opts.workDir, 'dataset');
  const outputDir = join(opts.workDir, 'output');
  await mkdir(datasetDir, { recursive: true });
  await mkdir(outputDir, { recursive: true });
  // The whole snapshot, so relative image paths in the training file resolve inside `{dataset_dir}`.
  for (const f of opts.files) {
    if (f.path.split('/').some((part) => part === '..' || part === '') || f.path.startsWith('/')) throw new Error(`external trainer: unsafe snapshot path ${f.path}`);
    await mkdir(dirname(join(datasetDir, f.path)), { recursive: true });
    await writeFile(join(datasetDir, f.path), f.bytes);
  }
  const dataset = join(datasetDir, opts.trainPath);
  const [exe, ...args] = expandCommand(opts.spec.command, { dataset, dataset_dir: datasetDir, output_dir: outputDir, version: opts.version, parent: opts.parent });
  if (!exe) throw new Error('external trainer: empty command');
  const started = Date.now();
  let tail = '';
  const keep = (chunk: Buffer): void => {
    tail = (tail + chunk.toString('utf8')).slice(-4096);
  };
  const exitCode = await new Promise<number>((resolve, reject) => {
    const child = spawn(exe, args, { env: { ...process.env, ...opts.spec.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const tick = setInterval(() => opts.onProgress({ elapsedMs: Date.now() - started, logTail: tail.slice(-512) }), opts.progressMs ?? 10_000);
    const killer = setTimeout(() => child.kill('SIGTERM'), opts.spec.timeoutMs);
    const done = (): void => {
      clearInterval(tick);
      clearTimeout(killer);
    };
    child.on('error', (err) => {
      done();
      reject(new Error(`external trainer ${exe}: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      done();
      resolve(code ?? (signal ? 128 : 1));
    });
  });
  if (exitCode !== 0) throw new Error(`external trainer exited with ${exitCode}: ${tail.slice(-1000)}`);
  let endpoint: string | undefined;
  try {
    const info = JSON.parse(await readFile(join(outputDir, 'trajforge-model.json'), 'utf8')) as { endpoint?: unknown };
    if (typeof info.endpoint === 'string') endpoint = info.endpoint;
  } catch {
    // The file is optional: without it the candidate is registered with its output folder only.
  }
  return { outputDir, exitCode, logTail: tail, ...(endpoint ? { endpoint } : {}) };
}
