import { MONTH_NAMES, rng, shuffle } from '../shared.js';

/** Who can do what with a file shared with them. */
export type Role = 'Viewer' | 'Commenter' | 'Editor';
export const ROLES: readonly Role[] = ['Viewer', 'Commenter', 'Editor'];
/** General access of a file: only the people added, or anyone with the link (as a viewer). */
export type LinkAccess = 'Restricted' | 'Anyone with the link';
export const LINK_ACCESS: readonly LinkAccess[] = ['Restricted', 'Anyone with the link'];

export type FileKind = 'pdf' | 'doc' | 'sheet' | 'slides' | 'image' | 'text';

/** Someone the member can share with (from their contacts). */
export interface Contact {
  name: string;
  email: string;
}

export interface Share {
  email: string;
  role: Role;
}

export interface Folder {
  id: number;
  name: string;
  /** Null for My Drive itself. */
  parentId: number | null;
  starred: boolean;
  trashed: boolean;
  /** Deleted forever from the trash. */
  deleted: boolean;
  seeded: boolean;
  /** Order it was made in this session (0 for a seeded one). */
  seq: number;
  daysAgo: number;
}

export interface DriveFile {
  id: number;
  name: string;
  kind: FileKind;
  /** The folder it is in; null for a file shared with the member (not in My Drive). */
  parentId: number | null;
  /** Owner's email; the member's own for files in My Drive. */
  owner: string;
  sizeKb: number;
  /** Days since it was last modified (0: today). */
  daysAgo: number;
  starred: boolean;
  offline: boolean;
  trashed: boolean;
  deleted: boolean;
  shares: Share[];
  link: LinkAccess;
  seeded: boolean;
  seq: number;
}

export type SortKey = 'Name' | 'Last modified' | 'Size';
export const SORT_KEYS: readonly SortKey[] = ['Name', 'Last modified', 'Size'];

export interface Settings {
  theme: string;
  wifiOnly: boolean;
  notifyShares: boolean;
  notifyComments: boolean;
  photoBackup: boolean;
}
export const THEMES: readonly string[] = ['Light', 'Dark', 'System default'];

/** The app's per-session state. Read by checkers in-process; the page never sees this object. */
export interface DriveState {
  seed: number;
  folders: Folder[];
  files: DriveFile[];
  contacts: Contact[];
  /** Files on Home under Suggested, in the order shown. */
  suggested: number[];
  sort: SortKey;
  storageUsedGb: number;
  settings: Settings;
  /** A message to show once on the next page (set by an action that navigates). */
  flash: string;
  /** Undo for the toast of the flash: a trashed item ("f:12" or "d:3"), or "". */
  flashUndo: string;
  seq: number;
}

export const BRAND = 'Nimbrel';
export const USER = 'Jordan Avery';
export const USER_EMAIL = 'jordan.avery@example.com';
export const ROOT_ID = 1;
export const ROOT_NAME = 'My Drive';
export const NAME_MAX = 60;
export const QUOTA_GB = 15;

const CONTACTS: readonly Contact[] = [
  { name: 'Priya Raman', email: 'priya.raman@example.com' },
  { name: 'Priya Ramos', email: 'priya.ramos@example.com' },
  { name: 'Daniel Ortiz', email: 'dan.ortiz@example.com' },
  { name: 'Daniela Ortiz', email: 'daniela.ortiz@example.com' },
  { name: 'Marcus Bell', email: 'marcus.bell@example.com' },
  { name: 'Marcus Belton', email: 'm.belton@example.com' },
  { name: 'Sofia Lindgren', email: 'sofia.lindgren@example.com' },
  { name: 'Tom Okafor', email: 'tom.okafor@example.com' },
  { name: 'Hannah Kim', email: 'hannah.kim@example.com' },
  { name: 'Grace Whitfield', email: 'grace.whitfield@example.com' },
];

/** Folders as [name, parent name, days since modified]. */
type FolderRow = readonly [name: string, parent: string, daysAgo: number];
const FOLDERS: readonly FolderRow[] = [
  ['Apartment', ROOT_NAME, 12],
  ['Taxes', ROOT_NAME, 40],
  ['Taxes 2023', 'Taxes', 380],
  ['Taxes 2024', 'Taxes', 45],
  ['Receipts', 'Taxes', 9],
  ['Photos', ROOT_NAME, 20],
  ['Iceland Trip', 'Photos', 60],
  ['Lisbon Trip', 'Photos', 21],
  ['Family', 'Photos', 33],
  ['Work', ROOT_NAME, 2],
  ['Projects', 'Work', 6],
  ['Project Atlas', 'Projects', 3],
  ['Project Aurora', 'Projects', 15],
  ['Recipes', ROOT_NAME, 70],
];

