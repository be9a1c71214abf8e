import fs from 'node:fs/promises';
import { z } from 'zod';

/**
 * Who started an embedded service: a small JSON file next to the service's state. A service whose owner
 * process is gone (a `kill -9` of the main job) is *orphaned*: still serving, reused by the next run,
 * listed by `trajforge status` and shut down by `trajforge stop`.
 */
export const ServiceOwner = z.object({
  /** The service's own process id (for Temporal the leader of its process group). */
  pid: z.number().int().positive(),
  /** The trajforge process that started it. */
  ownerPid: z.number().int().positive(),
  port: z.number().int().min(1).max(65535),
  startedAt: z.string(),
});
export type ServiceOwner = z.infer<typeof ServiceOwner>;

/** Whether a process with this id exists (EPERM: it exists but belongs to another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function writeOwner(file: string, owner: Omit<ServiceOwner, 'ownerPid' | 'startedAt'>): Promise<void> {
  const record: ServiceOwner = { ...owner, ownerPid: process.pid, startedAt: new Date().toISOString() };
  await fs.writeFile(file, `${JSON.stringify(record)}\n`);
}

/** The owner record, or undefined when absent or unreadable (a service started before records existed). */
export async function readOwner(file: string): Promise<ServiceOwner | undefined> {
  try {
    const parsed = ServiceOwner.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function removeOwner(file: string): Promise<void> {
  await fs.rm(file, { force: true });
}

/** Waits until `pid` is gone; false after `timeoutMs` (polls every 100 ms: there is no exit event for a non-child). */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (processAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}
