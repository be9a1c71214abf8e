import { MONTH_NAMES, rng, WEEKDAY_NAMES } from '../shared.js';

export type PolicyKind = 'home' | 'car';

/** A valuable listed on a home policy's contents cover (a specified item). */
export interface Item {
  id: number;
  name: string;
  category: string;
  /** Replacement value in dollars. */
  value: number;
  removed: boolean;
  seeded: boolean;
  /** Order it was added in this session (0 for a seeded one). */
  seq: number;
}

export interface Policy {
  id: string;
  kind: PolicyKind;
  /** What the member calls it: the address of the home or the car's make and model. */
  label: string;
  product: string;
  number: string;
  /** A line under the label: the full address, or the year and plate. */
  detail: string;
  /** Monthly premium in cents. */
  premiumCents: number;
  /** Day of the month the premium is taken (1-28). */
  payDay: number;
  methodId: string;
  renews: string;
  deductible: number;
  cover: (readonly [string, string])[];
  items: Item[];
  drivers: string[];
  documents: string[];
}

export type ClaimStatus = 'Submitted' | 'In review' | 'Settled' | 'Withdrawn';

export interface Claim {
  id: number;
  ref: string;
  policyId: string;
  type: string;
  /** ISO date of the incident, e.g. 2025-05-28. */
  date: string;
  /** Estimated cost in dollars. */
  amount: number;
  description: string;
  status: ClaimStatus;
  /** Day it was filed (ISO). */
  filed: string;
  seeded: boolean;
  seq: number;
}

export type Delivery = 'Email' | 'Post';
export const DELIVERIES: readonly Delivery[] = ['Email', 'Post'];

export interface DocRequest {
  id: number;
  policyId: string;
  document: string;
  delivery: Delivery;
  /** ISO day of the request. */
  day: string;
  seeded: boolean;
  seq: number;
}

export interface PayMethod {
  id: string;
  label: string;
  sub: string;
}

export interface Settings {
  paperless: boolean;
  reminders: boolean;
  claimUpdates: boolean;
}

/** The app's per-session state. Read by checkers in-process; the page never sees this object. */
export interface InsuranceState {
  seed: number;
  policies: Policy[];
  claims: Claim[];
  requests: DocRequest[];
  methods: PayMethod[];
  settings: Settings;
  /** A message to show once on the next page (set by an action that navigates). */
  flash: string;
  seq: number;
}

export const BRAND = 'Brellow';
export const USER = 'Morgan Ellis';
export const USER_EMAIL = 'morgan.ellis@example.com';
export const MAIL_ADDRESS = '14 Alder Way, Millbrook, OR 97321';
export const NAME_MAX = 60;
export const VALUE_MAX = 250000;
export const AMOUNT_MAX = 500000;

/** Today in the app: Monday, June 2, 2025 (as on the launcher). */
export const TODAY = '2025-06-02';
/** The oldest incident a new claim can be for (30 days back). */
export const OLDEST_CLAIM_DAY = '2025-05-03';

export const HOME_CLAIM_TYPES: readonly string[] = ['Water damage', 'Theft or burglary', 'Storm damage', 'Fire or smoke', 'Accidental damage'];
export const CAR_CLAIM_TYPES: readonly string[] = ['Collision', 'Theft', 'Windscreen damage', 'Vandalism', 'Fire'];
export const claimTypesOf = (kind: PolicyKind): readonly string[] => (kind === 'home' ? HOME_CLAIM_TYPES : CAR_CLAIM_TYPES);

export const CATEGORIES: readonly string[] = ['Jewelry', 'Watches', 'Electronics', 'Cameras', 'Bicycles', 'Musical instruments', 'Art & collectibles', 'Other'];

export const HOME_DOCUMENTS: readonly string[] = ['Policy schedule', 'Proof of insurance', 'Policy booklet', 'Renewal invitation'];
export const CAR_DOCUMENTS: readonly string[] = ['Insurance ID card', 'Policy schedule', 'Certificate of insurance', 'Policy booklet'];

const METHODS: readonly PayMethod[] = [
  { id: 'm1', label: 'Visa ending 4821', sub: 'Expires 08/27' },
  { id: 'm2', label: 'Visa ending 4812', sub: 'Expires 03/26' },
  { id: 'm3', label: 'Mastercard ending 0937', sub: 'Expires 11/28' },
  { id: 'm4', label: 'Bank account ending 5520', sub: 'Cascade Credit Union · checking' },
];

type ItemRow = readonly [name: string, category: string, value: number];
interface PolicyRow {
  id: string;
  kind: PolicyKind;
  label: string;
  number: string;
  detail: string;
  premium: number;
  payDay: number;
  method: string;
  renews: string;
  deductible: number;
  cover: readonly (readonly [string, string])[];
  items?: readonly ItemRow[];
  drivers?: readonly string[];
}