type ShareRow = readonly [name: string, role: Role];
type FileRow = readonly [name: string, kind: FileKind, folder: string, sizeKb: number, daysAgo: number, o?: { starred?: boolean; offline?: boolean; shares?: readonly ShareRow[]; link?: LinkAccess }];
const FILES: readonly FileRow[] = [
  ['Budget 2025.xlsx', 'sheet', ROOT_NAME, 48, 1, { starred: true, shares: [['Daniela Ortiz', 'Editor']] }],
  ['Budget 2025 - draft.xlsx', 'sheet', ROOT_NAME, 44, 16],
  ['Resume - Jordan Avery.pdf', 'pdf', ROOT_NAME, 212, 8],
  ['Resume - Jordan Avery (2022).pdf', 'pdf', ROOT_NAME, 198, 540],
  ['Scan 2025-05-14.pdf', 'pdf', ROOT_NAME, 1320, 19],
  ['Scan 2025-05-21.pdf', 'pdf', ROOT_NAME, 1185, 12],
  ['W-2 2024.pdf', 'pdf', ROOT_NAME, 164, 5],
  ['Wedding Guest List.xlsx', 'sheet', ROOT_NAME, 36, 4, { shares: [['Sofia Lindgren', 'Editor']] }],
  ['Meeting notes.docx', 'doc', ROOT_NAME, 27, 0],
  ['Car Insurance Card.pdf', 'pdf', ROOT_NAME, 96, 90, { offline: true, starred: true }],
  ['Passport Scan.jpg', 'image', ROOT_NAME, 2410, 200, { offline: true }],
  ['Lease Agreement 2024.pdf', 'pdf', 'Apartment', 845, 30, { shares: [['Grace Whitfield', 'Viewer']] }],
  ['Lease Agreement 2023.pdf', 'pdf', 'Apartment', 812, 395],
  ['Move-in Checklist.docx', 'doc', 'Apartment', 31, 28],
  ['Renters Insurance Policy.pdf', 'pdf', 'Apartment', 402, 26, { offline: true }],
  ['W-2 2023.pdf', 'pdf', 'Taxes 2023', 158, 400],
  ['1099-INT 2023.pdf', 'pdf', 'Taxes 2023', 88, 398],
  ['1099-INT 2024.pdf', 'pdf', 'Taxes 2024', 91, 44],
  ['Dentist receipt.pdf', 'pdf', 'Receipts', 120, 9],
  ['Laptop receipt.pdf', 'pdf', 'Receipts', 133, 52],
  ['Glacier Hike.jpg', 'image', 'Iceland Trip', 3820, 60],
  ['Northern Lights.jpg', 'image', 'Iceland Trip', 4105, 61],
  ['IMG_4021.jpg', 'image', 'Iceland Trip', 3390, 62],
  ['Tram 28.jpg', 'image', 'Lisbon Trip', 2980, 21],
  ['Belem Tower.jpg', 'image', 'Lisbon Trip', 3150, 22],
  ["Grandma's 90th.jpg", 'image', 'Family', 2760, 33, { starred: true }],
  ['Q3 Budget.xlsx', 'sheet', 'Work', 61, 2, { shares: [['Marcus Bell', 'Editor'], ['Hannah Kim', 'Viewer']] }],
  ['Team Offsite Agenda.docx', 'doc', 'Work', 42, 7, { shares: [['Marcus Bell', 'Commenter'], ['Tom Okafor', 'Editor']], link: 'Anyone with the link' }],
  ['Performance Review 2024.docx', 'doc', 'Work', 55, 150],
  ['Atlas Roadmap.pptx', 'slides', 'Project Atlas', 1640, 3, { shares: [['Marcus Bell', 'Editor']] }],
  ['Atlas Kickoff Notes.docx', 'doc', 'Project Atlas', 38, 11],
  ['Aurora Brief.docx', 'doc', 'Project Aurora', 46, 15],
  ["Grandma's Lasagna.docx", 'doc', 'Recipes', 22, 70, { starred: true }],
  ['Sourdough Starter Notes.txt', 'text', 'Recipes', 4, 95],
  ['Weeknight Dinners.docx', 'doc', 'Recipes', 29, 120],
];

