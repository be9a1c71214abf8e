import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import { folderOf, initialDriveState, inTrash, mine, personName, ROLES, type DriveFile, type DriveState, type Folder, type Share } from './state.js';

export const DRIVE_FAMILIES = ['create_folder', 'move_file', 'share_file', 'make_offline'] as const;
export type DriveFamily = (typeof DRIVE_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`drive checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`drive checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const list = (items: readonly string[]): string => items.join(', ');
const q = (name: string): string => `"${name}"`;

/** Files of the member's own in My Drive, not in the trash, at the start: the ones the families name. */
export const ownFiles = (st: DriveState): DriveFile[] => st.files.filter((f) => mine(f) && !f.trashed && !f.deleted && f.parentId !== null && !inTrash(st, f.parentId));
export const liveFolders = (st: DriveState): Folder[] => st.folders.filter((d) => !d.trashed && !d.deleted && !inTrash(st, d.parentId));

/** What changed beyond what a family asks for. */
function sideEffects(start: DriveState, st: DriveState, o: { created?: number; moved?: number; shared?: { file: number; email: string }; offline?: number }): string[] {
  const out: string[] = [];
  const where = (id: number | null): string => (id === null ? 'Shared with me' : (folderOf(st, id)?.name ?? 'a folder'));
  for (const d of st.folders) {
    if (d.id === o.created) continue;
    const d0 = start.folders.find((x) => x.id === d.id);
    if (!d0) {
      if (!d.deleted) out.push(`the folder ${q(d.name)} was created${d.trashed ? ' (now in the trash)' : ''}`);
      continue;
    }
    if (d.deleted && !d0.deleted) out.push(`the folder ${q(d0.name)} was deleted forever`);
    else if (d.trashed && !d0.trashed) out.push(`the folder ${q(d0.name)} was moved to the trash`);
    else if (!d.trashed && d0.trashed) out.push(`the folder ${q(d0.name)} was restored from the trash`);
    if (d.name !== d0.name) out.push(`the folder ${q(d0.name)} was renamed to ${q(d.name)}`);
    if (d.parentId !== d0.parentId) out.push(`the folder ${q(d0.name)} was moved to ${q(where(d.parentId))}`);
    if (d.starred !== d0.starred) out.push(`the folder ${q(d0.name)} was ${d.starred ? 'starred' : 'unstarred'}`);
  }
  for (const f of st.files) {
    const f0 = start.files.find((x) => x.id === f.id);
    if (!f0) {
      if (!f.deleted) out.push(`${q(f.name)} was created${f.trashed ? ' (now in the trash)' : ''}`);
      continue;
    }
    const n = q(f0.name);
    if (f.deleted && !f0.deleted) out.push(`${n} was deleted forever`);
    else if (f.trashed && !f0.trashed) out.push(`${n} was moved to the trash`);
    else if (!f.trashed && f0.trashed) out.push(`${n} was restored from the trash`);
    if (f.name !== f0.name) out.push(`${n} was renamed to ${q(f.name)}`);
    if (f.parentId !== f0.parentId && f.id !== o.moved) out.push(`${n} was moved to ${q(where(f.parentId))}`);
    if (f.starred !== f0.starred) out.push(`${n} was ${f.starred ? 'starred' : 'unstarred'}`);
    if (f.offline !== f0.offline && f.id !== o.offline) out.push(f.offline ? `${n} was made available offline` : `${n} is no longer available offline`);
    if (f.link !== f0.link) out.push(`general access of ${n} was changed to ${f.link}`);
    for (const s of f.shares) {
      if (o.shared && o.shared.file === f.id && o.shared.email === s.email) continue;
      const s0 = f0.shares.find((x) => x.email === s.email);
      if (!s0) out.push(`${n} was shared with ${personName(st, s.email)} (${s.role})`);
      else if (s0.role !== s.role) out.push(`${personName(st, s.email)}'s access to ${n} was changed to ${s.role}`);
    }
    for (const s0 of f0.shares) if (!f.shares.some((s) => s.email === s0.email)) out.push(`${personName(st, s0.email)}'s access to ${n} was removed`);
  }
  return out;
}

/** Success checkers for the cloud file storage app; they read the server-side session state in-process. */
export function check(state: DriveState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'drive') throw new Error(`drive checker got a spec for app "${spec.app}"`);
  const start = initialDriveState(state.seed);
  const fileParam = (): DriveFile => {
    const own = ownFiles(start);
    const name = param(
      spec,
      'file',
      own.map((f) => f.name),
    );
    return own.find((f) => same(f.name, name))!;
  };
  const folderParam = (key: string): Folder => {
    const live = liveFolders(start);
    const name = param(
      spec,
      key,
      live.map((d) => d.name),
    );
    return live.find((d) => same(d.name, name))!;
  };
  const nameIn = (id: number | null): string => (id === null ? 'Shared with me' : (folderOf(state, id)?.name ?? 'a deleted folder'));
  switch (spec.family as DriveFamily) {
    case 'create_folder': {
      const name = param(spec, 'new_folder');
      const parent0 = folderParam('parent');
      const taken = start.folders.find((d) => d.parentId === parent0.id && !d.trashed && same(d.name, name));
      if (taken) throw new Error(`drive checker create_folder: there is already a folder called "${taken.name}" in "${parent0.name}"`);
      const created = state.folders.filter((d) => !d.seeded && !d.deleted).sort((a, b) => a.seq - b.seq);
      const live = created.filter((d) => !d.trashed && !inTrash(state, d.parentId));
      if (!created.length) return no('no folder was created');
      const d = live.find((x) => same(x.name, name)) ?? created.find((x) => same(x.name, name)) ?? live[live.length - 1] ?? created[created.length - 1]!;
      if (!same(d.name, name)) return no(`the new folder is called "${d.name}", expected "${name}"`);
      if (d.trashed || inTrash(state, d.parentId)) return no(`"${d.name}" was created and then moved to the trash`);
      if (d.parentId !== parent0.id) return no(`"${d.name}" was created in "${nameIn(d.parentId)}", expected "${parent0.name}"`);
      if (live.length > 1) return no(`${live.length} folders were created (${list(live.map((x) => q(x.name)))}), expected one`);
      const other = sideEffects(start, state, { created: d.id });
      if (other.length) return no(`"${d.name}" was created in "${parent0.name}" but ${other.join(' and ')}`);
      return ok(`created the folder "${d.name}" in "${parent0.name}"`);
    }
    case 'move_file': {
      const f0 = fileParam();
      const to = folderParam('folder');
      if (f0.parentId === to.id) throw new Error(`drive checker move_file: "${f0.name}" is already in "${to.name}"`);
      const f = state.files.find((x) => x.id === f0.id)!;
      if (f.deleted) return no(`"${f0.name}" was deleted forever`);
      if (f.trashed) return no(`"${f0.name}" was moved to the trash`);
      if (f.parentId === f0.parentId) {
        const instead = state.files.filter((x) => x.parentId === to.id && start.files.find((y) => y.id === x.id)?.parentId !== to.id);
        if (instead.length) return no(`${list(instead.map((x) => q(x.name)))} was moved to "${to.name}" instead of "${f0.name}"`);
        return no(`"${f0.name}" was not moved (it is still in "${nameIn(f0.parentId)}")`);
      }
      if (f.parentId !== to.id) return no(`"${f0.name}" was moved to "${nameIn(f.parentId)}", expected "${to.name}"`);
      const other = sideEffects(start, state, { moved: f.id });
      if (other.length) return no(`"${f0.name}" was moved to "${to.name}" but ${other.join(' and ')}`);
      return ok(`moved "${f0.name}" to "${to.name}"`);
    }
    case 'share_file': {
      const f0 = fileParam();
      const who = param(
        spec,
        'person',
        start.contacts.map((c) => c.name),
      );
      const c = start.contacts.find((x) => same(x.name, who))!;
      const role = param(spec, 'role', ROLES);
      if (f0.shares.some((s) => s.email === c.email)) throw new Error(`drive checker share_file: ${c.name} already has access to "${f0.name}"`);
      const f = state.files.find((x) => x.id === f0.id)!;
      if (f.deleted || f.trashed) return no(`"${f0.name}" was ${f.deleted ? 'deleted forever' : 'moved to the trash'}`);
      const added = f.shares.filter((s) => !f0.shares.some((x) => x.email === s.email));
      const names = (ss: readonly Share[]): string => list(ss.map((s) => `${personName(state, s.email)} (${s.role})`));
      const share = f.shares.find((s) => s.email === c.email);
      if (!share) {
        if (added.length) return no(`"${f0.name}" was shared with ${names(added)}, expected ${c.name}`);
        const elsewhere = state.files.filter((x) => x.shares.some((s) => s.email === c.email) && !start.files.find((y) => y.id === x.id)?.shares.some((s) => s.email === c.email));
        if (elsewhere.length) return no(`${c.name} was given access to ${list(elsewhere.map((x) => q(x.name)))}, expected "${f0.name}"`);
        return no(`"${f0.name}" was not shared with ${c.name}`);
      }
      if (!same(share.role, role)) return no(`"${f0.name}" was shared with ${c.name} as ${share.role}, expected ${role}`);
      const extra = added.filter((s) => s.email !== c.email);
      if (extra.length) return no(`"${f0.name}" was shared with ${c.name} as ${share.role} but with ${names(extra)} too`);
      const other = sideEffects(start, state, { shared: { file: f.id, email: c.email } });
      if (other.length) return no(`"${f0.name}" was shared with ${c.name} as ${share.role} but ${other.join(' and ')}`);
      return ok(`shared "${f0.name}" with ${c.name} as ${share.role}`);
    }
    case 'make_offline': {
      const f0 = fileParam();
      if (f0.offline) throw new Error(`drive checker make_offline: "${f0.name}" is already available offline`);
      const f = state.files.find((x) => x.id === f0.id)!;
      if (f.deleted || f.trashed) return no(`"${f0.name}" was ${f.deleted ? 'deleted forever' : 'moved to the trash'}`);
      if (!f.offline) {
        const instead = state.files.filter((x) => x.offline && !start.files.find((y) => y.id === x.id)?.offline);
        return no(`"${f0.name}" is not available offline${instead.length ? ` (made ${list(instead.map((x) => q(x.name)))} available offline instead)` : ''}`);
      }
      const other = sideEffects(start, state, { offline: f.id });
      if (other.length) return no(`"${f0.name}" is available offline but ${other.join(' and ')}`);
      return ok(`"${f0.name}" is available offline`);
    }
    default:
      throw new Error(`drive checker: unknown task family "${spec.family}" (known: ${DRIVE_FAMILIES.join(', ')})`);
  }
}

export const driveCheckers: AppCheckers<DriveState> = { families: DRIVE_FAMILIES, check };