const POLICIES: readonly PolicyRow[] = [
  {
    id: 'h1',
    kind: 'home',
    label: '14 Alder Way',
    number: 'HC-2044-7193',
    detail: '14 Alder Way, Millbrook, OR 97321',
    premium: 96.4,
    payDay: 1,
    method: 'm4',
    renews: 'September 12, 2025',
    deductible: 1000,
    cover: [
      ['Buildings', 'Up to $450,000'],
      ['Contents', 'Up to $85,000'],
      ['Accidental damage', 'Included'],
      ['Temporary housing', 'Up to 12 months'],
    ],
    items: [
      ['Engagement ring', 'Jewelry', 6800],
      ['Omega Seamaster watch', 'Watches', 4200],
      ['MacBook Pro laptop', 'Electronics', 2600],
      ['Canon EOS R5 camera', 'Cameras', 3900],
      ['Harbor at Dusk painting', 'Art & collectibles', 5200],
    ],
  },
  {
    id: 'h2',
    kind: 'home',
    label: '27 Birch Lane',
    number: 'HC-2044-7139',
    detail: '27 Birch Lane, Sisters, OR 97759 · holiday home',
    premium: 58.9,
    payDay: 15,
    method: 'm1',
    renews: 'March 3, 2026',
    deductible: 1500,
    cover: [
      ['Buildings', 'Up to $310,000'],
      ['Contents', 'Up to $40,000'],
      ['Accidental damage', 'Not included'],
      ['Unoccupied for 60+ days', 'Included'],
    ],
    items: [
      ['Omega Speedmaster watch', 'Watches', 5600],
      ['Canon EOS R6 camera', 'Cameras', 2700],
      ['Trek road bike', 'Bicycles', 3100],
    ],
  },
  {
    id: 'c1',
    kind: 'car',
    label: 'Toyota Corolla',
    number: 'AU-5518-0246',
    detail: '2019 Toyota Corolla · plate 7KXR218',
    premium: 82.4,
    payDay: 14,
    method: 'm1',
    renews: 'November 30, 2025',
    deductible: 500,
    cover: [
      ['Cover', 'Comprehensive'],
      ['Liability', '$100,000 / $300,000'],
      ['Roadside assistance', 'Included'],
      ['Rental car', 'Up to $40 a day'],
    ],
    drivers: ['Morgan Ellis', 'Casey Ellis'],
  },
  {
    id: 'c2',
    kind: 'car',
    label: 'Toyota Camry',
    number: 'AU-5518-0264',
    detail: '2021 Toyota Camry · plate 8MBT452',
    premium: 91.15,
    payDay: 22,
    method: 'm2',
    renews: 'January 18, 2026',
    deductible: 750,
    cover: [
      ['Cover', 'Comprehensive'],
      ['Liability', '$250,000 / $500,000'],
      ['Roadside assistance', 'Included'],
      ['Rental car', 'Not included'],
    ],
    drivers: ['Morgan Ellis'],
  },
];

export function initialInsuranceState(seed: number): InsuranceState {
  const rand = rng(seed ^ 0x1a5c0e);
  let itemId = 1;
  const policies: Policy[] = POLICIES.map((p) => ({
    id: p.id,
    kind: p.kind,
    label: p.label,
    product: p.kind === 'home' ? 'Home & contents' : 'Car',
    number: p.number,
    detail: p.detail,
    premiumCents: Math.round(p.premium * 100 * (0.95 + rand() * 0.1)),
    payDay: p.payDay,
    methodId: p.method,
    renews: p.renews,
    deductible: p.deductible,
    cover: p.cover.map(([k, v]) => [k, v] as const),
    items: (p.items ?? []).map(([name, category, value]) => ({ id: itemId++, name, category, value, removed: false, seeded: true, seq: 0 })),
    drivers: [...(p.drivers ?? [])],
    documents: [...(p.kind === 'home' ? HOME_DOCUMENTS : CAR_DOCUMENTS)],
  }));
  const ref = (n: number): string => `CLM-${String(240000 + n + Math.floor(rand() * 900) * 10).padStart(6, '0')}`;
  const claims: Claim[] = [
    { id: 1, ref: ref(871), policyId: 'c2', type: 'Windscreen damage', date: '2025-03-11', amount: 420, description: 'A stone from a truck cracked the windscreen on I-5.', status: 'Settled', filed: '2025-03-12', seeded: true, seq: 0 },
    { id: 2, ref: ref(406), policyId: 'h1', type: 'Water damage', date: '2025-05-19', amount: 3150, description: 'The dishwasher hose burst and flooded the kitchen floor.', status: 'In review', filed: '2025-05-20', seeded: true, seq: 0 },
  ];
  return {
    seed,
    policies,
    claims,
    requests: [{ id: 1, policyId: 'h1', document: 'Proof of insurance', delivery: 'Email', day: '2025-05-20', seeded: true, seq: 0 }],
    methods: METHODS.map((m) => ({ ...m })),
    settings: { paperless: true, reminders: true, claimUpdates: true },
    flash: '',
    seq: 0,
  };
}

