import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadDag } from '../../apps/kit.js';
import type { DesktopApp } from './types.js';
import { documentText } from './fixtures.js';

/** The episode's document: ~/Documents/notes.txt. */
export const EDITOR_FILE = 'Documents/notes.txt';

const read = (home: string, rel: string): Promise<string | undefined> => readFile(path.join(home, rel), 'utf8').catch(() => undefined);
const lines = (text: string): string[] => text.split('\n').map((l) => l.trimEnd()).filter((l) => l.length > 0);

/** Mousepad (Xfce's text editor) on a seeded document. Checkers read the saved file on disk. */
export const textEditorApp: DesktopApp = {
  id: 'text_editor',
  title: 'Mousepad',
  windowClass: 'mousepad',
  command: (home) => ['mousepad', path.join(home, EDITOR_FILE)],
  async prepare(home, seed) {
    await mkdir(path.join(home, 'Documents'), { recursive: true });
    await writeFile(path.join(home, EDITOR_FILE), documentText(seed));
    // No session restore or "file changed" prompts between episodes: a fresh config dir per episode.
    await mkdir(path.join(home, '.config', 'Mousepad'), { recursive: true });
  },
  dag: loadDag(new URL('./dags/text_editor.json', import.meta.url), 'environments/desktop/apps/dags/text_editor.json'),
  families: [
    {
      id: 'append_line',
      slots: ['line'],
      async check(p, ctx) {
        const text = await read(ctx.home, EDITOR_FILE);
        if (text === undefined) return { success: false, reason: `${EDITOR_FILE} is missing` };
        const last = lines(text).at(-1);
        return last === p.line!.trim()
          ? { success: true, reason: `the saved file ends with "${p.line}"` }
          : { success: false, reason: `the saved file's last line is "${last ?? ''}", not "${p.line}"` };
      },
    },
    {
      id: 'replace_word',
      slots: ['old', 'new'],
      async check(p, ctx) {
        const text = await read(ctx.home, EDITOR_FILE);
        if (text === undefined) return { success: false, reason: `${EDITOR_FILE} is missing` };
        const oldRe = new RegExp(`\\b${p.old!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`);
        if (oldRe.test(text)) return { success: false, reason: `"${p.old}" is still in the saved file` };
        if (!text.includes(p.new!)) return { success: false, reason: `"${p.new}" is not in the saved file` };
        return { success: true, reason: `"${p.old}" was replaced by "${p.new}" and saved` };
      },
    },
    {
      id: 'save_as',
      slots: ['copy_name'],
      async check(p, ctx) {
        const original = await read(ctx.home, EDITOR_FILE);
        const copy = await read(ctx.home, path.join('Documents', p.copy_name!));
        if (copy === undefined) return { success: false, reason: `Documents/${p.copy_name} does not exist` };
        return original !== undefined && lines(copy).join('\n') === lines(original).join('\n')
          ? { success: true, reason: `Documents/${p.copy_name} holds the document` }
          : { success: false, reason: `Documents/${p.copy_name} exists but differs from the document` };
      },
    },
  ],
};