/** Files others shared with the member: [name, kind, owner's name, size, days since modified]. */
const SHARED_WITH_ME: readonly (readonly [string, FileKind, string, number, number])[] = [
  ['Book Club Picks.docx', 'doc', 'Priya Raman', 24, 3],
  ['Soccer Carpool Schedule.xlsx', 'sheet', 'Daniel Ortiz', 18, 1],
  ['Kitchen Remodel Quotes.pdf', 'pdf', 'Tom Okafor', 560, 14],
  ['Offsite Photos.zip', 'text', 'Marcus Bell', 48200, 6],
];

/** Items in the trash at the start: [name, kind, size, days since modified]. */
const TRASHED: readonly (readonly [string, FileKind, number, number])[] = [
  ['Budget 2024.xlsx', 'sheet', 41, 160],
  ['Resume - old.pdf', 'pdf', 175, 900],
];

export function initialDriveState(seed: number): DriveState {
  const rand = rng(seed ^ 0x0d21e5);
  const jitter = (days: number): number => (days <= 1 ? days : Math.max(1, days + Math.floor(rand() * 3) - 1));
  const folders: Folder[] = [{ id: ROOT_ID, name: ROOT_NAME, parentId: null, starred: false, trashed: false, deleted: false, seeded: true, seq: 0, daysAgo: 0 }];
  const folderId = (name: string): number => {
    const f = folders.find((x) => x.name === name);
    if (!f) throw new Error(`drive seed: no folder ${name}`);
    return f.id;
  };
  FOLDERS.forEach(([name, parent, days], i) => {
    folders.push({ id: 2 + i, name, parentId: folderId(parent), starred: name === 'Taxes 2024', trashed: false, deleted: false, seeded: true, seq: 0, daysAgo: jitter(days) });
  });
  const email = (name: string): string => {
    const c = CONTACTS.find((x) => x.name === name);
    if (!c) throw new Error(`drive seed: no contact ${name}`);
    return c.email;
  };
  const size = (kb: number): number => Math.max(1, Math.round(kb * (0.92 + rand() * 0.16)));
  const files: DriveFile[] = [];
  const base = { starred: false, offline: false, trashed: false, deleted: false, shares: [] as Share[], link: 'Restricted' as LinkAccess, seeded: true, seq: 0 };
  for (const [name, kind, folder, kb, days, o] of FILES)
    files.push({
      ...base,
      id: 101 + files.length,
      name,
      kind,
      parentId: folderId(folder),
      owner: USER_EMAIL,
      sizeKb: size(kb),
      daysAgo: jitter(days),
      starred: o?.starred ?? false,
      offline: o?.offline ?? false,
      shares: (o?.shares ?? []).map(([n, role]) => ({ email: email(n), role })),
      link: o?.link ?? 'Restricted',
    });
  for (const [name, kind, owner, kb, days] of SHARED_WITH_ME)
    files.push({ ...base, shares: [{ email: USER_EMAIL, role: 'Viewer' }], id: 101 + files.length, name, kind, parentId: null, owner: email(owner), sizeKb: size(kb), daysAgo: jitter(days) });
  for (const [name, kind, kb, days] of TRASHED)
    files.push({ ...base, id: 101 + files.length, name, kind, parentId: ROOT_ID, owner: USER_EMAIL, sizeKb: size(kb), daysAgo: days, trashed: true });
  const recent = files.filter((f) => !f.trashed && f.daysAgo <= 12);
  const suggested = shuffle(recent, rand)
    .slice(0, 4)
    .map((f) => f.id);
  return {
    seed,
    folders,
    files,
    contacts: CONTACTS.map((c) => ({ ...c })),
    suggested,
    sort: 'Name',
    storageUsedGb: Math.round((5.4 + rand() * 1.6) * 10) / 10,
    settings: { theme: 'System default', wifiOnly: true, notifyShares: true, notifyComments: true, photoBackup: false },
    flash: '',
    flashUndo: '',
    seq: 0,
  };
}

