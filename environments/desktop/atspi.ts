import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** One accessible object on screen, as the desktop environment stores it per observation (`uiTreeKey`). */
export const A11yNode = z.object({
  app: z.string(),
  role: z.string(),
  name: z.string(),
  /** [x0, y0, x1, y1] in screenshot pixels. */
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  states: z.array(z.string()),
  text: z.string().optional(),
});
export type A11yNode = z.infer<typeof A11yNode>;
export const A11yTree = z.object({ nodes: z.array(A11yNode) });
export type A11yTree = z.infer<typeof A11yTree>;

const SCRIPT = fileURLToPath(new URL('./atspi-dump.py', import.meta.url));
/** Debian's interpreter: python3-pyatspi is installed for it (a pyenv/venv python on PATH would lack it). */
export const SYSTEM_PYTHON = '/usr/bin/python3';

/**
 * Reads the accessibility trees of the applications on a display's session bus (AT-SPI through pyatspi).
 * Bounded by `timeoutMs`; an application that does not answer yields an empty tree rather than a hang.
 */
export function dumpA11yTree(env: NodeJS.ProcessEnv, timeoutMs = 5000): Promise<A11yTree> {
  return new Promise((resolve) => {
    execFile(SYSTEM_PYTHON, [SCRIPT], { env, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 }, (err, stdout) => {
      if (err) return resolve({ nodes: [] });
      try {
        const parsed = A11yTree.safeParse(JSON.parse(stdout || '{"nodes":[]}'));
        resolve(parsed.success ? parsed.data : { nodes: [] });
      } catch {
        resolve({ nodes: [] });
      }
    });
  });
}