export const policyOf = (st: InsuranceState, id: string): Policy | undefined => st.policies.find((p) => p.id === id);
export const methodOf = (st: InsuranceState, id: string): PayMethod | undefined => st.methods.find((m) => m.id === id);
export const liveItems = (p: Policy): Item[] => p.items.filter((i) => !i.removed);

/** "$1,250" (whole dollars) or "$82.40" (cents). */
export const dollars = (n: number): string => `$${n.toLocaleString('en-US')}`;
export const money = (cents: number): string => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const dateOf = (iso: string): Date => new Date(`${iso}T00:00:00Z`);
export const isoOf = (y: number, m: number, d: number): string => `${y}-${String(m + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
/** "May 28, 2025". */
export function longDay(iso: string): string {
  const d = dateOf(iso);
  return `${MONTH_NAMES[d.getUTCMonth()] ?? ''} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}
/** "Wednesday, May 28, 2025". */
export function weekdayDay(iso: string): string {
  const d = dateOf(iso);
  return `${WEEKDAY_NAMES[(d.getUTCDay() + 6) % 7] ?? ''}, ${longDay(iso)}`;
}
/** "May 28" (the year when it is not 2025). */
export function shortDay(iso: string): string {
  const d = dateOf(iso);
  const md = `${MONTH_NAMES[d.getUTCMonth()] ?? ''} ${d.getUTCDate()}`;
  return d.getUTCFullYear() === 2025 ? md : `${md}, ${d.getUTCFullYear()}`;
}
/** "May 28", "may 28, 2025", "2025-05-28" → "2025-05-28" (2025 unless a year is given); "" when not a date. */
export function parseDay(raw: string): string {
  const s = raw.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return s;
  const m = /^([a-z]+)\.?\s+(\d{1,2})(?:,?\s+(\d{4}))?$/i.exec(s);
  if (!m) return '';
  const month = MONTH_NAMES.findIndex((n) => n.toLowerCase().startsWith(m[1]!.toLowerCase()) && m[1]!.length >= 3);
  if (month < 0) return '';
  return isoOf(Number(m[3] ?? 2025), month, Number(m[2]));
}
/** The 1st, 2nd, 3rd, 14th… */
export const ordinal = (n: number): string => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
/** Next day the premium is taken on `payDay`, after today. */
export function nextPayment(payDay: number): string {
  const t = dateOf(TODAY);
  const y = t.getUTCFullYear();
  const m = t.getUTCMonth();
  return payDay > t.getUTCDate() ? isoOf(y, m, payDay) : isoOf(m === 11 ? y + 1 : y, (m + 1) % 12, payDay);
}

const clean = (raw: string): string => raw.trim().replace(/\s+/g, ' ');
export const cleanName = clean;
/** Whole dollars from what was typed ("2,400", "$2400", "2400.00"); NaN when it is not an amount. */
export function parseDollars(raw: string): number {
  const s = raw.trim().replace(/^\$\s*/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return Number.NaN;
  return Math.round(Number(s));
}

/** Why a valuable cannot be added to the policy (empty when it can). */
export function itemError(p: Policy, name: string, category: string, value: number): string {
  if (!name) return 'Enter the item’s name';
  if (name.length > NAME_MAX) return `Keep the name under ${NAME_MAX} characters`;
  if (liveItems(p).some((i) => i.name.toLowerCase() === name.toLowerCase())) return `“${name}” is already listed on this policy`;
  if (!CATEGORIES.includes(category)) return 'Choose a category';
  if (!Number.isFinite(value) || value <= 0) return 'Enter the replacement value in dollars';
  if (value > VALUE_MAX) return `Items over ${dollars(VALUE_MAX)} need a call with us`;
  return '';
}

/** Why a claim cannot be filed (empty when it can). */
export function claimError(p: Policy, type: string, date: string, amount: number): string {
  if (!claimTypesOf(p.kind).includes(type)) return 'Choose what happened';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return 'Pick the day it happened';
  if (date > TODAY) return 'The day can’t be in the future';
  if (date < OLDEST_CLAIM_DAY) return 'For anything older than 30 days, call us on 1-800-555-0142';
  if (!Number.isFinite(amount) || amount <= 0) return 'Enter the estimated cost in dollars';
  if (amount > AMOUNT_MAX) return 'For claims this large, call us on 1-800-555-0142';
  return '';
}

/** Monthly premium added for a valuable (about 0.05% of its value a month), in cents. */
export const itemPremiumCents = (value: number): number => Math.max(50, Math.round(value * 0.05));