export const folderOf = (st: DriveState, id: number): Folder | undefined => st.folders.find((f) => f.id === id && !f.deleted);
export const fileOf = (st: DriveState, id: number): DriveFile | undefined => st.files.find((f) => f.id === id && !f.deleted);
export const liveFolder = (st: DriveState, id: number): Folder | undefined => st.folders.find((f) => f.id === id && !f.deleted && !f.trashed && !inTrash(st, f.parentId));
export const contactByEmail = (st: DriveState, email: string): Contact | undefined => st.contacts.find((c) => c.email.toLowerCase() === email.trim().toLowerCase());
/** A person's name (their contact name, "You" for the member), or the email itself. */
export const personName = (st: DriveState, email: string): string => (email === USER_EMAIL ? USER : (contactByEmail(st, email)?.name ?? email));

/** True when the folder (or one above it) is in the trash. */
export function inTrash(st: DriveState, folderId: number | null): boolean {
  let id = folderId;
  for (let guard = 0; id !== null && guard < 50; guard++) {
    const f = st.folders.find((x) => x.id === id);
    if (!f || f.trashed || f.deleted) return !!f;
    id = f.parentId;
  }
  return false;
}

/** Folders from My Drive down to this one. */
export function pathOf(st: DriveState, folderId: number): Folder[] {
  const out: Folder[] = [];
  let id: number | null = folderId;
  for (let guard = 0; id !== null && guard < 50; guard++) {
    const f = st.folders.find((x) => x.id === id);
    if (!f) break;
    out.unshift(f);
    id = f.parentId;
  }
  return out;
}

/** True when `folderId` is `ancestorId` or inside it. */
export const within = (st: DriveState, folderId: number, ancestorId: number): boolean => pathOf(st, folderId).some((f) => f.id === ancestorId);

export const childFolders = (st: DriveState, id: number): Folder[] => st.folders.filter((f) => f.parentId === id && !f.trashed && !f.deleted);
export const childFiles = (st: DriveState, id: number): DriveFile[] => st.files.filter((f) => f.parentId === id && !f.trashed && !f.deleted);
export const sharedWithMe = (st: DriveState): DriveFile[] => st.files.filter((f) => f.owner !== USER_EMAIL && !f.deleted);
export const mine = (f: DriveFile): boolean => f.owner === USER_EMAIL;

const TODAY = Date.UTC(2025, 5, 2);
/** "Today", "Yesterday", "May 29", "Apr 30, 2024". */
export function dayLabel(daysAgo: number): string {
  if (daysAgo <= 0) return 'Today';
  if (daysAgo === 1) return 'Yesterday';
  const d = new Date(TODAY - daysAgo * 86400000);
  const md = `${(MONTH_NAMES[d.getUTCMonth()] ?? '').slice(0, 3)} ${d.getUTCDate()}`;
  return d.getUTCFullYear() === 2025 ? md : `${md}, ${d.getUTCFullYear()}`;
}

/** "845 KB", "3.8 MB". */
export const sizeLabel = (kb: number): string => (kb >= 1024 ? `${(kb / 1024).toFixed(1)} MB` : `${kb} KB`);

export const KIND_LABELS: Readonly<Record<FileKind, string>> = {
  pdf: 'PDF document',
  doc: 'Word document',
  sheet: 'Spreadsheet',
  slides: 'Presentation',
  image: 'Image',
  text: 'File',
};

const clean = (raw: string): string => raw.trim().replace(/\s+/g, ' ');
const lower = (s: string): string => clean(s).toLowerCase();

/** Why a folder name cannot be used in that folder (empty when it can). */
export function folderNameError(st: DriveState, parentId: number, raw: string, self?: number): string {
  const name = clean(raw);
  if (name.length > NAME_MAX) return `Keep the name under ${NAME_MAX} characters`;
  if (/[/\\]/.test(name)) return 'Names can’t contain / or \\';
  const taken = childFolders(st, parentId).find((f) => f.id !== self && lower(f.name) === lower(name));
  if (taken) return `There’s already a folder called “${taken.name}” here`;
  return '';
}

/** Why a file can't be renamed to this (empty when it can). */
export function fileNameError(raw: string): string {
  const name = clean(raw);
  if (!name) return 'Enter a name';
  if (name.length > NAME_MAX) return `Keep the name under ${NAME_MAX} characters`;
  if (/[/\\]/.test(name)) return 'Names can’t contain / or \\';
  return '';
}

export const cleanName = clean;
