import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadDag } from '../../apps/kit.js';
import type { DesktopApp } from './types.js';
import { FILE_NAMES, documentText } from './fixtures.js';

const exists = async (p: string): Promise<'file' | 'dir' | undefined> => {
  try {
    const s = await stat(p);
    return s.isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
};

/** The folder every episode starts with beside the text files. */
export const EXISTING_FOLDER = 'Archive';

/** PCManFM on ~/Documents. Checkers read the file system. */
export const fileManagerApp: DesktopApp = {
  id: 'file_manager',
  title: 'PCManFM',
  windowClass: 'pcmanfm',
  command: (home) => ['pcmanfm', '--no-desktop', path.join(home, 'Documents')],
  async prepare(home, seed) {
    const docs = path.join(home, 'Documents');
    await mkdir(path.join(docs, EXISTING_FOLDER), { recursive: true });
    for (const [i, f] of FILE_NAMES.entries()) await writeFile(path.join(docs, f), documentText(seed + i));
  },
  dag: loadDag(new URL('./dags/file_manager.json', import.meta.url), 'environments/desktop/apps/dags/file_manager.json'),
  families: [
    {
      id: 'create_folder',
      slots: ['new_folder'],
      async check(p, ctx) {
        return (await exists(path.join(ctx.home, 'Documents', p.new_folder!))) === 'dir'
          ? { success: true, reason: `folder Documents/${p.new_folder} exists` }
          : { success: false, reason: `no folder Documents/${p.new_folder}` };
      },
    },
    {
      id: 'rename_file',
      slots: ['file', 'new_name'],
      async check(p, ctx) {
        const [from, to] = [await exists(path.join(ctx.home, 'Documents', p.file!)), await exists(path.join(ctx.home, 'Documents', p.new_name!))];
        if (to !== 'file') return { success: false, reason: `no file Documents/${p.new_name}` };
        return from === undefined ? { success: true, reason: `${p.file} was renamed to ${p.new_name}` } : { success: false, reason: `${p.file} still exists beside ${p.new_name}` };
      },
    },
    {
      id: 'delete_file',
      slots: ['file'],
      async check(p, ctx) {
        return (await exists(path.join(ctx.home, 'Documents', p.file!))) === undefined
          ? { success: true, reason: `Documents/${p.file} is gone` }
          : { success: false, reason: `Documents/${p.file} still exists` };
      },
    },
    {
      id: 'move_file',
      slots: ['file', 'folder'],
      async check(p, ctx) {
        const moved = await exists(path.join(ctx.home, 'Documents', p.folder!, p.file!));
        const left = await exists(path.join(ctx.home, 'Documents', p.file!));
        if (moved !== 'file') return { success: false, reason: `no file Documents/${p.folder}/${p.file}` };
        return left === undefined ? { success: true, reason: `${p.file} is in ${p.folder}` } : { success: false, reason: `${p.file} was copied, not moved` };
      },
    },
  ],
};
