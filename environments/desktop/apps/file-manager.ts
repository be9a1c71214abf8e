import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DesktopApp } from './types.js';
import { documentText, fileStems } from './fixtures.js';

const exists = async (p: string): Promise<'file' | 'dir' | undefined> => {
  try {
    const s = await stat(p);
    return s.isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
};

/** Seeded files the file manager shows: four text files and one folder in ~/Documents. */
export function fileManagerFiles(seed: number): { files: string[]; folder: string } {
  return { files: fileStems(seed, 4).map((s) => `${s}.txt`), folder: 'Archive' };
}

/** PCManFM on ~/Documents. Checkers read the file system. */
export const fileManagerApp: DesktopApp = {
  id: 'file-manager',
  title: 'PCManFM',
  windowClass: 'pcmanfm',
  command: (home) => ['pcmanfm', '--no-desktop', path.join(home, 'Documents')],
  async prepare(home, seed) {
    const docs = path.join(home, 'Documents');
    const { files, folder } = fileManagerFiles(seed);
    await mkdir(path.join(docs, folder), { recursive: true });
    for (const [i, f] of files.entries()) await writeFile(path.join(docs, f), documentText(seed + i));
  },
  families: [
    {
      id: 'create_folder',
      slots: ['name'],
      async check(p, ctx) {
        return (await exists(path.join(ctx.home, 'Documents', p.name!))) === 'dir'
          ? { success: true, reason: `folder Documents/${p.name} exists` }
          : { success: false, reason: `no folder Documents/${p.name}` };
      },
    },
    {
      id: 'rename_file',
      slots: ['from', 'to'],
      async check(p, ctx) {
        const [from, to] = [await exists(path.join(ctx.home, 'Documents', p.from!)), await exists(path.join(ctx.home, 'Documents', p.to!))];
        if (to !== 'file') return { success: false, reason: `no file Documents/${p.to}` };
        return from === undefined ? { success: true, reason: `${p.from} was renamed to ${p.to}` } : { success: false, reason: `${p.from} still exists beside ${p.to}` };
      },
    },
    {
      id: 'delete_file',
      slots: ['name'],
      async check(p, ctx) {
        return (await exists(path.join(ctx.home, 'Documents', p.name!))) === undefined
          ? { success: true, reason: `Documents/${p.name} is gone` }
          : { success: false, reason: `Documents/${p.name} still exists` };
      },
    },
    {
      id: 'move_file',
      slots: ['name', 'folder'],
      async check(p, ctx) {
        const moved = await exists(path.join(ctx.home, 'Documents', p.folder!, p.name!));
        const left = await exists(path.join(ctx.home, 'Documents', p.name!));
        if (moved !== 'file') return { success: false, reason: `no file Documents/${p.folder}/${p.name}` };
        return left === undefined ? { success: true, reason: `${p.name} is in ${p.folder}` } : { success: false, reason: `${p.name} was copied, not moved` };
      },
    },
  ],
};
